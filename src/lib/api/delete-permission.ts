import { DELETE_PERMISSION_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { EmptyDataSchema } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/**
 * `permissions.deletePermission` by id or slug (needs `rbac.*.delete_permission`, checked before the lookup): for
 * good; every key and role holding it loses it at once. 404 `permission_not_found`.
 */
export async function deletePermission(
  connection: Connection,
  permission: string,
  options: RequestOptions = {},
): Promise<{ requestId: string | null }> {
  const { requestId } = await callOperation(
    connection,
    DELETE_PERMISSION_PATH,
    { permission },
    EmptyDataSchema,
    options,
  );
  return { requestId };
}
