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

/** A permission as the permissions.* operations answer it. */
export interface PermissionRecord extends PermissionRow {
  description: string | null;
}

/**
 * The workspace's permission with this id or slug, the slug matched without regard to case as the real service's
 * database matches it (an exact match first, where older data holds two that differ in case).
 */
export function findPermission(db: Database, workspaceId: string, idOrSlug: string): PermissionRecord | undefined {
  return db
    .prepare<[string, string, string, string], PermissionRecord>(
      `SELECT id, name, slug, description FROM permissions
        WHERE workspace_id = ? AND (id = ? OR slug = ? COLLATE NOCASE)
        ORDER BY slug = ? DESC LIMIT 1`,
    )
    .get(workspaceId, idOrSlug, idOrSlug, idOrSlug);
}

/** The workspace's permissions by slug (the admin CLI's `permissions list`). */
export function listPermissions(db: Database, workspaceId: string): PermissionRecord[] {
  return db
    .prepare<[string], PermissionRecord>(
      "SELECT id, name, slug, description FROM permissions WHERE workspace_id = ? ORDER BY slug",
    )
    .all(workspaceId);
}

/** permissions.createPermission: a ConflictError when the workspace has the slug already, in any case. */
export function createPermission(
  db: Database,
  workspaceId: string,
  permission: { name: string; slug: string; description?: string | undefined },
  createdAt = Date.now(),
): string {
  const taken = db
    .prepare<[string, string], number>("SELECT 1 FROM permissions WHERE workspace_id = ? AND slug = ? COLLATE NOCASE")
    .pluck()
    .get(workspaceId, permission.slug);
  if (taken !== undefined) throw new ConflictError(`the workspace already has a permission "${permission.slug}"`);
  const id = newId("perm");
  db.prepare(
    "INSERT INTO permissions (id, workspace_id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(id, workspaceId, permission.name, permission.slug, emptyAsNull(permission.description), createdAt);
  return id;
}

/** An empty description is none, as the real service stores it (NULL, and left out of its answers). */
function emptyAsNull(text: string | undefined): string | null {
  return text === undefined || text === "" ? null : text;
}

/** JSON text holding `value` as a JSON string: what a stored list holds it as, for a quick look before json_each. */
const quoted = "json_quote(:value)";

/** Removes `value` from the JSON list column `column` of the workspace's rows of `table` (keys or roles) that hold it. */
function removeFromLists(
  db: Database,
  table: "keys" | "roles",
  column: "permissions" | "roles",
  workspaceId: string,
  value: string,
): void {
  db.prepare(
    `UPDATE ${table} SET ${column} = (SELECT json_group_array(item.value) FROM json_each(${table}.${column}) item WHERE item.value <> :value)
      WHERE workspace_id = :workspaceId AND instr(${column}, ${quoted}) > 0`,
  ).run({ workspaceId, value });
}

/**
 * permissions.deletePermission: the permission goes, and with it every key's and role's hold on it, as the real
 * service deletes its links (a key or role that had it no longer grants it from the next verification on).
 */
export function deletePermission(db: Database, workspaceId: string, permission: PermissionRecord): void {
  removeFromLists(db, "keys", "permissions", workspaceId, permission.slug);
  removeFromLists(db, "roles", "permissions", workspaceId, permission.slug);
  db.prepare("DELETE FROM permissions WHERE id = ?").run(permission.id);
}

/** A role as the permissions.* operations answer it. */
export interface RoleRecord {
  id: string;
  name: string;
  description: string | null;
  /** The slugs of its permissions. */
  permissions: string[];
}

/** The workspace's role with this id or name. */
export function findRole(db: Database, workspaceId: string, idOrName: string): RoleRecord | undefined {
  const row = db
    .prepare<
      [string, string, string, string],
      { id: string; name: string; description: string | null; permissions: string }
    >(
      `SELECT id, name, description, permissions FROM roles WHERE workspace_id = ? AND (id = ? OR name = ?)
        ORDER BY id = ? DESC LIMIT 1`,
    )
    .get(workspaceId, idOrName, idOrName, idOrName);
  return row === undefined ? undefined : { ...row, permissions: parsePermissionList(row.permissions) };
}

/** The workspace's permissions with these slugs (in any case) or ids, with their descriptions, in the order asked. */
export function permissionRecords(db: Database, workspaceId: string, slugs: readonly string[]): PermissionRecord[] {
  const find = db.prepare<[string, string, string, string], PermissionRecord>(
    `SELECT id, name, slug, description FROM permissions WHERE workspace_id = ? AND (id = ? OR slug = ? COLLATE NOCASE)
      ORDER BY slug = ? DESC LIMIT 1`,
  );
  const found: PermissionRecord[] = [];
  for (const slug of slugs) {
    const row = find.get(workspaceId, slug, slug, slug);
    if (row !== undefined && !found.some((known) => known.id === row.id)) found.push(row);
  }
  return found;
}

/**
 * The permissions a role is given (permissions.createRole, setRolePermissions), as the real service takes them: each
 * slug once, whatever its case, in sorted order; the workspace's own when it has them, else created with the slug as
 * given, after `mayCreate` (which refuses with the real 403) when any is missing.
 */
export function permissionsForRole(
  db: Database,
  workspaceId: string,
  slugs: readonly string[],
  mayCreate: () => void,
  now: number,
): PermissionRecord[] {
  const bySlug = db.prepare<[string, string, string], PermissionRecord>(
    `SELECT id, name, slug, description FROM permissions WHERE workspace_id = ? AND slug = ? COLLATE NOCASE
      ORDER BY slug = ? DESC LIMIT 1`,
  );
  const seen = new Set<string>();
  const wanted = slugs.filter((slug) => !seen.has(slug.toLowerCase()) && seen.add(slug.toLowerCase())).sort();
  const missing = wanted.filter((slug) => bySlug.get(workspaceId, slug, slug) === undefined);
  if (missing.length > 0) mayCreate();
  addPermissions(db, workspaceId, missing, now);
  return wanted.map((slug) => {
    const found = bySlug.get(workspaceId, slug, slug);
    if (found === undefined) throw new Error(`the permission ${slug} was not made`);
    return found;
  });
}

/** Replaces a role's permissions (their slugs); a key holding the role holds them from the next verification on. */
export function setRolePermissions(db: Database, roleId: string, slugs: readonly string[]): void {
  db.prepare("UPDATE roles SET permissions = ? WHERE id = ?").run(JSON.stringify([...new Set(slugs)]), roleId);
}

/** permissions.deleteRole: the role goes, and every key holding it lets go of it, as the real service deletes its links. */
export function deleteRole(db: Database, workspaceId: string, role: RoleRecord): void {
  removeFromLists(db, "keys", "roles", workspaceId, role.name);
  db.prepare("DELETE FROM roles WHERE id = ?").run(role.id);
}
