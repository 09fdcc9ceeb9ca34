import * as v from "valibot";
import { LIST_OVERRIDES_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { RatelimitOverrideSchema, type RatelimitOverride } from "./ratelimit-override";
import type { Connection, RequestOptions } from "./transport";

/** The most overrides `ratelimit.listOverrides` answers at once (the real handler's). */
export const LIST_OVERRIDES_LIMIT_MAX = 100;

/**
 * `ratelimit.listOverrides`: one page of a namespace's overrides (needs `ratelimit.*.read_override` or the namespace's
 * own). The namespace is found before the permission is checked: a 404 means it is not there, a 403 that it is.
 */
export async function listOverrides(
  connection: Connection,
  request: { namespace: string; cursor?: string | undefined; limit?: number },
  options: RequestOptions = {},
): Promise<{ overrides: RatelimitOverride[]; cursor: string | undefined; requestId: string | null }> {
  const { namespace, cursor, limit } = request;
  const { data, requestId, pagination } = await callOperation(
    connection,
    LIST_OVERRIDES_PATH,
    { namespace, ...(cursor !== undefined && { cursor }), ...(limit !== undefined && { limit }) },
    v.array(RatelimitOverrideSchema),
    options,
  );
  return {
    overrides: data.map(({ overrideId, identifier, limit: count, duration }) => ({
      overrideId,
      identifier,
      limit: count,
      duration,
    })),
    cursor: pagination?.hasMore ? pagination.cursor : undefined,
    requestId,
  };
}
