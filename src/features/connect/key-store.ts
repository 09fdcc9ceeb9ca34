import { useSyncExternalStore } from "react";
import type { Connection } from "../../lib/api/transport";

/**
 * The one place the API key lives: this tab's sessionStorage. It survives a reload and is gone
 * in a new tab or session; it never goes to localStorage, a URL or the console.
 */

const API_KEY_ITEM = "keyscope.apiKey";
const BASE_URL_ITEM = "keyscope.baseUrl";
const API_ID_ITEM = "keyscope.apiId";

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
let snapshot: { apiKey: string | null; baseUrl: string | null; apiId: string | null; connection: Connection | null } = {
  apiKey: null,
  baseUrl: null,
  apiId: null,
  connection: null,
};

export function readConnection(): Connection | null {
  const apiKey = readItem(API_KEY_ITEM);
  const baseUrl = readItem(BASE_URL_ITEM);
  const apiId = readItem(API_ID_ITEM);
  if (apiKey !== snapshot.apiKey || baseUrl !== snapshot.baseUrl || apiId !== snapshot.apiId) {
    const connection: Connection | null = apiKey && baseUrl ? { baseUrl, apiKey } : null;
    if (connection && apiId) connection.apiId = apiId;
    snapshot = { apiKey, baseUrl, apiId, connection };
  }
  return snapshot.connection;
}

/** The base URL last used in this tab, kept after the key is forgotten so re-entering is quick. */
export function readStoredBaseUrl(): string | null {
  return readItem(BASE_URL_ITEM);
}

/** Throws when the browser refuses storage; the caller tells the user. */
export function saveConnection(connection: Connection): void {
  writeTarget(connection.baseUrl, connection.apiId);
  sessionStorage.setItem(API_KEY_ITEM, connection.apiKey);
  notify();
}

/** Point the stored connection (with or without a key) at another base URL and API ID; the key stays. */
export function saveTarget(baseUrl: string, apiId: string | undefined): void {
  writeTarget(baseUrl, apiId);
  notify();
}

function writeTarget(baseUrl: string, apiId: string | undefined): void {
  sessionStorage.setItem(BASE_URL_ITEM, baseUrl);
  if (apiId?.trim()) sessionStorage.setItem(API_ID_ITEM, apiId.trim());
  else sessionStorage.removeItem(API_ID_ITEM);
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
  if (event.key === null || event.key === API_KEY_ITEM || event.key === BASE_URL_ITEM || event.key === API_ID_ITEM) notify();
}

export function subscribeToConnection(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

let targetSnapshot: { baseUrl: string; apiId: string | undefined } | null = null;

/** The stored base URL and API ID, with or without a key (the same object back while nothing changed). */
export function readTarget(): { baseUrl: string; apiId: string | undefined } | null {
  const baseUrl = readItem(BASE_URL_ITEM);
  const apiId = readItem(API_ID_ITEM) ?? undefined;
  if (baseUrl === null) return (targetSnapshot = null);
  if (targetSnapshot?.baseUrl !== baseUrl || targetSnapshot.apiId !== apiId) targetSnapshot = { baseUrl, apiId };
  return targetSnapshot;
}

export function useStoredTarget(): { baseUrl: string; apiId: string | undefined } | null {
  return useSyncExternalStore(subscribeToConnection, readTarget, () => null);
}

export function useConnection(): Connection | null {
  return useSyncExternalStore(subscribeToConnection, readConnection, () => null);
}
