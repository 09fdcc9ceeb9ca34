import * as v from "valibot";
import type { AnalyticsOperation } from "../analytics-query";
import { GET_RATELIMITS_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { PlainObject } from "./schemas";
import type { Connection, RequestOptions } from "./transport";

/**
 * `analytics.getRatelimits`: SQL over the rate-limit decision tables (`ratelimits_v1`, `ratelimits_per_*_v1`);
 * `data` is the rows. Needs `ratelimit.*.read_analytics`, or a namespace's own (which reads that namespace's rows).
 */
export async function getRatelimits(
  connection: Connection,
  query: string,
  options: RequestOptions = {},
): Promise<{ rows: Record<string, unknown>[]; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    GET_RATELIMITS_PATH,
    { query },
    v.array(PlainObject),
    options,
  );
  return { rows: data, requestId };
}

/** For runAnalytics: a query over the rate-limit decisions. */
export const RATELIMIT_ANALYTICS: AnalyticsOperation = { run: getRatelimits, path: GET_RATELIMITS_PATH };
