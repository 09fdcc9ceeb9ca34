import * as v from "valibot";
import { rbacRule } from "../../auth/permissions";
import { deletePermission as deleteStoredPermission, findPermission } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { CATALOGUE_FIXES, permissionNotFound, slugField } from "./catalogue-fields";

const DELETE_PERMISSION = {
  schema: v.strictObject({ permission: slugField("permission") }),
  fixes: { permission: CATALOGUE_FIXES.permission },
  example: '{"permission": "perm_…"}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/permissions.deletePermission` (`rbac.*.delete_permission`): by id or slug, for good; every key and role
 * holding it loses it, in the same transaction. Answers `{}`.
 */
export function deletePermission(deps: ApiDependencies) {
  return operation(deps, { body: DELETE_PERMISSION, permission: () => rbacRule("delete_permission") }, async (c) => {
    const { permission } = c.req.valid("json");
    const workspaceId = c.get("rootKey").workspaceId;
    await deps.store.change((db) => {
      const found = findPermission(db, workspaceId, permission);
      if (found === undefined) throw permissionNotFound();
      deleteStoredPermission(db, workspaceId, found);
    });
    return dataAnswer(c, {});
  });
}
