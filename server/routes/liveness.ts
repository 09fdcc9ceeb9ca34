import type { Context } from "hono";
import type { ApiEnv } from "../http/api-env";
import { okJson } from "../http/errors";

/** `GET /v2/liveness`: the app only exists once the database is open and migrated, so answering is being ready. */
export function livenessHandler(c: Context<ApiEnv>): Response {
  return okJson(JSON.stringify({ meta: { requestId: c.get("requestId") }, data: { message: "OK" } }));
}
