import * as v from "valibot";
import { CREATE_PERMISSION_PATH } from "../contract";
import { callOperation } from "./call-operation";
import type { Connection, RequestOptions } from "./transport";

export interface NewPermission {
  name: string;
  slug: string;
  description?: string | undefined;
}

/**
 * `permissions.createPermission` (needs `rbac.*.create_permission`): answers the new permission's id; 409
 * `permission_already_exists` for a slug the workspace has, in any case.
 */
export async function createPermission(
  connection: Connection,
  permission: NewPermission,
  options: RequestOptions = {},
): Promise<{ permissionId: string; requestId: string | null }> {
  const { description, ...rest } = permission;
  const { data, requestId } = await callOperation(
    connection,
    CREATE_PERMISSION_PATH,
    { ...rest, ...(description !== undefined && description !== "" && { description }) },
    v.looseObject({ permissionId: v.pipe(v.string(), v.minLength(1)) }),
    options,
  );
  return { permissionId: data.permissionId, requestId };
}
