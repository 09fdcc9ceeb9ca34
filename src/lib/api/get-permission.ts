import { GET_PERMISSION_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { PermissionSchema, type Permission } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/** `permissions.getPermission` by id or slug (needs `rbac.*.read_permission`, checked first): 404 `permission_not_found`. */
export async function getPermission(
  connection: Connection,
  permission: string,
  options: RequestOptions = {},
): Promise<{ permission: Permission; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    GET_PERMISSION_PATH,
    { permission },
    PermissionSchema,
    options,
  );
  return { permission: data, requestId };
}
