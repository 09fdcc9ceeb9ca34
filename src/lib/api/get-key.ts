import { GET_KEY_PATH, type Key } from "../contract";
import { callOperation } from "./call-operation";
import { KeySchema } from "./schemas";
import type { Connection, RequestOptions } from "./transport";

/** `keys.getKey`: one key by its id; an unknown id is an ApiError `…:data:key_not_found` (404). */
export async function getKey(
  connection: Connection,
  keyId: string,
  options: RequestOptions = {},
): Promise<{ key: Key; requestId: string | null }> {
  const { data, requestId } = await callOperation(connection, GET_KEY_PATH, { keyId }, KeySchema, options);
  return { key: data, requestId };
}
