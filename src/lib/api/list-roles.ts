import * as v from "valibot";
import { LIST_ROLES_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { RoleSchema, type Role } from "./key-changes";
import { catalogueListBody, type CatalogueListRequest } from "./list-permissions";
import type { Connection, RequestOptions } from "./transport";

/**
 * `permissions.listRoles`: one page of the workspace's roles, by id, each with all its permissions (needs
 * `rbac.*.read_role`); `search` matches part of an id, name or description, in any case.
 */
export async function listRoles(
  connection: Connection,
  request: CatalogueListRequest = {},
  options: RequestOptions = {},
): Promise<{ roles: Role[]; cursor: string | undefined; requestId: string | null }> {
  const { data, requestId, pagination } = await callOperation(
    connection,
    LIST_ROLES_PATH,
    catalogueListBody(request),
    v.array(RoleSchema),
    options,
  );
  return { roles: data, cursor: pagination?.hasMore ? pagination.cursor : undefined, requestId };
}
