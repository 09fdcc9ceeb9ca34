import { Hono } from "hono";
import {
  CREATE_IDENTITY_PATH,
  DELETE_IDENTITY_PATH,
  GET_IDENTITY_PATH,
  LIST_IDENTITIES_PATH,
  UPDATE_IDENTITY_PATH,
} from "../../src/lib/contract";
import type { ApiDependencies, ApiEnv } from "../http/api-env";
import { createIdentity } from "./identities/create-identity";
import { deleteIdentity } from "./identities/delete-identity";
import { getIdentity } from "./identities/get-identity";
import { listIdentities } from "./identities/list-identities";
import { updateIdentity } from "./identities/update-identity";

/** The `identities.*` operations, one line each. */
export function identitiesRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>()
    .post(LIST_IDENTITIES_PATH, ...listIdentities(deps))
    .post(GET_IDENTITY_PATH, ...getIdentity(deps))
    .post(CREATE_IDENTITY_PATH, ...createIdentity(deps))
    .post(UPDATE_IDENTITY_PATH, ...updateIdentity(deps))
    .post(DELETE_IDENTITY_PATH, ...deleteIdentity(deps));
}
