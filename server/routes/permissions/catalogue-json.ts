import type { Database } from "better-sqlite3";
import { permissionRecords, type PermissionRecord } from "../../db/rbac";
import { withDescription } from "./described-row";

/** A permission and a role as the permissions.* operations answer them (a description only when there is one). */

export function permissionJson({ description, ...permission }: PermissionRecord): object {
  return withDescription(permission, description);
}

export function roleJson(
  db: Database,
  workspaceId: string,
  role: { id: string; name: string; description: string | null; permissions: readonly string[] },
): object {
  const permissions = permissionRecords(db, workspaceId, role.permissions).map(permissionJson);
  const json = withDescription({ id: role.id, name: role.name }, role.description);
  // As the real service: a role without permissions has no `permissions` at all.
  return permissions.length === 0 ? json : { ...json, permissions };
}
