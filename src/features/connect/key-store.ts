import { useSyncExternalStore } from "react";
import { rememberSecret } from "../../lib/api-errors";
import type { Connection } from "../../lib/api/transport";
import { isRecord } from "../../lib/is-record";

/**
 * The one place the API key lives: this tab's sessionStorage. It survives a reload and is gone with the tab;
 * it never goes to localStorage, IndexedDB, a URL or the console. How a key reaches another tab, and how
 * forgetting it reaches every tab, is key-hand-over.ts's: this module only stores.
 */

const API_KEY_ITEM = "keyscope.apiKey";
const BASE_URL_ITEM = "keyscope.baseUrl";
const API_ID_ITEM = "keyscope.apiId";
const ENVIRONMENT_ITEM = "keyscope.environmentId";
/** Why this tab's key was dropped (the origin it was for, the environment switched to): no secret. */
const DROPPED_ITEM = "keyscope.keyDropped";

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
    // Every scrub removes the stored key from then on, whoever forgets to pass it.
    if (apiKey) rememberSecret(apiKey);
    const connection: Connection | null = apiKey && baseUrl ? { baseUrl, apiKey } : null;
    if (connection && apiId) connection.apiId = apiId;
    snapshot = { apiKey, baseUrl, apiId, connection };
  }
  return snapshot.connection;
}

/** Throws when the browser refuses storage; the caller tells the user. */
export function saveConnection(connection: Connection): void {
  writeTarget(connection.baseUrl, connection.apiId);
  rememberSecret(connection.apiKey);
  sessionStorage.setItem(API_KEY_ITEM, connection.apiKey);
  sessionStorage.removeItem(DROPPED_ITEM);
  notify();
}

/** A connection another tab handed over, with the environment chosen there. Throws when the browser refuses storage. */
export function storeHandedOverConnection({
  environmentId,
  ...connection
}: Connection & { environmentId?: string }): void {
  writeTarget(connection.baseUrl, connection.apiId, environmentId);
  sessionStorage.setItem(API_KEY_ITEM, connection.apiKey);
  notify();
}

/**
 * Point the stored connection (with or without a key) at another base URL and API ID; the key stays.
 * `environmentId` names the saved environment chosen, which tells apart two environments with the same address.
 */
export function saveTarget(baseUrl: string, apiId: string | undefined, environmentId?: string): void {
  writeTarget(baseUrl, apiId, environmentId);
  notify();
}

function writeTarget(baseUrl: string, apiId: string | undefined, environmentId?: string): void {
  sessionStorage.setItem(BASE_URL_ITEM, baseUrl);
  if (apiId?.trim()) sessionStorage.setItem(API_ID_ITEM, apiId.trim());
  else sessionStorage.removeItem(API_ID_ITEM);
  if (environmentId) sessionStorage.setItem(ENVIRONMENT_ITEM, environmentId);
  else sessionStorage.removeItem(ENVIRONMENT_ITEM);
}

function removeKey(): void {
  try {
    sessionStorage.removeItem(API_KEY_ITEM);
    sessionStorage.removeItem(DROPPED_ITEM);
  } catch {
    // Nothing could have been stored.
  }
}

/** Remove the key from this tab (the base URL stays, for re-entry); forgetKey in key-hand-over.ts tells the others. */
export function removeStoredKey(): void {
  removeKey();
  notify();
}

export interface DroppedKey {
  /** The origin the key was entered for. */
  keyWasFor: string;
  /** The environment switched to, at another origin. */
  switchedTo: string;
}

/**
 * Drop the key in this tab only: it belongs to another environment than the one this tab now points at.
 * Key entry says why until a key is entered.
 */
export function dropKeyInThisTab(reason: DroppedKey): void {
  removeKey();
  try {
    sessionStorage.setItem(DROPPED_ITEM, JSON.stringify(reason));
  } catch {
    // Storage blocked: key entry simply does not say why.
  }
  notify();
}

/** Parsed by hand, as key-hand-over.ts's messages: this module is part of the first screen (see environment-store.ts). */
function droppedKeyOf(value: unknown): DroppedKey | null {
  if (!isRecord(value)) return null;
  const { keyWasFor, switchedTo } = value;
  return typeof keyWasFor === "string" && typeof switchedTo === "string" ? { keyWasFor, switchedTo } : null;
}
let droppedSnapshot: { raw: string | null; reason: DroppedKey | null } = { raw: null, reason: null };

/** Why this tab has no key, when a switch of environment dropped it (the same object back while nothing changed). */
export function readDroppedKey(): DroppedKey | null {
  const raw = readItem(DROPPED_ITEM);
  if (raw !== droppedSnapshot.raw) {
    let reason: DroppedKey | null = null;
    try {
      reason = droppedKeyOf(raw === null ? null : JSON.parse(raw));
    } catch {
      // Not ours: no reason to show.
    }
    droppedSnapshot = { raw, reason };
  }
  return droppedSnapshot.reason;
}

export function useDroppedKey(): DroppedKey | null {
  return useSyncExternalStore(subscribeToConnection, readDroppedKey, () => null);
}

// Another document of this tab's session (e.g. a same-origin frame) changed the stored key.
function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key === API_KEY_ITEM || event.key === BASE_URL_ITEM || event.key === API_ID_ITEM)
    notify();
}

export function subscribeToConnection(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

export interface StoredTarget {
  baseUrl: string;
  apiId: string | undefined;
  /** The saved environment last chosen in this tab, if any. */
  environmentId: string | undefined;
}

let targetSnapshot: StoredTarget | null = null;

/** The stored base URL and API ID, with or without a key (the same object back while nothing changed). */
export function readTarget(): StoredTarget | null {
  const baseUrl = readItem(BASE_URL_ITEM);
  const apiId = readItem(API_ID_ITEM) ?? undefined;
  const environmentId = readItem(ENVIRONMENT_ITEM) ?? undefined;
  if (baseUrl === null) return (targetSnapshot = null);
  if (
    targetSnapshot?.baseUrl !== baseUrl ||
    targetSnapshot.apiId !== apiId ||
    targetSnapshot.environmentId !== environmentId
  ) {
    targetSnapshot = { baseUrl, apiId, environmentId };
  }
  return targetSnapshot;
}

export function useStoredTarget(): StoredTarget | null {
  return useSyncExternalStore(subscribeToConnection, readTarget, () => null);
}

export function useConnection(): Connection | null {
  return useSyncExternalStore(subscribeToConnection, readConnection, () => null);
}
