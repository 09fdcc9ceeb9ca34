import { UPDATE_KEY_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { EmptyDataSchema, type KeyUpdateInput } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/** `keys.updateKey`: every field given replaces the key's, `null` clears it, a field left out stays. */
export async function updateKey(
  connection: Connection,
  keyId: string,
  changes: KeyUpdateInput,
  options: RequestOptions = {},
): Promise<{ requestId: string | null }> {
  const { requestId } = await callOperation(
    connection,
    UPDATE_KEY_PATH,
    { ...changes, keyId },
    EmptyDataSchema,
    options,
  );
  return { requestId };
}
