import { useSyncExternalStore } from "react";
import type { Connection } from "../../lib/api-client";

/**
 * The one place the API key lives: this tab's sessionStorage. It survives a reload and is gone
 * in a new tab or session; it never goes to localStorage, a URL or the console.
 */

const API_KEY_ITEM = "keyscope.apiKey";
const BASE_URL_ITEM = "keyscope.baseUrl";

const listeners = new Set<() => void>();

function readItem(item: string): string | null {
  try {
    return sessionStorage.getItem(item);
  } catch {
    // Storage blocked by the browser: behave as if nothing is stored.
    return null;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

// useSyncExternalStore needs the same object back while nothing changed.
let snapshot: { apiKey: string | null; baseUrl: string | null; connection: Connection | null } = {
  apiKey: null,
  baseUrl: null,
  connection: null,
};

export function readConnection(): Connection | null {
  const apiKey = readItem(API_KEY_ITEM);
  const baseUrl = readItem(BASE_URL_ITEM);
  if (apiKey !== snapshot.apiKey || baseUrl !== snapshot.baseUrl) {
    snapshot = { apiKey, baseUrl, connection: apiKey && baseUrl ? { baseUrl, apiKey } : null };
  }
  return snapshot.connection;
}

/** The base URL last used in this tab, kept after the key is forgotten so re-entering is quick. */
export function readStoredBaseUrl(): string | null {
  return readItem(BASE_URL_ITEM);
}

/** Throws when the browser refuses storage; the caller tells the user. */
export function saveConnection(connection: Connection): void {
  sessionStorage.setItem(BASE_URL_ITEM, connection.baseUrl);
  sessionStorage.setItem(API_KEY_ITEM, connection.apiKey);
  notify();
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(API_KEY_ITEM);
  } catch {
    // Nothing could have been stored.
  }
  notify();
}

// Another document of this tab's session (e.g. a same-origin frame) changed the stored key.
function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key === API_KEY_ITEM || event.key === BASE_URL_ITEM) notify();
}

export function subscribeToConnection(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

export function useConnection(): Connection | null {
  return useSyncExternalStore(subscribeToConnection, readConnection, () => null);
}
