/**
 * What the root key was refused, and seen allowed, per action and per API, for this session (memory only: gone
 * with the tab). The services tell a root key's permissions only by refusing; a root key may hold
 * `api.<id>.update_key` for one API only, so an answer counts for the API it was about, and the first refusal of an
 * action there is remembered so that its button says what is missing before anyone fills a form again.
 */
import { useSyncExternalStore } from "react";
import { apiGrants, RBAC_ACTIONS, rbacPermission, type ApiAction, type RbacAction } from "../../lib/contract";
import type { Connection } from "../../lib/api/transport";
import { ApiError } from "../../lib/api-errors";
import { isPermissionRefusal } from "../../lib/access-probe";
import {
  forgetAccess,
  forgetAccessMemory,
  isAllowedAt,
  learnAllowed as learnAllowedAt,
  learnRefused,
  refusalAt,
  subscribeAccessMemory,
  type AccessSlot,
  type LearntRefusal,
} from "../../lib/access-memory";
import { connectionScopeId as scopeOf } from "../../lib/connection-scope";
import { forgetKnownApis, rememberApi } from "../../lib/known-apis";

/** The key actions, by the permission each needs (the rbac ones need the key's `update_key` as well). */
export type KeyAction =
  | Extract<ApiAction, "create_key" | "update_key" | "delete_key">
  | Extract<RbacAction, "add_permission_to_key" | "remove_permission_from_key" | "add_role_to_key">;

/** What an action is taken on: the key, and its API when known (for createKey, the API chosen). */
export interface ActionTarget {
  apiId?: string | undefined;
  keyId?: string | undefined;
}

export interface Refusal {
  action: KeyAction;
  /** The API it was refused for, when known: the request's, or the one the service named. */
  apiId: string | undefined;
  /** The service's own words. */
  detail: string;
}

function isRbacAction(action: KeyAction): action is KeyAction & RbacAction {
  return (RBAC_ACTIONS as readonly string[]).includes(action);
}

/**
 * The permissions that each grant `action` on `apiId`'s keys, by the contract's grant rule: every API's form first,
 * then that API's own (`<apiId>` when it is unknown).
 */
export function grantsOf(action: KeyAction, apiId: string | undefined): { anyOf: string[]; alsoNeeds: string[] } {
  if (isRbacAction(action)) {
    return { anyOf: apiGrants("update_key", apiId ?? "<apiId>"), alsoNeeds: [rbacPermission(action)] };
  }
  return { anyOf: apiGrants(action, apiId ?? "<apiId>"), alsoNeeds: [] };
}

/** The API of a key, as a refusal named it (the Key object does not carry it). */
const apiOfKey = new Map<string, string>();
const listeners = new Set<() => void>();

/**
 * The API an action on `target` touches: the one given; for a key, the one it was listed in or a refusal named,
 * else unknown (a key opened by its id may be another API's than the connection's: its answers count for it
 * alone); for no key (createKey), the connection's.
 */
export function apiOf(connection: Connection, target: ActionTarget): string | undefined {
  if (target.apiId !== undefined && target.apiId.trim() !== "") return target.apiId.trim();
  if (target.keyId !== undefined) return apiOfKey.get(`${scopeOf(connection)}|${target.keyId}`);
  return connection.apiId?.trim() || undefined;
}

/** These keys are `apiId`'s (a list of that API showed them): what is learnt of that API holds for them. */
export function learnKeysApi(connection: Connection, keyIds: readonly string[], apiId: string): void {
  let news = false;
  for (const keyId of keyIds) {
    const slot = `${scopeOf(connection)}|${keyId}`;
    if (apiOfKey.get(slot) === apiId) continue;
    apiOfKey.set(slot, apiId);
    news = true;
  }
  if (news) changed();
}

/** Where an answer is remembered: per API when it is known, else for the key alone, else for the unknown API. */
export function keyActionSlot(connection: Connection, action: KeyAction, target: ActionTarget): AccessSlot {
  const apiId = apiOf(connection, target);
  return {
    action,
    on: apiId !== undefined ? `api ${apiId}` : target.keyId !== undefined ? `key ${target.keyId}` : "api ?",
  };
}

function changed(): void {
  for (const listener of listeners) listener();
}

