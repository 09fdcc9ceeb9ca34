import * as v from "valibot";
import { LIST_IDENTITIES_PATH, type KeyIdentity } from "../contract";
import { callOperation } from "./call-operation";
import { IdentitySchema } from "./schemas";
import type { Connection, RequestOptions } from "./transport";

export interface IdentitiesPage {
  identities: KeyIdentity[];
  /** Where the next page starts; undefined after the last. */
  cursor: string | undefined;
  requestId: string | null;
}

/**
 * `identities.listIdentities`: one page of the workspace's identities, ordered by id. `search` is matched by the
 * server, case-insensitively, as part of an id or an external id (both services). Each identity listed needs
 * `identity.*.read_identity` or its own read permission: one the root key may not read refuses the whole page (403).
 */
export async function listIdentities(
  connection: Connection,
  request: { cursor?: string | undefined; limit?: number; search?: string | undefined } = {},
  options: RequestOptions = {},
): Promise<IdentitiesPage> {
  const body = {
    ...(request.limit !== undefined && { limit: request.limit }),
    ...(request.cursor !== undefined && { cursor: request.cursor }),
    ...(request.search !== undefined && request.search !== "" && { search: request.search }),
  };
  const { data, requestId, pagination } = await callOperation(
    connection,
    LIST_IDENTITIES_PATH,
    body,
    v.array(IdentitySchema),
    options,
  );
  return { identities: data, cursor: pagination?.hasMore ? pagination.cursor : undefined, requestId };
}
