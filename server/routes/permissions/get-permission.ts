import * as v from "valibot";
import { rbacRule } from "../../auth/permissions";
import { findPermission } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { CATALOGUE_FIXES, permissionNotFound, slugField } from "./catalogue-fields";
import { permissionJson } from "./catalogue-json";

const GET_PERMISSION = {
  schema: v.strictObject({ permission: slugField("permission") }),
  fixes: { permission: CATALOGUE_FIXES.permission },
  example: '{"permission": "users-read"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/permissions.getPermission` (`rbac.*.read_permission`): by id or slug; the permission with its description. */
export function getPermission(deps: ApiDependencies) {
  return operation(deps, { body: GET_PERMISSION, permission: () => rbacRule("read_permission") }, (c) => {
    const { permission } = c.req.valid("json");
    const found = deps.store.read((db) => findPermission(db, c.get("rootKey").workspaceId, permission));
    if (found === undefined) throw permissionNotFound();
    return dataAnswer(c, permissionJson(found));
  });
}
