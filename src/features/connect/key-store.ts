import { useSyncExternalStore } from "react";
import { rememberSecret } from "../../lib/api-errors";
import type { Connection } from "../../lib/api/transport";
import { isRecord } from "../../lib/is-record";

/**
 * The one place the API key lives: this tab's sessionStorage. It survives a reload and is gone with the tab;
 * it never goes to localStorage, IndexedDB, a URL or the console.
 *
 * A new tab of the same origin (a key's page opened from a link) gets the key from an open tab that holds it,
 * over a BroadcastChannel: the new tab asks, a holder answers, and the key goes from one tab's memory to the
 * other's sessionStorage, never through anything that persists. Threat model: only documents of this origin
 * can join a BroadcastChannel of that name (the browser partitions channels by origin, and by top-level site
 * where storage is partitioned), and those could read this origin's storage anyway; no other site and no
 * server ever sees the message. Forgetting the key in one tab forgets it in every tab of the origin.
 */

const API_KEY_ITEM = "keyscope.apiKey";
const BASE_URL_ITEM = "keyscope.baseUrl";
const API_ID_ITEM = "keyscope.apiId";
const ENVIRONMENT_ITEM = "keyscope.environmentId";
/** Why this tab's key was dropped (the origin it was for, the environment switched to): no secret. */
const DROPPED_ITEM = "keyscope.keyDropped";
const CHANNEL_NAME = "keyscope.key";
/** Held (shared) by every tab holding a key, so that a new tab can tell "nobody to ask" without waiting. */
const HOLDER_LOCK = "keyscope.key-holder";
/** How long a new tab waits for a holder's answer before it shows key entry. */
const HAND_OVER_WAIT_MS = 1500;

const listeners = new Set<() => void>();
const forgottenElsewhereListeners = new Set<() => void>();

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
  holdKey();
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
  releaseKey();
}

/** Forget the key in this tab and in every other tab of this origin ("Forget key", "Re-enter key"). */
export function forgetKey(): void {
  removeKey();
  endHandOver();
  channel?.postMessage({ type: "forget" } satisfies Message);
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

/** Parsed by hand, as the messages below: this module is part of the first screen (see environment-store.ts). */
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
  if (targetSnapshot?.baseUrl !== baseUrl || targetSnapshot.apiId !== apiId || targetSnapshot.environmentId !== environmentId) {
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

// ---- Hand-over between tabs -------------------------------------------------------------------------------

interface OfferedConnection {
  baseUrl: string;
  apiKey: string;
  apiId?: string;
  environmentId?: string;
}

type Message = { type: "ask" } | { type: "offer"; connection: OfferedConnection } | { type: "forget" };

/** A message of another tab, or null for anything else on the channel; unknown fields are dropped. */
function messageOf(value: unknown): Message | null {
  if (!isRecord(value)) return null;
  if (value.type === "ask" || value.type === "forget") return { type: value.type };
  if (value.type !== "offer" || !isRecord(value.connection)) return null;
  const { baseUrl, apiKey, apiId, environmentId } = value.connection;
  if (typeof baseUrl !== "string" || typeof apiKey !== "string" || apiKey === "") return null;
  if ((apiId !== undefined && typeof apiId !== "string") || (environmentId !== undefined && typeof environmentId !== "string")) return null;
  return {
    type: "offer",
    connection: { baseUrl, apiKey, ...(apiId !== undefined && { apiId }), ...(environmentId !== undefined && { environmentId }) },
  };
}

let channel: BroadcastChannel | null = null;
let waiting = false;
let waitTimer: ReturnType<typeof setTimeout> | undefined;
let releaseHolderLock: (() => void) | undefined;

function setWaiting(next: boolean): void {
  if (waiting === next) return;
  waiting = next;
  notify();
}

function endHandOver(): void {
  clearTimeout(waitTimer);
  setWaiting(false);
}

/** Web Locks, where the browser has them (jsdom has none). */
function lockManager(): LockManager | null {
  const locks: LockManager | null | undefined = typeof navigator === "undefined" ? undefined : navigator.locks;
  return locks ?? null;
}

/** Take the shared lock that tells new tabs a holder exists (released on forget, and by the browser with the tab). */
function holdKey(): void {
  const locks = lockManager();
  if (releaseHolderLock !== undefined || locks === null) return;
  const held = new Promise<void>((resolve) => {
    releaseHolderLock = resolve;
  });
  void locks.request(HOLDER_LOCK, { mode: "shared" }, () => held).catch(() => undefined);
}

function releaseKey(): void {
  releaseHolderLock?.();
  releaseHolderLock = undefined;
}

/** Whether any tab of this origin may hold a key: `false` only when the browser can tell for sure that none does. */
async function anyHolder(): Promise<boolean> {
  const locks = lockManager();
  if (locks === null) return true;
  try {
    const state = await locks.query();
    return (state.held ?? []).some((lock) => lock.name === HOLDER_LOCK);
  } catch {
    return true;
  }
}

function onMessage(event: MessageEvent<unknown>): void {
  const message = messageOf(event.data);
  if (message === null) return;
  if (message.type === "ask") {
    const connection = readConnection();
    if (connection === null) return;
    const environmentId = readItem(ENVIRONMENT_ITEM) ?? undefined;
    channel?.postMessage({ type: "offer", connection: { ...connection, ...(environmentId && { environmentId }) } } satisfies Message);
  } else if (message.type === "offer") {
    // Only an answer to this tab's own question is taken; a tab that forgot is not asking.
    if (!waiting) return;
    const { baseUrl, apiKey, apiId, environmentId } = message.connection;
    try {
      writeTarget(baseUrl, apiId, environmentId);
      sessionStorage.setItem(API_KEY_ITEM, apiKey);
      holdKey();
    } catch {
      // Storage blocked: key entry will say so when the user enters a key.
    }
    endHandOver();
    notify();
  } else {
    const had = readItem(API_KEY_ITEM) !== null;
    removeKey();
    endHandOver();
    notify();
    if (had) for (const listener of forgottenElsewhereListeners) listener();
  }
}

/**
 * Join this origin's other tabs: answer their asks with this tab's key, forget when one of them forgets, and,
 * when this tab holds no key, ask them for theirs. Until an answer comes (or the wait ends, or no tab holds a
 * key), `useKeyHandOverPending` is true and pages that need a key wait instead of showing key entry.
 * Returns a function that leaves (for tests).
 */
export function joinOtherTabs({ waitMs = HAND_OVER_WAIT_MS }: { waitMs?: number } = {}): () => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const joined = new BroadcastChannel(CHANNEL_NAME);
  channel = joined;
  joined.addEventListener("message", onMessage);
  if (readConnection() !== null) holdKey();
  else {
    setWaiting(true);
    waitTimer = setTimeout(endHandOver, waitMs);
    void anyHolder().then((maybe) => {
      if (!maybe) endHandOver();
      else joined.postMessage({ type: "ask" } satisfies Message);
    });
  }
  return () => {
    endHandOver();
    releaseKey();
    joined.removeEventListener("message", onMessage);
    joined.close();
    if (channel === joined) channel = null;
  };
}

/** True while this tab waits for another tab to hand the key over. */
export function readHandOverPending(): boolean {
  return waiting;
}

export function useKeyHandOverPending(): boolean {
  return useSyncExternalStore(subscribeToConnection, readHandOverPending, () => false);
}

/** Called when another tab's "Forget key" removed this tab's key (to drop what was cached with it). */
export function onKeyForgottenElsewhere(listener: () => void): () => void {
  forgottenElsewhereListeners.add(listener);
  return () => forgottenElsewhereListeners.delete(listener);
}
