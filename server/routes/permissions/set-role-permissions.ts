import * as v from "valibot";
import { createPermissionRule, rbacTuples, requirePermission } from "../../auth/permissions";
import { permissionsForRole, setRolePermissions as setStoredRolePermissions } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { CATALOGUE_FIXES, rolePermissionsField, roleNotFound } from "./catalogue-fields";
import { permissionJson } from "./catalogue-json";

const SET_ROLE_PERMISSIONS = {
  schema: v.strictObject({
    roleId: v.pipe(
      v.string("roleId is required and must be a string"),
      v.minLength(3, "roleId must be at least 3 characters"),
      v.maxLength(255, "roleId must be at most 255 characters"),
      v.regex(/^[a-zA-Z0-9_-]+$/, "roleId must be a role id like role_…"),
    ),
    permissions: rolePermissionsField,
  }),
  fixes: {
    roleId: "Pass the role's id (role_…), as permissions.listRoles lists it.",
    permissions: `${CATALOGUE_FIXES.permissions} An empty list clears them.`,
  },
  example: '{"roleId": "role_…", "permissions": ["users.read"]}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/permissions.setRolePermissions` (`rbac.*.add_permission_to_role` and `rbac.*.remove_permission_from_role`,
 * and a permission to create any that is missing): the role's permissions become exactly these, each slug once in any
 * case; the keys holding the role hold them from the next verification on. Answers them, sorted by slug.
 */
export function setRolePermissions(deps: ApiDependencies) {
  return operation(
    deps,
    {
      body: SET_ROLE_PERMISSIONS,
      permission: () => rbacTuples("add_permission_to_role", "remove_permission_from_role"),
    },
    async (c) => {
      const { roleId, permissions } = c.req.valid("json");
      const rootKey = c.get("rootKey");
      const granted = await deps.store.change((db) => {
        const role = db
          .prepare<[string, string], number>("SELECT 1 FROM roles WHERE id = ? AND workspace_id = ?")
          .pluck()
          .get(roleId, rootKey.workspaceId);
        if (role === undefined) throw roleNotFound();
        const mayCreate = () => requirePermission(rootKey.permissions, createPermissionRule(rootKey.workspaceId));
        const records = permissionsForRole(db, rootKey.workspaceId, permissions, mayCreate, Date.now());
        setStoredRolePermissions(
          db,
          roleId,
          records.map((permission) => permission.slug),
        );
        return records;
      });
      return dataAnswer(c, granted.map(permissionJson));
    },
  );
}
