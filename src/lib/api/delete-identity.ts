import { DELETE_IDENTITY_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { EmptyDataSchema } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/**
 * `identities.deleteIdentity` (`identity.*.delete_identity`): the identity is found by nothing from then on; its keys
 * stay, and verify as keys of no identity (without its meta and its shared rate limits), on both services.
 */
export async function deleteIdentity(
  connection: Connection,
  identity: string,
  options: RequestOptions = {},
): Promise<{ requestId: string | null }> {
  const { requestId } = await callOperation(connection, DELETE_IDENTITY_PATH, { identity }, EmptyDataSchema, options);
  return { requestId };
}
