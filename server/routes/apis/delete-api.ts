import { apiRule } from "../../auth/permissions";
import { deleteApi as deleteStoredApi } from "../../db/apis";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import { operation } from "../../http/operation";
import { API_ID } from "./api-id";

/**
 * `POST /v2/apis.deleteApi` (`api.*.delete_api` or `api.<apiId>.delete_api`): the API and its keys are found by nothing
 * from then on; an API with delete protection is refused (412), as the real service does.
 */
export function deleteApi(deps: ApiDependencies) {
  return operation(deps, { body: API_ID, permission: ({ apiId }) => apiRule("delete_api", apiId) }, async (c) => {
    const { apiId } = c.req.valid("json");
    await deps.store.change((db) => {
      const api = db
        .prepare<[string, string], { delete_protection: number }>(
          "SELECT delete_protection FROM apis WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL",
        )
        .get(apiId, c.get("rootKey").workspaceId);
      if (api === undefined) throw new ApiRefusal("err:svc:data:api_not_found");
      if (api.delete_protection === 1) {
        throw new ApiRefusal("err:svc:application:protected_resource", {
          detail: "This API has delete protection enabled. Disable it before attempting to delete.",
        });
      }
      deleteStoredApi(db, apiId, Date.now());
    });
    return dataAnswer(c, {});
  });
}
