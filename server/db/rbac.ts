import type { Database } from "better-sqlite3";
import { ApiRefusal } from "../http/api-refusal";
import { ConflictError } from "./conflict-error";
import { newId } from "./ids";

/** The workspace's permissions and roles: creating, finding, granting and listing them. */

/** Permissions are stored as a JSON array of strings. */
export function parsePermissionList(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : [];
}

/** Adds the permissions (by slug, which is also their name) the workspace does not have yet. */
export function addPermissions(db: Database, workspaceId: string, slugs: readonly string[], createdAt: number): void {
  if (slugs.length === 0) return;
  const insert = db.prepare<[string, string, string, string, number]>(
    "INSERT INTO permissions (id, workspace_id, name, slug, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  for (const slug of new Set(slugs)) insert.run(newId("perm"), workspaceId, slug, slug, createdAt);
}

export interface RoleSummary {
  id: string;
  name: string;
  permissions: string[];
  keyCount: number;
}

/** Creates a role of the workspace with these permissions; a ConflictError when the name is taken. */
export function createRole(
  db: Database,
  workspaceId: string,
  name: string,
  permissions: readonly string[],
  createdAt = Date.now(),
  description?: string,
): string {
  const id = newId("role");
  const inserted = db
    .prepare(
      "INSERT INTO roles (id, workspace_id, name, permissions, created_at, description) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    )
    .run(id, workspaceId, name, JSON.stringify([...new Set(permissions)]), createdAt, description ?? null);
  if (inserted.changes === 0) throw new ConflictError(`the workspace already has a role "${name}"`);
  addPermissions(db, workspaceId, permissions, createdAt);
  return id;
}

/** Adds permissions to a role of the workspace; returns all its permissions, or undefined when there is no such role. */
export function grantRole(
  db: Database,
  workspaceId: string,
  name: string,
  permissions: readonly string[],
): string[] | undefined {
  return db
    .transaction(() => {
      const row = db
        .prepare<[string, string], { permissions: string }>(
          "SELECT permissions FROM roles WHERE workspace_id = ? AND name = ?",
        )
        .get(workspaceId, name);
      if (row === undefined) return undefined;
      const all = [...new Set([...parsePermissionList(row.permissions), ...permissions])];
      addPermissions(db, workspaceId, permissions, Date.now());
      db.prepare("UPDATE roles SET permissions = ? WHERE workspace_id = ? AND name = ?").run(
        JSON.stringify(all),
        workspaceId,
        name,
      );
      return all;
    })
    .immediate();
}

export function listRoles(db: Database, workspaceId: string): RoleSummary[] {
  const rows = db
    .prepare<[string], { id: string; name: string; permissions: string; keyCount: number }>(
      `SELECT r.id, r.name, r.permissions,
              (SELECT count(*) FROM keys k WHERE k.workspace_id = r.workspace_id AND k.deleted_at IS NULL
                 AND EXISTS (SELECT 1 FROM json_each(k.roles) WHERE value = r.name)) AS keyCount
         FROM roles r WHERE r.workspace_id = ? ORDER BY r.name`,
    )
    .all(workspaceId);
  return rows.map((row) => ({ ...row, permissions: parsePermissionList(row.permissions) }));
}

export interface PermissionRow {
  id: string;
  name: string;
  slug: string;
}

export interface RoleRow {
  id: string;
  name: string;
  permissions: PermissionRow[];
}

/** The workspace's permissions with these slugs (or ids), in the order asked; the ones it lacks are left out. */
export function findPermissions(db: Database, workspaceId: string, slugsOrIds: readonly string[]): PermissionRow[] {
  const find = db.prepare<[string, string, string], PermissionRow>(
    "SELECT id, name, slug FROM permissions WHERE workspace_id = ? AND (slug = ? OR id = ?)",
  );
  const found: PermissionRow[] = [];
  for (const wanted of slugsOrIds) {
    const row = find.get(workspaceId, wanted, wanted);
    if (row !== undefined && !found.some((known) => known.id === row.id)) found.push(row);
  }
  return found;
}

/** Creates the permissions the workspace lacks among `slugs` (a permission's name is its slug) and returns them all. */
export function ensurePermissions(
  db: Database,
  workspaceId: string,
  slugs: readonly string[],
  createdAt: number,
): PermissionRow[] {
  addPermissions(db, workspaceId, slugs, createdAt);
  return findPermissions(db, workspaceId, slugs);
}

/** The workspace's permissions with these slugs, in their order; a slug the workspace lacks is left out. */
export function permissionRows(db: Database, workspaceId: string, slugs: readonly string[]): PermissionRow[] {
  return findPermissions(db, workspaceId, slugs).filter((row) => slugs.includes(row.slug));
}

/** The roles of the workspace with these names, each with its permissions; an ApiRefusal (404) for the first missing. */
export function requireRoles(db: Database, workspaceId: string, names: readonly string[]): RoleRow[] {
  const find = db.prepare<[string, string, string], { id: string; name: string; permissions: string }>(
    "SELECT id, name, permissions FROM roles WHERE workspace_id = ? AND (name = ? OR id = ?)",
  );
  const roles: RoleRow[] = [];
  for (const name of names) {
    const row = find.get(workspaceId, name, name);
    if (row === undefined)
      throw new ApiRefusal("err:svc:data:role_not_found", { detail: `Role '${name}' was not found.` });
    if (roles.some((role) => role.id === row.id)) continue;
    roles.push({
      id: row.id,
      name: row.name,
      permissions: permissionRows(db, workspaceId, parsePermissionList(row.permissions)),
    });
  }
  return roles;
}
