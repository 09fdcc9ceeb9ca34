import { DELETE_KEY_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { EmptyDataSchema } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/** `keys.deleteKey`: the key stops verifying at once (NOT_FOUND); `permanent` also erases its record. */
export async function deleteKey(
  connection: Connection,
  keyId: string,
  options: RequestOptions & { permanent?: boolean } = {},
): Promise<{ requestId: string | null }> {
  const { permanent, ...requestOptions } = options;
  const body = permanent === undefined ? { keyId } : { keyId, permanent };
  const { requestId } = await callOperation(connection, DELETE_KEY_PATH, body, EmptyDataSchema, requestOptions);
  return { requestId };
}
