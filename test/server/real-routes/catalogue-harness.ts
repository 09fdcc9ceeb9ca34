import * as v from "valibot";
import { newId } from "../../../server/db/ids";
import { parsePermissionList } from "../../../server/db/rbac";
import type { InProcessServer } from "../in-process";

/**
 * What the real permissions.* route tests set up and read in their database (its seed's CreatePermission and
 * CreateRole, InsertRolePermission, FindRoleByID…), done and read here through the admin's connection.
 */

export interface PermissionSetup {
  id?: string;
  name: string;
  slug: string;
  description?: string;
}

export interface RoleSetup {
  id?: string;
  name: string;
  description?: string;
  /** The slugs of its permissions. */
  permissions?: readonly string[];
}

export interface StoredPermission {
  id: string;
  name: string;
  slug: string;
  description: string | null;
}

export interface StoredRole {
  id: string;
  name: string;
  description: string | null;
  permissions: string[];
}

export function catalogue(server: InProcessServer) {
  const db = server.admin.db;
  return {
    insertPermission(workspaceId: string, permission: PermissionSetup): string {
      const id = permission.id ?? newId("perm");
      db.prepare(
        "INSERT INTO permissions (id, workspace_id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(id, workspaceId, permission.name, permission.slug, permission.description ?? null, Date.now());
      return id;
    },
    insertRole(workspaceId: string, role: RoleSetup): string {
      const id = role.id ?? newId("role");
      db.prepare(
        "INSERT INTO roles (id, workspace_id, name, description, permissions, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(id, workspaceId, role.name, role.description ?? null, JSON.stringify(role.permissions ?? []), Date.now());
      return id;
    },
    /** A permission by id, or by slug in the workspace, as stored. */
    permission(idOrSlug: string, workspaceId?: string): StoredPermission | undefined {
      return db
        .prepare<[string, string, string], StoredPermission>(
          "SELECT id, name, slug, description FROM permissions WHERE id = ? OR (workspace_id = ? AND slug = ?)",
        )
        .get(idOrSlug, workspaceId ?? "", idOrSlug);
    },
    /** Every permission of the workspace with this slug, in any case (the real FindPermissionsBySlugs). */
    permissionsWithSlug(workspaceId: string, slug: string): StoredPermission[] {
      return db
        .prepare<[string, string], StoredPermission>(
          "SELECT id, name, slug, description FROM permissions WHERE workspace_id = ? AND slug = ? COLLATE NOCASE",
        )
        .all(workspaceId, slug);
    },
    /** A role by id, or by name in the workspace, as stored. */
    role(idOrName: string, workspaceId?: string): StoredRole | undefined {
      const row = db
        .prepare<[string, string, string], Omit<StoredRole, "permissions"> & { permissions: string }>(
          "SELECT id, name, description, permissions FROM roles WHERE id = ? OR (workspace_id = ? AND name = ?)",
        )
        .get(idOrName, workspaceId ?? "", idOrName);
      return row === undefined ? undefined : { ...row, permissions: parsePermissionList(row.permissions) };
    },
    /** The permission slugs and role names a key holds directly, as stored. */
    keyHolds(keyId: string): { permissions: string[]; roles: string[] } {
      const row = db
        .prepare<[string], { permissions: string; roles: string }>("SELECT permissions, roles FROM keys WHERE id = ?")
        .get(keyId);
      return {
        permissions: v.parse(v.array(v.string()), JSON.parse(row?.permissions ?? "[]")),
        roles: v.parse(v.array(v.string()), JSON.parse(row?.roles ?? "[]")),
      };
    },
  };
}
