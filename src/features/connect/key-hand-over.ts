import { useSyncExternalStore } from "react";
import { isRecord } from "../../lib/is-record";
import { FORGET_MARK_ITEM, forgottenSince, KEY_MARK_ITEM, NO_MARK } from "./forget-mark";
import {
  readConnection,
  readTarget,
  removeStoredKey,
  storeHandedOverConnection,
  subscribeToConnection,
} from "./key-store";

/**
 * How the key goes from tab to tab. A new tab of the same origin (a key's page opened from a link) gets the key
 * from an open tab that holds it, over a BroadcastChannel: the new tab asks, a holder answers, and the key goes
 * from one tab's memory to the other's sessionStorage (key-store.ts), never through anything that persists.
 * Threat model: only documents of this origin can join a BroadcastChannel of that name (the browser partitions
 * channels by origin, and by top-level site where storage is partitioned), and those could read this origin's
 * storage anyway; no other site and no server ever sees the message.
 *
 * Forgetting the key in one tab forgets it in every tab of the origin, however soon after a tab opened. A
 * message reaches only the tabs already listening, and a tab opened from another (`window.open`, a link with an
 * opener) starts with a copy of that tab's sessionStorage, key included, possibly before it listens. So each
 * Forget key also leaves a mark in localStorage (a random value: no secret), and a tab notes the mark current
 * when its key was stored; a tab whose key carries an older mark holds a key forgotten since, and drops it,
 * when it joins and whenever the mark changes.
 */

const CHANNEL_NAME = "keyscope.key";
/** Held (shared) by every tab holding a key, so that a new tab can tell "nobody to ask" without waiting. */
const HOLDER_LOCK = "keyscope.key-holder";
/** How long a new tab waits for a holder's answer before it shows key entry. */
const HAND_OVER_WAIT_MS = 1500;

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
  if (
    (apiId !== undefined && typeof apiId !== "string") ||
    (environmentId !== undefined && typeof environmentId !== "string")
  )
    return null;
  return {
    type: "offer",
    connection: {
      baseUrl,
      apiKey,
      ...(apiId !== undefined && { apiId }),
      ...(environmentId !== undefined && { environmentId }),
    },
  };
}

const listeners = new Set<() => void>();
const forgottenElsewhereListeners = new Set<() => void>();
let channel: BroadcastChannel | null = null;
let waiting = false;
let waitTimer: ReturnType<typeof setTimeout> | undefined;
let releaseHolderLock: (() => void) | undefined;

function setWaiting(next: boolean): void {
  if (waiting === next) return;
  waiting = next;
  for (const listener of listeners) listener();
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

function currentMark(): string {
  try {
    return localStorage.getItem(FORGET_MARK_ITEM) ?? NO_MARK;
  } catch {
    return NO_MARK;
  }
}

function newMark(): void {
  const random = new Uint32Array(2);
  crypto.getRandomValues(random);
  try {
    localStorage.setItem(FORGET_MARK_ITEM, `${Date.now().toString(36)}-${random.join("-")}`);
  } catch {
    // Storage blocked: the message alone tells the tabs that listen.
  }
}

/** The key this tab's mark was noted for: a key that appears in the store gets the mark current then. */
let markedKey: string | null = null;

function noteMark(): void {
  const apiKey = readConnection()?.apiKey ?? null;
  if (apiKey === markedKey) return;
  markedKey = apiKey;
  try {
    if (apiKey === null) sessionStorage.removeItem(KEY_MARK_ITEM);
    else sessionStorage.setItem(KEY_MARK_ITEM, currentMark());
  } catch {
    // Storage blocked: nothing was stored either.
  }
}

function keyMark(): string | null {
  try {
    return sessionStorage.getItem(KEY_MARK_ITEM);
  } catch {
    return null;
  }
}

/** Drop this tab's key if a Forget key happened in some tab after it was stored; true when it did. */
function dropIfForgotten(): boolean {
  if (readConnection() === null || !forgottenSince(keyMark(), currentMark())) return false;
  markedKey = null;
  removeStoredKey();
  endHandOver();
  return true;
}

function forgottenElsewhere(): void {
  for (const listener of forgottenElsewhereListeners) listener();
}

/** Another tab's Forget key, heard through localStorage: the path that needs no listener at the time. */
function onStorage(event: StorageEvent): void {
  if ((event.key === FORGET_MARK_ITEM || event.key === null) && dropIfForgotten()) forgottenElsewhere();
}

/** The lock and the mark follow the store: held while this tab holds a key, however it came or went. */
function followStore(): void {
  noteMark();
  if (readConnection() === null) releaseKey();
  else holdKey();
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
    const environmentId = readTarget()?.environmentId;
    channel?.postMessage({
      type: "offer",
      connection: { ...connection, ...(environmentId && { environmentId }) },
    } satisfies Message);
  } else if (message.type === "offer") {
    // Only an answer to this tab's own question is taken; a tab that forgot is not asking.
    if (!waiting) return;
    try {
      storeHandedOverConnection(message.connection);
    } catch {
      // Storage blocked: key entry will say so when the user enters a key.
    }
    endHandOver();
  } else {
    const had = readConnection() !== null;
    removeStoredKey();
    endHandOver();
    if (had) forgottenElsewhere();
  }
}

/** Forget the key in this tab and in every other tab of this origin ("Forget key", "Re-enter key"). */
export function forgetKey(): void {
  newMark();
  removeStoredKey();
  endHandOver();
  channel?.postMessage({ type: "forget" } satisfies Message);
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
  window.addEventListener("storage", onStorage);
  // A key copied from the tab that opened this one may have been forgotten before this tab listened.
  dropIfForgotten();
  markedKey = readConnection()?.apiKey ?? null;
  const stopFollowing = subscribeToConnection(followStore);
  if (readConnection() !== null) holdKey();
  else {
    setWaiting(true);
    waitTimer = setTimeout(endHandOver, waitMs);
    void anyHolder().then((maybe) => {
      if (channel !== joined) return; // Left meanwhile.
      if (!maybe) endHandOver();
      else joined.postMessage({ type: "ask" } satisfies Message);
    });
  }
  return () => {
    endHandOver();
    stopFollowing();
    releaseKey();
    window.removeEventListener("storage", onStorage);
    joined.removeEventListener("message", onMessage);
    joined.close();
    if (channel === joined) channel = null;
  };
}

/** True while this tab waits for another tab to hand the key over. */
export function readHandOverPending(): boolean {
  return waiting;
}

function subscribeToHandOver(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useKeyHandOverPending(): boolean {
  return useSyncExternalStore(subscribeToHandOver, readHandOverPending, () => false);
}

/** Called when another tab's "Forget key" removed this tab's key (to drop what was cached with it). */
export function onKeyForgottenElsewhere(listener: () => void): () => void {
  forgottenElsewhereListeners.add(listener);
  return () => forgottenElsewhereListeners.delete(listener);
}
