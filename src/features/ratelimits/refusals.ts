/**
 * What the root key was refused, and seen allowed, per namespace and action: slots of the session's access memory
 * (src/lib/access-memory.ts), `set_override` on `namespace api.requests`. The services check a namespace's permission
 * as `ratelimit.<namespaceId>.<action>` or `ratelimit.*.<action>`, after finding the namespace (a 404 first), and name
 * both in a 403's words, which so tell the namespace's id: it is learnt from them.
 */
import type { Connection } from "@/lib/api/transport";
import {
  forgetAccess,
  isAllowedAt,
  learnAllowed as learnAllowedAt,
  learnRefused,
  refusalAt,
  useAllowedAt,
  useRefusalAt,
  type AccessSlot,
  type LearntRefusal,
} from "@/lib/access-memory";
import { isPermissionRefusal } from "@/lib/access-probe";
import { ratelimitGrants, type RatelimitAction } from "@/lib/contract";
import { learnNamespaceId, namespaceKey } from "./known-namespaces";

/** What the namespace pages do, by the permission each needs. */
export type NamespaceAction = Extract<
  RatelimitAction,
  "read_override" | "set_override" | "delete_override" | "read_analytics"
>;

export function slotOf(action: NamespaceAction, namespace: string): AccessSlot {
  return { action, on: `namespace ${namespaceKey(namespace)}` };
}

/** The id a service's words name for a namespace's permission (`ratelimit.rlns_….set_override`). */
export function namespaceIdNamedIn(detail: string): string | undefined {
  return /\bratelimit\.(rlns_[A-Za-z0-9_]+)\.\w+/.exec(detail)?.[1];
}

/** The permissions that each grant `action` there: every namespace's, then this one's (its id, or `<namespaceId>`). */
export function namespaceGrants(action: NamespaceAction, namespaceId: string | undefined): string[] {
  return [...ratelimitGrants(action, namespaceId ?? "<namespaceId>")].reverse();
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
  learnRefused(connection, slotOf(action, namespace), error.detail, namespaceGrants(action, id));
}

export function learnAllowed(connection: Connection, action: NamespaceAction, namespace: string): void {
  learnAllowedAt(connection, slotOf(action, namespace));
}

export function forgetRefusal(connection: Connection, action: NamespaceAction, namespace: string): void {
  forgetAccess(connection, slotOf(action, namespace));
}

export function refusalOf(
  connection: Connection,
  action: NamespaceAction,
  namespace: string,
): LearntRefusal | undefined {
  return refusalAt(connection, slotOf(action, namespace));
}

export function isKnownAllowed(connection: Connection, action: NamespaceAction, namespace: string): boolean {
  return isAllowedAt(connection, slotOf(action, namespace));
}

export function useRefusal(
  connection: Connection,
  action: NamespaceAction,
  namespace: string,
): LearntRefusal | undefined {
  return useRefusalAt(connection, slotOf(action, namespace));
}

export function useKnownAllowed(connection: Connection, action: NamespaceAction, namespace: string): boolean {
  return useAllowedAt(connection, slotOf(action, namespace));
}
