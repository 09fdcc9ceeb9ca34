import { DELETE_ROLE_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { EmptyDataSchema } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/**
 * `permissions.deleteRole` by id or name (needs `rbac.*.delete_role`, checked before the lookup): for good; every key
 * holding it loses it, and the permissions it gave, at once. 404 `role_not_found`.
 */
export async function deleteRole(
  connection: Connection,
  role: string,
  options: RequestOptions = {},
): Promise<{ requestId: string | null }> {
  const { requestId } = await callOperation(connection, DELETE_ROLE_PATH, { role }, EmptyDataSchema, options);
  return { requestId };
}
