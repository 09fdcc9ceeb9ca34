/**
 * One value kept in this browser's localStorage under `item`, read through a parser (what another version or a
 * hand edit left there is dropped, never trusted), written whole, and followed across tabs (the `storage` event).
 * For what outlives the tab and is not secret: names, addresses, never a key.
 */
export interface LocalStore<T> {
  /** The stored value, parsed; `empty` when there is none, it does not parse, or storage cannot be read. */
  read: () => T;
  /** Throws when the browser refuses storage (site data blocked, quota): the caller tells the user. */
  write: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
  empty: T;
}

export function createLocalStore<T>(item: string, parse: (stored: unknown) => T | null, empty: T): LocalStore<T> {
  const listeners = new Set<() => void>();
  let snapshot: { raw: string | null; value: T } = { raw: null, value: empty };

  function readRaw(): string | null {
    try {
      return localStorage.getItem(item);
    } catch {
      return null;
    }
  }

  function parsed(raw: string | null): T {
    if (raw === null) return empty;
    try {
      return parse(JSON.parse(raw)) ?? empty;
    } catch {
      return empty;
    }
  }

  function notify(): void {
    for (const listener of listeners) listener();
  }

  function onStorage(event: StorageEvent): void {
    if (event.key === null || event.key === item) notify();
  }

  return {
    read() {
      const raw = readRaw();
      // The same text reads as the same value, so that React sees no change where there is none.
      if (raw !== snapshot.raw) snapshot = { raw, value: parsed(raw) };
      return snapshot.value;
    },
    write(value) {
      localStorage.setItem(item, JSON.stringify(value));
      notify();
    },
    subscribe(listener) {
      if (listeners.size === 0) window.addEventListener("storage", onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.removeEventListener("storage", onStorage);
      };
    },
    empty,
  };
}
