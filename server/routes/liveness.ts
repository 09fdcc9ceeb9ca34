import { Hono } from "hono";
import { LIVENESS_PATH } from "../../src/lib/contract";
import { dataAnswer } from "../http/answers";
import type { ApiEnv } from "../http/api-env";

/** `GET /v2/liveness`: the app only exists once the database is open and migrated, so answering is being ready. */
export function livenessRoutes(): Hono<ApiEnv> {
  return new Hono<ApiEnv>().get(LIVENESS_PATH, (c) => dataAnswer(c, { message: "OK" }));
}
