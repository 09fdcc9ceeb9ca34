import { DELETE_OVERRIDE_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { EmptyDataSchema } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/**
 * `ratelimit.deleteOverride`: the override set for exactly `identifier` (a pattern as written); the identifiers it
 * matched fall back to the next matching override, or to the limit their requests ask, from the next limit on.
 */
export async function deleteOverride(
  connection: Connection,
  request: { namespace: string; identifier: string },
  options: RequestOptions = {},
): Promise<{ requestId: string | null }> {
  const { requestId } = await callOperation(connection, DELETE_OVERRIDE_PATH, { ...request }, EmptyDataSchema, options);
  return { requestId };
}
