import type { Context } from "hono";
import * as v from "valibot";
import type { ApiEnv } from "../../http/api-env";
import { authenticateRootKey, type AuthDependencies } from "../../auth/root-key";
import { ChangeRefused } from "../../http/api-refusal";
import { createApi, deleteApi } from "../../db/apis";
import { permissionsFor } from "../../auth/permissions";
import { applyChange, applyRead, dataAnswer, requirePermissions } from "../change";
import { readValidBody, type BodySpec } from "../../http/json-body";
import { apiIdField } from "../keys/key-fields";

/** apis.createApi, apis.getApi and apis.deleteApi: the APIs of the root key's workspace. */

const API_NOT_FOUND = "The requested API does not exist or has been deleted.";

const CREATE_API_SCHEMA = v.strictObject({
  name: v.pipe(
    v.string("name is required and must be a string"),
    v.minLength(3, "name must be at least 3 characters"),
    v.maxLength(256, "name must be at most 256 characters"),
  ),
});

const CREATE_API: BodySpec<typeof CREATE_API_SCHEMA> = {
  schema: CREATE_API_SCHEMA,
  fixes: { name: "Pass a name of 3 to 256 characters." },
  example: '{"name": "payments"}',
};

const API_ID_SCHEMA = v.strictObject({ apiId: apiIdField(8) });

const API_ID: BodySpec<typeof API_ID_SCHEMA> = {
  schema: API_ID_SCHEMA,
  fixes: { apiId: "Pass the id of an API of your workspace, like api_…." },
  example: '{"apiId": "api_…"}',
};

/** `POST /v2/apis.createApi` (`api.*.create_api`): answers `{apiId}`. */
export function createApiHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, CREATE_API);
    if (!body.ok) return body.response;

    const result = await applyChange(c, deps.store, (db) => {
      requirePermissions(rootKey.permissions, { oneOfEach: [permissionsFor("create_api")] });
      return createApi(db, rootKey.workspaceId, body.value.name);
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, { apiId: result.value });
  };
}

interface ApiRow {
  id: string;
  name: string;
}

/** `POST /v2/apis.getApi` (`api.*.read_api` or `api.<apiId>.read_api`, checked first, as the real service does). */
export function getApiHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, API_ID);
    if (!body.ok) return body.response;
    const { apiId } = body.value;

    const result = applyRead(c, deps.store, (db) => {
      requirePermissions(rootKey.permissions, { oneOfEach: [permissionsFor("read_api", apiId)] });
      const api = db
        .prepare<[string, string], ApiRow>(
          "SELECT id, name FROM apis WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL",
        )
        .get(apiId, rootKey.workspaceId);
      if (api === undefined) throw new ChangeRefused("err:svc:data:api_not_found", API_NOT_FOUND);
      return api;
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, { id: result.value.id, name: result.value.name });
  };
}

/**
 * `POST /v2/apis.deleteApi` (`api.*.delete_api` or `api.<apiId>.delete_api`): the API and its keys are found by nothing
 * from then on; an API with delete protection is refused (412), as the real service does.
 */
export function deleteApiHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, API_ID);
    if (!body.ok) return body.response;
    const { apiId } = body.value;

    const result = await applyChange(c, deps.store, (db) => {
      requirePermissions(rootKey.permissions, { oneOfEach: [permissionsFor("delete_api", apiId)] });
      const api = db
        .prepare<[string, string], { delete_protection: number }>(
          "SELECT delete_protection FROM apis WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL",
        )
        .get(apiId, rootKey.workspaceId);
      if (api === undefined) throw new ChangeRefused("err:svc:data:api_not_found", API_NOT_FOUND);
      if (api.delete_protection === 1) {
        throw new ChangeRefused(
          "err:svc:application:protected_resource",
          "This API has delete protection enabled. Disable it before attempting to delete.",
        );
      }
      deleteApi(db, apiId, Date.now());
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, {});
  };
}
