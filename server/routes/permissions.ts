import { Hono } from "hono";
import { LIST_PERMISSIONS_PATH, LIST_ROLES_PATH } from "../../src/lib/contract";
import type { ApiDependencies, ApiEnv } from "../http/api-env";
import { listPermissions } from "./permissions/list-permissions";
import { listRoles } from "./permissions/list-roles";

/** The `permissions.*` operations, one line each: the workspace's permissions and roles. */
export function permissionsRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>()
    .post(LIST_PERMISSIONS_PATH, ...listPermissions(deps))
    .post(LIST_ROLES_PATH, ...listRoles(deps));
}
