import { Hono } from "hono";
import {
  DELETE_OVERRIDE_PATH,
  GET_OVERRIDE_PATH,
  LIST_OVERRIDES_PATH,
  RATELIMIT_LIMIT_PATH,
  RATELIMIT_MULTI_LIMIT_PATH,
  SET_OVERRIDE_PATH,
} from "../../src/lib/contract";
import type { ApiDependencies, ApiEnv } from "../http/api-env";
import { createNamespaceLimiter } from "../ratelimit/limit";
import { deleteOverride } from "./ratelimit/delete-override";
import { getOverride } from "./ratelimit/get-override";
import { limit } from "./ratelimit/limit";
import { listOverrides } from "./ratelimit/list-overrides";
import { multiLimit } from "./ratelimit/multi-limit";
import { setOverride } from "./ratelimit/set-override";

/** The `ratelimit.*` operations, one line each; limit and multiLimit count on one limiter. */
export function ratelimitRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  const limiter = createNamespaceLimiter((work) => deps.store.read(work));
  return new Hono<ApiEnv>()
    .post(RATELIMIT_LIMIT_PATH, ...limit(deps, limiter))
    .post(RATELIMIT_MULTI_LIMIT_PATH, ...multiLimit(deps, limiter))
    .post(SET_OVERRIDE_PATH, ...setOverride(deps))
    .post(GET_OVERRIDE_PATH, ...getOverride(deps))
    .post(LIST_OVERRIDES_PATH, ...listOverrides(deps))
    .post(DELETE_OVERRIDE_PATH, ...deleteOverride(deps));
}
