import { Hono } from "hono";
import {
  ADD_PERMISSIONS_PATH,
  ADD_ROLES_PATH,
  CREATE_KEY_PATH,
  DELETE_KEY_PATH,
  GET_KEY_PATH,
  LIST_KEYS_PATH,
  MIGRATE_KEYS_PATH,
  REMOVE_PERMISSIONS_PATH,
  REMOVE_ROLES_PATH,
  REROLL_KEY_PATH,
  SET_PERMISSIONS_PATH,
  SET_ROLES_PATH,
  UPDATE_CREDITS_PATH,
  UPDATE_KEY_PATH,
  VERIFY_KEY_PATH,
  WHOAMI_PATH,
} from "../../src/lib/contract";
import type { ApiDependencies, ApiEnv } from "../http/api-env";
import { createKey } from "./keys/create-key";
import { deleteKey } from "./keys/delete-key";
import { getKey } from "./keys/get-key";
import { addPermissions, removePermissions, setPermissions } from "./keys/key-permissions";
import { addRoles, removeRoles, setRoles } from "./keys/key-roles";
import { keysListKeys } from "./keys/list-keys";
import { migrateKeys } from "./keys/migrate-keys";
import { rerollKey } from "./keys/reroll-key";
import { updateCredits } from "./keys/update-credits";
import { updateKey } from "./keys/update-key";
import { verifyKey } from "./keys/verify-key";
import { whoami } from "./keys/whoami";

/** The `keys.*` operations, one line each: its path (src/lib/contract.ts) and its handlers (routes/keys/). */
export function keysRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>()
    .post(LIST_KEYS_PATH, ...keysListKeys(deps))
    .post(GET_KEY_PATH, ...getKey(deps))
    .post(WHOAMI_PATH, ...whoami(deps))
    .post(VERIFY_KEY_PATH, ...verifyKey(deps))
    .post(CREATE_KEY_PATH, ...createKey(deps))
    .post(UPDATE_KEY_PATH, ...updateKey(deps))
    .post(UPDATE_CREDITS_PATH, ...updateCredits(deps))
    .post(REROLL_KEY_PATH, ...rerollKey(deps))
    .post(DELETE_KEY_PATH, ...deleteKey(deps))
    .post(ADD_PERMISSIONS_PATH, ...addPermissions(deps))
    .post(REMOVE_PERMISSIONS_PATH, ...removePermissions(deps))
    .post(SET_PERMISSIONS_PATH, ...setPermissions(deps))
    .post(ADD_ROLES_PATH, ...addRoles(deps))
    .post(REMOVE_ROLES_PATH, ...removeRoles(deps))
    .post(SET_ROLES_PATH, ...setRoles(deps))
    .post(MIGRATE_KEYS_PATH, ...migrateKeys(deps));
}
