import { Hono } from "hono";
import { GET_VERIFICATIONS_PATH } from "../../src/lib/contract";
import type { ApiEnv } from "../http/api-env";
import { getVerifications, type AnalyticsRouteDependencies } from "./analytics/get-verifications";

/** The `analytics.*` operations, one line each: SQL over the workspace's verifications (server/analytics/). */
export function analyticsRoutes(deps: AnalyticsRouteDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>().post(GET_VERIFICATIONS_PATH, ...getVerifications(deps));
}
