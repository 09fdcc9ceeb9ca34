/**
 * What this session has learnt of what the root key may do, and of what the connection's service offers (memory
 * only: gone with the tab, never stored). The services tell a root key's permissions only by refusing, so each answer
 * is remembered for the action and the thing it was asked of (a slot: `update_key` on `api api_1`, `read_identity`
 * on `section identities`), so that a button or a page says what is missing before anyone fills a form again. An
 * operation the service answered with a router's 404 is remembered as missing there (a proxy to a deployment without
 * it). Every feature's refusals live here: the key actions' (src/features/key-actions/refusals.ts says which slot an
 * action on a key is), the sections' (./section-access.ts).
 */
import { useSyncExternalStore } from "react";
import type { Connection } from "./api/transport";
import { connectionScopeId } from "./connection-scope";

/** An action, and what it was asked of: `{ action: "update_key", on: "api api_1" }`. */
export interface AccessSlot {
  action: string;
  on: string;
}

export interface LearntRefusal {
  /** The service's own words (a 403's detail). */
  detail: string;
  /** The permissions, any one of which would grant it, when the one who learnt it said (a section's read). */
  needs?: readonly string[] | undefined;
}

const refusals = new Map<string, LearntRefusal>();
const allowed = new Set<string>();
/** `<scope>|<operation path>` of operations the service does not have. */
const missing = new Set<string>();
const listeners = new Set<() => void>();

function slotId(connection: Connection, { action, on }: AccessSlot): string {
  return `${connectionScopeId(connection)}|${action}|${on}`;
}

function changed(): void {
  for (const listener of listeners) listener();
}

/** The root key was refused `slot` (a 403 for a permission), in the service's words. */
export function learnRefused(
  connection: Connection,
  slot: AccessSlot,
  detail: string,
  needs?: readonly string[],
): void {
  const id = slotId(connection, slot);
  if (refusals.get(id)?.detail === detail) return;
  refusals.set(id, { detail, needs });
  allowed.delete(id);
  changed();
}

/** `slot` went through: allowed there, and a refusal remembered before (the root key since granted it) is gone. */
export function learnAllowed(connection: Connection, slot: AccessSlot): void {
  const id = slotId(connection, slot);
  const news = !allowed.has(id);
  allowed.add(id);
  if (refusals.delete(id) || news) changed();
}

/** The user says it was granted since: what was learnt of `slot` is forgotten, to be found out again. */
export function forgetAccess(connection: Connection, slot: AccessSlot): void {
  const id = slotId(connection, slot);
  const had = refusals.delete(id);
  if (allowed.delete(id) || had) changed();
}

export function refusalAt(connection: Connection, slot: AccessSlot): LearntRefusal | undefined {
  return refusals.get(slotId(connection, slot));
}

export function isAllowedAt(connection: Connection, slot: AccessSlot): boolean {
  return allowed.has(slotId(connection, slot));
}

/** The connection's service answered `path` with a router's 404: it has no such operation. */
export function learnMissingOperation(connection: Connection, path: string): void {
  const id = `${connectionScopeId(connection)}|${path}`;
  if (missing.has(id)) return;
  missing.add(id);
  changed();
}

/** The operation answered after all (a deployment updated, a proxy pointed elsewhere). */
export function learnOperationExists(connection: Connection, path: string): void {
  if (missing.delete(`${connectionScopeId(connection)}|${path}`)) changed();
}

export function isMissingOperationAt(connection: Connection, path: string): boolean {
  return missing.has(`${connectionScopeId(connection)}|${path}`);
}

/** Calls `listener` whenever anything is learnt or forgotten; answers the unsubscribe. */
export function subscribeAccessMemory(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What `read` says of the memory now; re-renders when anything is learnt. `read` must return a stable value. */
export function useAccessMemory<T>(read: () => T): T {
  return useSyncExternalStore(subscribeAccessMemory, read);
}

export function useRefusalAt(connection: Connection, slot: AccessSlot): LearntRefusal | undefined {
  return useAccessMemory(() => refusalAt(connection, slot));
}

export function useAllowedAt(connection: Connection, slot: AccessSlot): boolean {
  return useAccessMemory(() => isAllowedAt(connection, slot));
}

/** For tests: forget everything the session learnt. */
export function forgetAccessMemory(): void {
  refusals.clear();
  allowed.clear();
  missing.clear();
  changed();
}
