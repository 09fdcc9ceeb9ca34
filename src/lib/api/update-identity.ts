import { UPDATE_IDENTITY_PATH, type KeyIdentity } from "../contract";
import { callOperation } from "./call-operation";
import type { IdentityRatelimitInput } from "./create-identity";
import { IdentitySchema } from "./schemas";
import type { Connection, RequestOptions } from "./transport";

/** What updateIdentity changes: each field given replaces the identity's (an empty object or list clears it). */
export interface IdentityUpdate {
  meta?: Record<string, unknown>;
  ratelimits?: IdentityRatelimitInput[];
}

/** `identities.updateIdentity` (`identity.*.update_identity`), by id or external id: answers the identity as it is now. */
export async function updateIdentity(
  connection: Connection,
  identity: string,
  changes: IdentityUpdate,
  options: RequestOptions = {},
): Promise<{ identity: KeyIdentity; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    UPDATE_IDENTITY_PATH,
    { identity, ...changes },
    IdentitySchema,
    options,
  );
  return { identity: data, requestId };
}
