import * as v from "valibot";
import { SET_OVERRIDE_PATH } from "../contract";
import { callOperation } from "./call-operation";
import type { Connection, RequestOptions } from "./transport";

export interface OverrideInput {
  namespace: string;
  /** Who it applies to: an identifier, or a pattern with `*` wildcards (`team_*`). */
  identifier: string;
  /** Requests per window; 0 blocks. */
  limit: number;
  /** The window, ms (at least 1,000). */
  duration: number;
}

/**
 * `ratelimit.setOverride`: a new override, or the identifier's own one (its id kept) with this limit and window, in
 * force from the next limit on. Answers the override's id.
 */
export async function setOverride(
  connection: Connection,
  input: OverrideInput,
  options: RequestOptions = {},
): Promise<{ overrideId: string; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    SET_OVERRIDE_PATH,
    { ...input },
    v.looseObject({ overrideId: v.string() }),
    options,
  );
  return { overrideId: data.overrideId, requestId };
}
