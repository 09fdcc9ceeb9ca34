import * as v from "valibot";
import { LIST_ROLES_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { RoleSchema, type Role } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/** `permissions.listRoles`: one page of the workspace's roles with their permissions (needs `rbac.*.read_role`). */
export async function listRoles(
  connection: Connection,
  request: { cursor?: string; limit?: number } = {},
  options: RequestOptions = {},
): Promise<{ roles: Role[]; cursor: string | undefined; requestId: string | null }> {
  const { data, requestId, pagination } = await callOperation(
    connection,
    LIST_ROLES_PATH,
    { ...request },
    v.array(RoleSchema),
    options,
  );
  return { roles: data, cursor: pagination?.hasMore ? pagination.cursor : undefined, requestId };
}
