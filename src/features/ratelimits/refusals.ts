/**
 * What the root key was refused, and seen allowed, per namespace and action, for this session (the shared permission
 * memory, src/lib/permission-memory.ts). The services check a namespace's permission as `ratelimit.<namespaceId>.<action>`
 * or `ratelimit.*.<action>`, after finding the namespace (a 404 first), and say both in a 403's words, which also
 * tell the namespace's id: it is learnt from them.
 */
import { useSyncExternalStore } from "react";
import type { Connection } from "@/lib/api/transport";
import { ratelimitGrants, type RatelimitAction } from "@/lib/contract";
import { createPermissionMemory, isPermissionRefusal } from "@/lib/permission-memory";
import { learnNamespaceId, namespaceKey } from "./known-namespaces";

/** What the namespace pages do, by the permission each needs. */
export type NamespaceAction = Extract<
  RatelimitAction,
  "read_override" | "set_override" | "delete_override" | "read_analytics"
>;

export interface NamespaceRefusal {
  action: NamespaceAction;
  /** The service's own words. */
  detail: string;
}

const memory = createPermissionMemory<NamespaceRefusal>();

const slotOf = (action: NamespaceAction, namespace: string) => `${action}|${namespaceKey(namespace)}`;

/** The id a service's words name for a namespace's permission (`ratelimit.rlns_….set_override`). */
export function namespaceIdNamedIn(detail: string): string | undefined {
  return /\bratelimit\.(rlns_[A-Za-z0-9_]+)\.\w+/.exec(detail)?.[1];
}

/** The permissions that each grant `action` there: the namespace's own (its id, or `<namespaceId>`), then every namespace's. */
export function namespaceGrants(action: NamespaceAction, namespaceId: string | undefined): [string, string] {
  const [own, every] = ratelimitGrants(action, namespaceId ?? "<namespaceId>");
  return [own ?? "", every ?? ""];
}

/** Learns from a failure of `action` on the namespace: its id, when the words name it, and a refusal. */
export function learnFromError(
  connection: Connection,
  action: NamespaceAction,
  namespace: string,
  error: unknown,
): void {
  if (!isPermissionRefusal(error)) return;
  const id = namespaceIdNamedIn(error.detail);
  if (id !== undefined) learnNamespaceId(connection, namespace, id);
  memory.refuse(connection, slotOf(action, namespace), { action, detail: error.detail });
}

export function learnAllowed(connection: Connection, action: NamespaceAction, namespace: string): void {
  memory.allow(connection, slotOf(action, namespace));
}

export function forgetRefusal(connection: Connection, action: NamespaceAction, namespace: string): void {
  memory.forget(connection, slotOf(action, namespace));
}

export function refusalOf(
  connection: Connection,
  action: NamespaceAction,
  namespace: string,
): NamespaceRefusal | undefined {
  return memory.refusalOf(connection, slotOf(action, namespace));
}

export function isKnownAllowed(connection: Connection, action: NamespaceAction, namespace: string): boolean {
  return memory.isAllowed(connection, slotOf(action, namespace));
}

export function useRefusal(
  connection: Connection,
  action: NamespaceAction,
  namespace: string,
): NamespaceRefusal | undefined {
  return useSyncExternalStore(memory.subscribe, () => refusalOf(connection, action, namespace));
}

export function useKnownAllowed(connection: Connection, action: NamespaceAction, namespace: string): boolean {
  return useSyncExternalStore(memory.subscribe, () => isKnownAllowed(connection, action, namespace));
}

/** For tests. */
export function forgetRefusals(): void {
  memory.clear();
}
