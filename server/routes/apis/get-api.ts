import { apiRule } from "../../auth/permissions";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import { operation } from "../../http/operation";
import { API_ID } from "./api-id";

interface ApiRow {
  id: string;
  name: string;
}

/** `POST /v2/apis.getApi` (`api.*.read_api` or `api.<apiId>.read_api`, checked first, as the real service does). */
export function getApi(deps: ApiDependencies) {
  return operation(deps, { body: API_ID, permission: ({ apiId }) => apiRule("read_api", apiId) }, (c) => {
    const { apiId } = c.req.valid("json");
    const api = deps.store.read((db) =>
      db
        .prepare<[string, string], ApiRow>(
          "SELECT id, name FROM apis WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL",
        )
        .get(apiId, c.get("rootKey").workspaceId),
    );
    if (api === undefined) throw new ApiRefusal("err:svc:data:api_not_found");
    return dataAnswer(c, { id: api.id, name: api.name });
  });
}
