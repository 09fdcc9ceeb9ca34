import * as v from "valibot";
import { SET_ROLE_PERMISSIONS_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { PermissionSchema, type Permission } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/**
 * `permissions.setRolePermissions` (needs `rbac.*.add_permission_to_role` and `rbac.*.remove_permission_from_role`,
 * and `rbac.*.create_permission` for a slug the workspace lacks): the role's permissions become exactly these (an
 * empty list clears them); the keys holding the role hold them from their next verification. Answers them.
 */
export async function setRolePermissions(
  connection: Connection,
  roleId: string,
  permissions: readonly string[],
  options: RequestOptions = {},
): Promise<{ permissions: Permission[]; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    SET_ROLE_PERMISSIONS_PATH,
    { roleId, permissions: [...permissions] },
    v.array(PermissionSchema),
    options,
  );
  return { permissions: data, requestId };
}
