import { Hono } from "hono";
import { GET_RATELIMITS_PATH, GET_VERIFICATIONS_PATH } from "../../src/lib/contract";
import type { ApiEnv } from "../http/api-env";
import type { AnalyticsRouteDependencies } from "./analytics/analytics-query";
import { getRatelimits } from "./analytics/get-ratelimits";
import { getVerifications } from "./analytics/get-verifications";

/**
 * The `analytics.*` operations, one line each: SQL over the workspace's verifications, or its rate-limit decisions
 * (server/analytics/).
 */
export function analyticsRoutes(deps: AnalyticsRouteDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>()
    .post(GET_VERIFICATIONS_PATH, ...getVerifications(deps))
    .post(GET_RATELIMITS_PATH, ...getRatelimits(deps));
}
