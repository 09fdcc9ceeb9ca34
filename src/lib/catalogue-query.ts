import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import * as v from "valibot";
import { getPermission } from "./api/get-permission";
import { getRole } from "./api/get-role";
import { PermissionNameSchema } from "./api/key-fields";
import { listPermissions } from "./api/list-permissions";
import { listRoles } from "./api/list-roles";
import type { Connection } from "./api/transport";
import { LIST_PERMISSIONS_PATH, LIST_ROLES_PATH, rbacPermission } from "./contract";
import { queryKeys } from "./query-keys";
import type { SectionRead } from "./section-access";
import { readSection } from "./section-read";

/**
 * The workspace's catalogue of permissions and roles, as the pages of a search: the Authorization pages list it, the
 * key's Permissions and roles dialog and a role's permissions dialog pick from it. One query key per search, the
 * server's cursor for the next page; `search` "" lists everything.
 */

/** As many as one request lists: a page is one request. */
export const CATALOGUE_PAGE_SIZE = 100;

/**
 * How each list is read: what the Authorization section learns of the root key from its answers (src/lib/
 * section-access.ts), whichever page or pick list asked. The section is readable in part with either permission.
 */
export const PERMISSIONS_READ: SectionRead = {
  permissions: [rbacPermission("read_permission")],
  operation: LIST_PERMISSIONS_PATH,
};
export const ROLES_READ: SectionRead = { permissions: [rbacPermission("read_role")], operation: LIST_ROLES_PATH };

export function permissionPagesQueryOptions(connection: Connection, search: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.permissions.list(connection, search),
    queryFn: ({ pageParam, signal }) =>
      readSection(connection, "authorization", PERMISSIONS_READ, () =>
        listPermissions(connection, { cursor: pageParam, limit: CATALOGUE_PAGE_SIZE, search }, { signal }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.cursor,
  });
}

export function rolePagesQueryOptions(connection: Connection, search: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.roles.list(connection, search),
    queryFn: ({ pageParam, signal }) =>
      readSection(connection, "authorization", ROLES_READ, () =>
        listRoles(connection, { cursor: pageParam, limit: CATALOGUE_PAGE_SIZE, search }, { signal }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.cursor,
  });
}

/** What a search is worth asking the server: trimmed, at most the 256 characters the services take. */
export function catalogueSearch(text: string): string {
  return text.trim().slice(0, 256);
}

/** One role by its id or name, with its permissions: a role's page, and the roles a key holds (what they give it). */
export function roleQueryOptions(connection: Connection, role: string) {
  return queryOptions({
    queryKey: queryKeys.roles.detail(connection, role),
    queryFn: async ({ signal }) => (await getRole(connection, role, { signal })).role,
  });
}

/** One permission by its id or slug. */
export function permissionQueryOptions(connection: Connection, permission: string) {
  return queryOptions({
    queryKey: queryKeys.permissions.detail(connection, permission),
    queryFn: async ({ signal }) => (await getPermission(connection, permission, { signal })).permission,
  });
}

/**
 * What a text typed in a permission pick list may be: a new permission (a change that names a slug the workspace
 * lacks creates it, when the root key may create permissions), or why it cannot be one.
 */
export function newPermissionOffer(text: string): { label: string } | { problem: string } {
  const read = v.safeParse(PermissionNameSchema, text);
  return read.success ? { label: text } : { problem: read.issues[0].message };
}
