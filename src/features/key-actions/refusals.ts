/**
 * What the root key was refused, per action, for this session (memory only: gone with the tab). The services tell
 * a root key's permissions only by refusing; the first refusal of an action is remembered so that its button says
 * what is missing before anyone fills a form again.
 */
import { useSyncExternalStore } from "react";
import type { Connection } from "../../lib/api/transport";
import { ApiError } from "../../lib/api-errors";
import { fingerprint } from "../../lib/fingerprint";

export type KeyAction = "create_key" | "update_key" | "delete_key" | "rbac";

export interface Refusal {
  /** What to grant the root key, e.g. `api.*.update_key`. */
  permission: string;
  /** The service's own words. */
  detail: string;
}

const PERMISSION_OF: Record<KeyAction, string> = {
  create_key: "api.*.create_key",
  update_key: "api.*.update_key",
  delete_key: "api.*.delete_key",
  rbac: "rbac.*.add_permission_to_key",
};

const refusals = new Map<string, Refusal>();
/** Actions a root key was seen to be allowed (a probe or a change that went through). */
const allowed = new Set<string>();
const listeners = new Set<() => void>();

function scopeOf(connection: Connection): string {
  return `${connection.baseUrl}|${fingerprint(connection.apiKey)}`;
}

/**
 * The real service answers a createKey without create_key as 404 "The specified API was not found.": that may be
 * the missing permission, or an API id that is not there. Not remembered as a refusal (a mistyped id would then
 * hold back every reroll); the form that got it says both readings.
 */
export function isAmbiguousCreateNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.type.includes("api_not_found");
}

/** Remembers a refusal when `error` is a 403 for a permission; else nothing. */
export function learnRefusal(connection: Connection, action: KeyAction, error: unknown): void {
  if (!(error instanceof ApiError)) return;
  if (error.status !== 403 || !error.type.includes("insufficient_permissions")) return;
  const named = /\b((?:api|rbac)\.[\w*]+\.\w+)/.exec(error.detail)?.[1];
  refusals.set(`${scopeOf(connection)}|${action}`, { permission: named ?? PERMISSION_OF[action], detail: error.detail });
  for (const listener of listeners) listener();
}

/** An action went through: it is allowed, and a refusal remembered before (the root key since granted it) is gone. */
export function learnAllowed(connection: Connection, action: KeyAction): void {
  const key = `${scopeOf(connection)}|${action}`;
  allowed.add(key);
  if (refusals.delete(key)) for (const listener of listeners) listener();
}

export function isKnownAllowed(connection: Connection, action: KeyAction): boolean {
  return allowed.has(`${scopeOf(connection)}|${action}`);
}

export function refusalOf(connection: Connection, action: KeyAction): Refusal | undefined {
  return refusals.get(`${scopeOf(connection)}|${action}`);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The remembered refusal of `action` for this root key, if any; re-renders when one is learnt. */
export function useRefusal(connection: Connection, action: KeyAction): Refusal | undefined {
  return useSyncExternalStore(subscribe, () => refusalOf(connection, action));
}

/** For tests: forget every refusal. */
export function forgetRefusals(): void {
  refusals.clear();
  allowed.clear();
  for (const listener of listeners) listener();
}
