import * as v from "valibot";
import { rbacRule, rbacTuples, requirePermission } from "../../auth/permissions";
import { ConflictError } from "../../db/conflict-error";
import { createRole as createStoredRole, permissionsForRole } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { CATALOGUE_FIXES, descriptionField, rolePermissionsField } from "./catalogue-fields";

const CREATE_ROLE = {
  schema: v.strictObject({
    name: v.pipe(
      v.string("name is required and must be a string"),
      v.minLength(1, "name must not be empty"),
      v.maxLength(128, "name must be at most 128 characters"),
    ),
    description: v.optional(descriptionField),
    permissions: v.optional(rolePermissionsField),
  }),
  fixes: {
    name: "Pass a name of 1 to 128 characters, unique in the workspace, like support.readonly.",
    description: CATALOGUE_FIXES.description,
    permissions: CATALOGUE_FIXES.permissions,
  },
  example: '{"name": "support.readonly", "permissions": ["users.read"]}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/permissions.createRole` (`rbac.*.create_role`; with permissions also `rbac.*.add_permission_to_role`, and
 * `rbac.*.create_permission` when one is missing, which is created): answers `{roleId}`; 409 for a name in use.
 * The role, its permissions and any permission made for it are one change: a refusal leaves none of them.
 */
export function createRole(deps: ApiDependencies) {
  return operation(deps, { body: CREATE_ROLE, permission: () => rbacRule("create_role") }, async (c) => {
    const { name, description, permissions = [] } = c.req.valid("json");
    const rootKey = c.get("rootKey");
    if (permissions.length > 0) requirePermission(rootKey.permissions, rbacTuples("add_permission_to_role"));
    const roleId = await deps.store.change((db) => {
      const now = Date.now();
      const granted = permissionsForRole(
        db,
        rootKey.workspaceId,
        permissions,
        () => requirePermission(rootKey.permissions, rbacTuples("create_permission")),
        now,
      );
      try {
        const slugs = granted.map((permission) => permission.slug);
        return createStoredRole(db, rootKey.workspaceId, name, slugs, now, description || undefined);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        throw new ApiRefusal("err:svc:data:role_already_exists", {
          detail: `A role with name '${name}' already exists in this workspace`,
        });
      }
    });
    return dataAnswer(c, { roleId });
  });
}
