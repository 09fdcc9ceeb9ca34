import * as v from "valibot";
import { ADD_PERMISSIONS_PATH, REMOVE_PERMISSIONS_PATH, SET_PERMISSIONS_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { PermissionSchema, type Permission } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

const PATHS = { add: ADD_PERMISSIONS_PATH, remove: REMOVE_PERMISSIONS_PATH, set: SET_PERMISSIONS_PATH } as const;

/**
 * `keys.addPermissions` / `removePermissions` / `setPermissions`: a key's own permissions, by slug (the service
 * creates an unknown one when the root key may); answers what the key holds directly afterwards.
 */
export async function changeKeyPermissions(
  connection: Connection,
  keyId: string,
  change: keyof typeof PATHS,
  permissions: readonly string[],
  options: RequestOptions = {},
): Promise<{ permissions: Permission[]; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    PATHS[change],
    { keyId, permissions: [...permissions] },
    v.array(PermissionSchema),
    options,
  );
  return { permissions: data, requestId };
}
