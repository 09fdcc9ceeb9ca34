import * as v from "valibot";
import { rbacRule } from "../../auth/permissions";
import { deleteRole as deleteStoredRole, findRole } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { CATALOGUE_FIXES, roleField, roleNotFound } from "./catalogue-fields";

const DELETE_ROLE = {
  schema: v.strictObject({ role: roleField }),
  fixes: { role: CATALOGUE_FIXES.role },
  example: '{"role": "role_…"}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/permissions.deleteRole` (`rbac.*.delete_role`): by id or name, for good; every key holding the role
 * loses it (and the permissions it gave), in the same transaction. Answers `{}`.
 */
export function deleteRole(deps: ApiDependencies) {
  return operation(deps, { body: DELETE_ROLE, permission: () => rbacRule("delete_role") }, async (c) => {
    const { role } = c.req.valid("json");
    const workspaceId = c.get("rootKey").workspaceId;
    await deps.store.change((db) => {
      const found = findRole(db, workspaceId, role);
      if (found === undefined) throw roleNotFound();
      deleteStoredRole(db, workspaceId, found);
    });
    return dataAnswer(c, {});
  });
}
