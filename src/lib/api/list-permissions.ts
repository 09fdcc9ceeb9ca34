import * as v from "valibot";
import { LIST_PERMISSIONS_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { PermissionSchema, type Permission } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/** What a catalogue list takes: its page (`cursor`, `limit` 1–100) and `search`, part of an id, name, slug or description. */
export interface CatalogueListRequest {
  cursor?: string | undefined;
  limit?: number;
  search?: string | undefined;
}

/** The body of a catalogue list: an empty search is no search (the service would match everything anyway). */
export function catalogueListBody({ cursor, limit, search }: CatalogueListRequest): Record<string, unknown> {
  const text = search?.trim() ?? "";
  return {
    ...(cursor !== undefined && { cursor }),
    ...(limit !== undefined && { limit }),
    ...(text !== "" && { search: text }),
  };
}

/**
 * `permissions.listPermissions`: one page of the workspace's permissions, by id (needs `rbac.*.read_permission`);
 * `search` matches part of an id, name, slug or description, in any case.
 */
export async function listPermissions(
  connection: Connection,
  request: CatalogueListRequest = {},
  options: RequestOptions = {},
): Promise<{ permissions: Permission[]; cursor: string | undefined; requestId: string | null }> {
  const { data, requestId, pagination } = await callOperation(
    connection,
    LIST_PERMISSIONS_PATH,
    catalogueListBody(request),
    v.array(PermissionSchema),
    options,
  );
  return { permissions: data, cursor: pagination?.hasMore ? pagination.cursor : undefined, requestId };
}
