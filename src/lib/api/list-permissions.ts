import * as v from "valibot";
import { LIST_PERMISSIONS_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { PermissionSchema, type Permission } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/** `permissions.listPermissions`: one page of the workspace's permissions (needs `rbac.*.read_permission`). */
export async function listPermissions(
  connection: Connection,
  request: { cursor?: string; limit?: number } = {},
  options: RequestOptions = {},
): Promise<{ permissions: Permission[]; cursor: string | undefined; requestId: string | null }> {
  const { data, requestId, pagination } = await callOperation(
    connection,
    LIST_PERMISSIONS_PATH,
    { ...request },
    v.array(PermissionSchema),
    options,
  );
  return { permissions: data, cursor: pagination?.hasMore ? pagination.cursor : undefined, requestId };
}
