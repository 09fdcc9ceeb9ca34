import { Hono } from "hono";
import { CREATE_API_PATH, DELETE_API_PATH, GET_API_PATH, REAL_SERVICE_LIST_KEYS_PATH } from "../../src/lib/contract";
import type { ApiDependencies, ApiEnv } from "../http/api-env";
import { createApi } from "./apis/create-api";
import { deleteApi } from "./apis/delete-api";
import { getApi } from "./apis/get-api";
import { apisListKeys } from "./keys/list-keys";

/** The `apis.*` operations, one line each; apis.listKeys shares its code with keys.listKeys. */
export function apisRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>()
    .post(CREATE_API_PATH, ...createApi(deps))
    .post(GET_API_PATH, ...getApi(deps))
    .post(DELETE_API_PATH, ...deleteApi(deps))
    .post(REAL_SERVICE_LIST_KEYS_PATH, ...apisListKeys(deps));
}
