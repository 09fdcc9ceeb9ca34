/**
 * Whether this root key may change the catalogue, found out before a form opens, as the key actions find out theirs
 * (src/lib/access-probe.ts): each probe sends the smallest request the service must authorize that changes nothing.
 * The services check the permission first, then look up or write, so each is refused after the check for a reason
 * that writes nothing. An answer is remembered for the session: a probe goes out once per root key.
 */
import { knownOrUnknown, runProbe, type ProbeAnswer } from "@/lib/access-probe";
import { isApiErrorOf, type ApiError, type ErrorKind } from "@/lib/api-errors";
import { createPermission } from "@/lib/api/create-permission";
import { createRole } from "@/lib/api/create-role";
import { deletePermission } from "@/lib/api/delete-permission";
import { deleteRole } from "@/lib/api/delete-role";
import { setRolePermissions } from "@/lib/api/set-role-permissions";
import type { Connection } from "@/lib/api/transport";
import { slotOf } from "../catalogue-access";

/** A name no workspace holds (`[a-z0-9.]`, a valid slug, role name and role id alike). */
function absentName(prefix: string): string {
  const random = crypto.getRandomValues(new Uint32Array(4));
  return `${prefix}${Array.from(random, (part) => part.toString(36)).join("")}`;
}

const answered = (kind: ErrorKind, status: number) => (error: ApiError) =>
  error.status === status && isApiErrorOf(error, kind);

/**
 * createPermission of a slug the workspace has (`existing`, one listed): 409 after the check. Cost on the real
 * service: the workspace's default project ensured and a transaction whose insert fails and is rolled back; no
 * permission, no audit-log entry. With no permission to collide with there is no such request: unknown until tried.
 */
export function probeCreatePermission(connection: Connection, existing: string | undefined): Promise<ProbeAnswer> {
  const slot = slotOf("create_permission");
  if (existing === undefined) return Promise.resolve(knownOrUnknown(connection, slot));
  return runProbe(connection, slot, {
    request: () => createPermission(connection, { name: existing, slug: existing }),
    isAllowedAnswer: answered("data:permission_already_exists", 409),
  });
}

/** createRole (no permissions) of a name the workspace has: 409 after the check, as createPermission's probe. */
export function probeCreateRole(connection: Connection, existing: string | undefined): Promise<ProbeAnswer> {
  const slot = slotOf("create_role");
  if (existing === undefined) return Promise.resolve(knownOrUnknown(connection, slot));
  return runProbe(connection, slot, {
    request: () => createRole(connection, { name: existing }),
    isAllowedAnswer: answered("data:role_already_exists", 409),
  });
}

/** deletePermission of a slug no workspace has: 404 after the check. Cost on the real service: one read. */
export function probeDeletePermission(connection: Connection): Promise<ProbeAnswer> {
  return runProbe(connection, slotOf("delete_permission"), {
    request: () => deletePermission(connection, absentName("keyscope.probe.")),
    isAllowedAnswer: answered("data:permission_not_found", 404),
  });
}

/** deleteRole of a name no workspace has: 404 after the check. Cost on the real service: one read. */
export function probeDeleteRole(connection: Connection): Promise<ProbeAnswer> {
  return runProbe(connection, slotOf("delete_role"), {
    request: () => deleteRole(connection, absentName("keyscope.probe.")),
    isAllowedAnswer: answered("data:role_not_found", 404),
  });
}

/**
 * setRolePermissions (no permissions) of a role id no workspace has: 404 after the check of both permissions it
 * needs. Cost on the real service: a transaction that looks for the role's row to lock, finds none, and is rolled back.
 */
export function probeSetRolePermissions(connection: Connection): Promise<ProbeAnswer> {
  return runProbe(connection, slotOf("set_role_permissions"), {
    request: () => setRolePermissions(connection, absentName("role_keyscopeprobe"), []),
    isAllowedAnswer: answered("data:role_not_found", 404),
  });
}
