import type { Database } from "better-sqlite3";
import * as v from "valibot";
import type { Pagination } from "../../src/lib/contract";
import type { PermissionRule } from "../auth/permissions";
import { pageAnswer } from "../http/answers";
import type { ApiDependencies } from "../http/api-env";
import type { BodySpec } from "../http/json-body";
import { operation } from "../http/operation";

/**
 * What permissions.listPermissions, permissions.listRoles and identities.listIdentities share: one body (limit,
 * cursor, search) and keyset pages by id, as apis.listKeys.
 */

const LIMIT_MAX = 100;

const LIST_SCHEMA = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.number("limit must be a number"),
      v.integer("limit must be a whole number"),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(LIMIT_MAX, `limit must be at most ${LIMIT_MAX}`),
    ),
  ),
  cursor: v.optional(
    v.pipe(
      v.string("cursor must be a string"),
      v.minLength(1, "cursor must not be empty"),
      v.maxLength(1024, "cursor must be at most 1024 characters"),
    ),
  ),
  search: v.optional(
    v.pipe(v.string("search must be a string"), v.maxLength(256, "search must be at most 256 characters")),
  ),
});

export const LIST: BodySpec<typeof LIST_SCHEMA> = {
  schema: LIST_SCHEMA,
  fixes: {
    limit: `Pass a whole number from 1 to ${LIMIT_MAX}, or leave limit out for ${LIMIT_MAX}.`,
    cursor: "Pass pagination.cursor from the previous page unchanged, or leave cursor out to start at the first page.",
    search: "Pass part of a name to find, or leave search out.",
  },
  example: '{"limit": 10}',
};

export type ListRequest = v.InferOutput<typeof LIST_SCHEMA>;

/** `%` and `_` in a search are the characters themselves, not LIKE's wildcards. */
export function containsPattern(search: string | undefined): string {
  const escaped = (search ?? "").trim().replace(/[\\%_]/g, (character) => `\\${character}`);
  return `%${escaped}%`;
}

/** One page of rows with an `id`, ordered by it: one row more than asked tells whether another page exists. */
function page<T extends { id: string }>(rows: T[], limit: number): { rows: T[]; pagination: Pagination } {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  const last = kept.at(-1)?.id;
  return {
    rows: kept,
    pagination: hasMore && last !== undefined ? { cursor: last, hasMore: true } : { hasMore: false },
  };
}

/** A list of the workspace's catalogue, declared. */
export interface PagedList<T extends { id: string }> {
  /** The rows after the cursor, ordered by id: at most `limit + 1`, the one more telling whether another page exists. */
  read: (db: Database, workspaceId: string, request: ListRequest & { limit: number }) => T[];
  /** What the root key must hold to list at all, checked before anything is read. */
  permission?: PermissionRule;
  /** What it must hold for the rows read (a 403 thrown), where that depends on them. */
  authorizeRows?: (permissions: string, rows: readonly T[], workspaceId: string) => void;
  toJson: (db: Database, workspaceId: string, row: T) => unknown;
}

/** A list operation of the workspace's catalogue: one page of `read`'s rows, each as `toJson` writes it. */
export function pagedList<T extends { id: string }>(deps: ApiDependencies, list: PagedList<T>) {
  const { permission } = list;
  return operation(deps, { body: LIST, ...(permission !== undefined && { permission: () => permission }) }, (c) => {
    const rootKey = c.get("rootKey");
    const request = c.req.valid("json");
    const limit = request.limit ?? LIMIT_MAX;
    const { data, pagination } = deps.store.read((db) => {
      const { rows, pagination } = page(list.read(db, rootKey.workspaceId, { ...request, limit }), limit);
      list.authorizeRows?.(rootKey.permissions, rows, rootKey.workspaceId);
      return { data: rows.map((row) => list.toJson(db, rootKey.workspaceId, row)), pagination };
    });
    return pageAnswer(c, data, pagination);
  });
}
