import { Hono } from "hono";
import { GET_IDENTITY_PATH, LIST_IDENTITIES_PATH } from "../../src/lib/contract";
import type { ApiDependencies, ApiEnv } from "../http/api-env";
import { getIdentity } from "./identities/get-identity";
import { listIdentities } from "./identities/list-identities";

/** The `identities.*` operations, one line each. */
export function identitiesRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>()
    .post(LIST_IDENTITIES_PATH, ...listIdentities(deps))
    .post(GET_IDENTITY_PATH, ...getIdentity(deps));
}
