import * as v from "valibot";
import { CREATE_IDENTITY_PATH } from "../contract";
import { callOperation } from "./call-operation";
import type { RatelimitInput } from "./key-fields";
import type { Connection, RequestOptions } from "./transport";

/** An identity's shared rate limits as sent: the services require `autoApply` here (a key's may leave it out). */
export type IdentityRatelimitInput = Required<RatelimitInput>;

export interface NewIdentity {
  externalId: string;
  meta?: Record<string, unknown>;
  ratelimits?: IdentityRatelimitInput[];
}

/**
 * `identities.createIdentity` (`identity.*.create_identity`): answers the new identity's id; 409
 * `…:data:identity_already_exists` for an external id the workspace has.
 */
export async function createIdentity(
  connection: Connection,
  identity: NewIdentity,
  options: RequestOptions = {},
): Promise<{ identityId: string; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    CREATE_IDENTITY_PATH,
    { ...identity },
    v.looseObject({ identityId: v.pipe(v.string(), v.minLength(1)) }),
    options,
  );
  return { identityId: data.identityId, requestId };
}
