import { Hono } from "hono";
import {
  CREATE_PERMISSION_PATH,
  CREATE_ROLE_PATH,
  DELETE_PERMISSION_PATH,
  DELETE_ROLE_PATH,
  GET_PERMISSION_PATH,
  GET_ROLE_PATH,
  LIST_PERMISSIONS_PATH,
  LIST_ROLES_PATH,
  SET_ROLE_PERMISSIONS_PATH,
} from "../../src/lib/contract";
import type { ApiDependencies, ApiEnv } from "../http/api-env";
import { createPermission } from "./permissions/create-permission";
import { createRole } from "./permissions/create-role";
import { deletePermission } from "./permissions/delete-permission";
import { deleteRole } from "./permissions/delete-role";
import { getPermission } from "./permissions/get-permission";
import { getRole } from "./permissions/get-role";
import { listPermissions } from "./permissions/list-permissions";
import { listRoles } from "./permissions/list-roles";
import { setRolePermissions } from "./permissions/set-role-permissions";

/** The `permissions.*` operations, one line each: the workspace's permissions and roles, read and changed. */
export function permissionsRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  return new Hono<ApiEnv>()
    .post(LIST_PERMISSIONS_PATH, ...listPermissions(deps))
    .post(LIST_ROLES_PATH, ...listRoles(deps))
    .post(CREATE_PERMISSION_PATH, ...createPermission(deps))
    .post(GET_PERMISSION_PATH, ...getPermission(deps))
    .post(DELETE_PERMISSION_PATH, ...deletePermission(deps))
    .post(CREATE_ROLE_PATH, ...createRole(deps))
    .post(GET_ROLE_PATH, ...getRole(deps))
    .post(DELETE_ROLE_PATH, ...deleteRole(deps))
    .post(SET_ROLE_PERMISSIONS_PATH, ...setRolePermissions(deps));
}
