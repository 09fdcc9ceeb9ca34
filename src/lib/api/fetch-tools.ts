/** The pieces every request of the dashboard shares: one default fetch, one deadline, one offline check. */

/** The browser's fetch, looked up at call time so that a test's stub of the global is seen. */
export const defaultFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

export function isOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

export function isCrossOrigin(baseUrl: string): boolean {
  if (typeof location === "undefined") return false;
  try {
    return new URL(baseUrl === "" ? "/" : baseUrl, location.href).origin !== location.origin;
  } catch {
    return false;
  }
}

export interface Deadline {
  /** Aborts when the caller aborts or the time is up, whichever comes first. */
  signal: AbortSignal;
  /** The time ran out (and the caller had not aborted first). */
  timedOut: () => boolean;
}

/** One signal for "the caller gave up or the time is up". */
export function deadline(timeoutMs: number, caller?: AbortSignal): Deadline {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = caller === undefined ? timeout : AbortSignal.any([caller, timeout]);
  return { signal, timedOut: () => timeout.aborted && caller?.aborted !== true };
}

/** Settles like `promise`, or rejects with an AbortError as soon as `signal` aborts: a fetch that ignores its signal still gives up. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Which abort it was (the caller's or the deadline) is decided by the caller of this, not by the reason.
    const onAbort = () => reject(new DOMException("The request was aborted", "AbortError"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
