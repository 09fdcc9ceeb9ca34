import * as v from "valibot";
import { GET_API_PATH } from "../contract";
import { callOperation } from "./call-operation";
import type { Connection, RequestOptions } from "./transport";

const ApiSchema = v.looseObject({ id: v.string(), name: v.string() });
export type ApiInfo = v.InferOutput<typeof ApiSchema>;

/**
 * `apis.getApi`: an API's id and name (needs `api.*.read_api` or `api.<apiId>.read_api`, checked before the lookup,
 * so a 404 `…:data:api_not_found` means there is no such API). The v2 API has no operation that lists APIs.
 */
export async function getApi(
  connection: Connection,
  apiId: string,
  options: RequestOptions = {},
): Promise<{ api: ApiInfo; requestId: string | null }> {
  const { data, requestId } = await callOperation(connection, GET_API_PATH, { apiId }, ApiSchema, options);
  return { api: data, requestId };
}
