import { GET_ROLE_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { RoleSchema, type Role } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/**
 * `permissions.getRole` by id or name (needs `rbac.*.read_role`, checked first): the role with its permissions (none:
 * no `permissions` at all, as the services answer it). 404 `role_not_found`.
 */
export async function getRole(
  connection: Connection,
  role: string,
  options: RequestOptions = {},
): Promise<{ role: Role; requestId: string | null }> {
  const { data, requestId } = await callOperation(connection, GET_ROLE_PATH, { role }, RoleSchema, options);
  return { role: data, requestId };
}
