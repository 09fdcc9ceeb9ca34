import type { Context } from "hono";
import type { ApiEnv } from "../api-env";
import { JSON_HEADERS } from "../errors";

/** `GET /v2/liveness`: the app only exists once the database is open and migrated, so answering is being ready. */
export function livenessHandler(c: Context<ApiEnv>): Response {
  return c.body(JSON.stringify({ meta: { requestId: c.get("requestId") }, data: { message: "OK" } }), 200, JSON_HEADERS);
}
