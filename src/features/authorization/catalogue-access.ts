/**
 * What the root key was refused, and seen allowed, for each change of the catalogue: slots of the session's access
 * memory (src/lib/access-memory.ts). The catalogue's permissions are the workspace's (`rbac.*.…`), so an answer counts
 * for the connection, whatever permission or role it was about.
 */
import {
  forgetAccess,
  learnAllowed,
  learnRefused,
  useAllowedAt,
  useRefusalAt,
  type AccessSlot,
} from "@/lib/access-memory";
import { isPermissionRefusal } from "@/lib/access-probe";
import type { Connection } from "@/lib/api/transport";
import { rbacPermission, type RbacAction } from "@/lib/contract";

/** The catalogue's changes, each named after what it does. */
export type CatalogueAction =
  "create_permission" | "delete_permission" | "create_role" | "delete_role" | "set_role_permissions";

/** What each change needs, all of it (setRolePermissions both adds and removes, whatever it is asked). */
const NEEDS: Record<CatalogueAction, readonly RbacAction[]> = {
  create_permission: ["create_permission"],
  delete_permission: ["delete_permission"],
  create_role: ["create_role"],
  delete_role: ["delete_role"],
  set_role_permissions: ["add_permission_to_role", "remove_permission_from_role"],
};

/** The root-key permissions `action` needs, every one of them, as the services name them. */
export function neededFor(action: CatalogueAction): string[] {
  return NEEDS[action].map(rbacPermission);
}

/**
 * What a refusal of `action` says is missing: the permission it needs that the service's words name (the services
 * check an action's permissions one by one and name the first one missing), else the first it needs. Granted, the
 * next refusal names the next, if that one is missing too.
 */
export function missingFor(action: CatalogueAction, detail: string): string {
  const needed = neededFor(action);
  return needed.find((permission) => detail.includes(permission)) ?? needed[0] ?? "";
}

export function slotOf(action: CatalogueAction): AccessSlot {
  return { action, on: "catalogue" };
}

/** Remembers the answer to a change: allowed, or refused when it is a 403 for a permission. */
export function learnAnswer(connection: Connection, action: CatalogueAction, error?: unknown): void {
  if (error === undefined) learnAllowed(connection, slotOf(action));
  else if (isPermissionRefusal(error)) learnRefused(connection, slotOf(action), error.detail);
}

/** The user says the root key was granted it since: found out again on the next try. */
export function forgetRefusal(connection: Connection, action: CatalogueAction): void {
  forgetAccess(connection, slotOf(action));
}

/** The remembered refusal of `action` for this root key, if any; re-renders when one is learnt. */
export function useCatalogueRefusal(connection: Connection, action: CatalogueAction) {
  return useRefusalAt(connection, slotOf(action));
}

/** Whether `action` is known allowed for this root key; re-renders when that is learnt. */
export function useCatalogueAllowed(connection: Connection, action: CatalogueAction): boolean {
  return useAllowedAt(connection, slotOf(action));
}
