import { GET_IDENTITY_PATH, type KeyIdentity } from "../contract";
import { callOperation } from "./call-operation";
import { IdentitySchema } from "./schemas";
import type { Connection, RequestOptions } from "./transport";

/**
 * `identities.getIdentity`, by its id or its external id: its meta and its shared rate limits. 404
 * `…:data:identity_not_found` before the permission check (both services), then 403 without `read_identity`.
 */
export async function getIdentity(
  connection: Connection,
  identity: string,
  options: RequestOptions = {},
): Promise<{ identity: KeyIdentity; requestId: string | null }> {
  const { data, requestId } = await callOperation(connection, GET_IDENTITY_PATH, { identity }, IdentitySchema, options);
  return { identity: data, requestId };
}
