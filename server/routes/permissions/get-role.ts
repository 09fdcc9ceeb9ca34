import * as v from "valibot";
import { rbacRule } from "../../auth/permissions";
import { findRole } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { CATALOGUE_FIXES, roleField, roleNotFound } from "./catalogue-fields";
import { roleJson } from "./catalogue-json";

const GET_ROLE = {
  schema: v.strictObject({ role: roleField }),
  fixes: { role: CATALOGUE_FIXES.role },
  example: '{"role": "support.readonly"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/permissions.getRole` (`rbac.*.read_role`): by id or name; the role with its permissions. */
export function getRole(deps: ApiDependencies) {
  return operation(deps, { body: GET_ROLE, permission: () => rbacRule("read_role") }, (c) => {
    const { role } = c.req.valid("json");
    const workspaceId = c.get("rootKey").workspaceId;
    const json = deps.store.read((db) => {
      const found = findRole(db, workspaceId, role);
      if (found === undefined) throw roleNotFound();
      return roleJson(db, workspaceId, found);
    });
    return dataAnswer(c, json);
  });
}
