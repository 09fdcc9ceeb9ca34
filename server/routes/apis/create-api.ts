import * as v from "valibot";
import { apiRule } from "../../auth/permissions";
import { createApi as createStoredApi } from "../../db/apis";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";

const CREATE_API = {
  schema: v.strictObject({
    name: v.pipe(
      v.string("name is required and must be a string"),
      v.minLength(3, "name must be at least 3 characters"),
      v.maxLength(256, "name must be at most 256 characters"),
    ),
  }),
  fixes: { name: "Pass a name of 3 to 256 characters." },
  example: '{"name": "payments"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/apis.createApi` (`api.*.create_api`): answers `{apiId}`. */
export function createApi(deps: ApiDependencies) {
  return operation(deps, { body: CREATE_API, permission: () => apiRule("create_api") }, async (c) => {
    const { name } = c.req.valid("json");
    const apiId = await deps.store.change((db) => createStoredApi(db, c.get("rootKey").workspaceId, name));
    return dataAnswer(c, { apiId });
  });
}