/** The API a 403's words name (`api.<id>.<action>`, the real service and the reference server both list it). */
function apiNamedIn(detail: string): string | undefined {
  return /\bapi\.([A-Za-z0-9_]+)\.\w+/.exec(detail.replace(/\bapi\.\*\./g, ""))?.[1];
}

/**
 * The real service answers a createKey without create_key as 404 "The specified API was not found.": that may be
 * the missing permission, or an API id that is not there. Remembered as a refusal only where the API is known to
 * exist (a mistyped id would otherwise hold back every reroll); else the form says both readings.
 */
export function isAmbiguousCreateNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.type.includes("api_not_found");
}

/** Remembers a refusal when `error` is a 403 for a permission; else nothing. */
export function learnRefusal(
  connection: Connection,
  action: KeyAction,
  error: unknown,
  target: ActionTarget = {},
): void {
  if (!isPermissionRefusal(error)) return;
  const named = apiNamedIn(error.detail);
  if (named !== undefined) rememberApi(connection, named);
  if (named !== undefined && target.keyId !== undefined) {
    apiOfKey.set(`${scopeOf(connection)}|${target.keyId}`, named);
    changed();
  }
  learnRefused(
    connection,
    keyActionSlot(connection, action, { ...target, apiId: target.apiId ?? named }),
    error.detail,
  );
}

/** createKey answered 404 for an API known to exist: the masked refusal of create_key there. */
export function learnCreateRefusedAsNotFound(connection: Connection, apiId: string, error: ApiError): void {
  learnRefused(connection, keyActionSlot(connection, "create_key", { apiId }), error.detail);
}

/** An action went through: it is allowed there, and a refusal remembered before (the root key since granted it) is gone. */
export function learnAllowed(connection: Connection, action: KeyAction, target: ActionTarget = {}): void {
  learnAllowedAt(connection, keyActionSlot(connection, action, target));
}

/** The user says the root key was granted it since: what was learnt of `action` there is forgotten, to be found out again. */
export function forgetRefusal(connection: Connection, action: KeyAction, target: ActionTarget = {}): void {
  forgetAccess(connection, keyActionSlot(connection, action, target));
}

export function isKnownAllowed(connection: Connection, action: KeyAction, target: ActionTarget = {}): boolean {
  return isAllowedAt(connection, keyActionSlot(connection, action, target));
}

/** Each learnt refusal as a key action's, made once (a snapshot read twice must be the same object). */
const asKeyRefusal = new WeakMap<LearntRefusal, Refusal>();

export function refusalOf(connection: Connection, action: KeyAction, target: ActionTarget = {}): Refusal | undefined {
  const slot = keyActionSlot(connection, action, target);
  const learnt = refusalAt(connection, slot);
  if (learnt === undefined) return undefined;
  let refusal = asKeyRefusal.get(learnt);
  if (refusal?.action !== action) {
    // The slot names its API ("api api_1"), or none: a key's own slot, or the unknown API.
    const apiId = slot.on.startsWith("api ") && slot.on !== "api ?" ? slot.on.slice(4) : undefined;
    refusal = { action, apiId, detail: learnt.detail };
    asKeyRefusal.set(learnt, refusal);
  }
  return refusal;
}

/** What this module learnt (the keys' APIs) or the session's memory did: either changes what a target's slot says. */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const unsubscribe = subscribeAccessMemory(listener);
  return () => {
    listeners.delete(listener);
    unsubscribe();
  };
}

/** The remembered refusal of `action` on `target` for this root key, if any; re-renders when one is learnt. */
export function useRefusal(connection: Connection, action: KeyAction, target: ActionTarget = {}): Refusal | undefined {
  return useSyncExternalStore(subscribe, () => refusalOf(connection, action, target));
}

/** Whether `action` on `target` is known allowed; re-renders when that is learnt. */
export function useKnownAllowed(connection: Connection, action: KeyAction, target: ActionTarget = {}): boolean {
  return useSyncExternalStore(subscribe, () => isKnownAllowed(connection, action, target));
}

/** For tests: forget everything the session learnt (refusals, what was allowed, the APIs seen). */
export function forgetRefusals(): void {
  apiOfKey.clear();
  forgetAccessMemory();
  forgetKnownApis();
  changed();
}
