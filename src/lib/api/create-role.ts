import * as v from "valibot";
import { CREATE_ROLE_PATH } from "../contract";
import { callOperation } from "./call-operation";
import type { Connection, RequestOptions } from "./transport";

export interface NewRole {
  name: string;
  description?: string | undefined;
  /** Slugs: a slug the workspace lacks is created with the role, when the root key may create permissions. */
  permissions?: readonly string[] | undefined;
}

/**
 * `permissions.createRole` (needs `rbac.*.create_role`; with permissions also `rbac.*.add_permission_to_role`, and
 * `rbac.*.create_permission` for a slug the workspace lacks): answers the new role's id; 409 `role_already_exists`.
 */
export async function createRole(
  connection: Connection,
  role: NewRole,
  options: RequestOptions = {},
): Promise<{ roleId: string; requestId: string | null }> {
  const { name, description, permissions = [] } = role;
  const { data, requestId } = await callOperation(
    connection,
    CREATE_ROLE_PATH,
    {
      name,
      ...(description !== undefined && description !== "" && { description }),
      ...(permissions.length > 0 && { permissions: [...permissions] }),
    },
    v.looseObject({ roleId: v.pipe(v.string(), v.minLength(1)) }),
    options,
  );
  return { roleId: data.roleId, requestId };
}
