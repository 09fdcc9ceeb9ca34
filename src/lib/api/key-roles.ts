import * as v from "valibot";
import { ADD_ROLES_PATH, REMOVE_ROLES_PATH, SET_ROLES_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { RoleSchema, type Role } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

const PATHS = { add: ADD_ROLES_PATH, remove: REMOVE_ROLES_PATH, set: SET_ROLES_PATH } as const;

/** `keys.addRoles` / `removeRoles` / `setRoles`, by role name; answers the key's roles afterwards. */
export async function changeKeyRoles(
  connection: Connection,
  keyId: string,
  change: keyof typeof PATHS,
  roles: readonly string[],
  options: RequestOptions = {},
): Promise<{ roles: Role[]; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    PATHS[change],
    { keyId, roles: [...roles] },
    v.array(RoleSchema),
    options,
  );
  return { roles: data, requestId };
}
