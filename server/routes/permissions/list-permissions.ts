import type { Context } from "hono";
import type { Database } from "better-sqlite3";
import * as v from "valibot";
import type { ApiEnv } from "../../http/api-env";
import { authenticateRootKey, type AuthDependencies } from "../../auth/root-key";
import { ChangeRefused } from "../../http/api-refusal";
import { parsePermissionList, permissionRows, type PermissionRow } from "../../db/rbac";
import { okJson } from "../../http/errors";
import { resources, type PermissionRule } from "../../auth/permissions";
import { applyRead, dataAnswer, requirePermissions } from "../change";
import { readValidBody, type BodySpec } from "../../http/json-body";

/**
 * permissions.listPermissions, permissions.listRoles, identities.listIdentities and identities.getIdentity: what a
 * dashboard offers as choices when it changes a key. Lists are keyset pages by id, as apis.listKeys.
 */

const LIMIT_MAX = 100;
const READ_PERMISSION = "rbac.*.read_permission";
const READ_ROLE = "rbac.*.read_role";
const READ_ANY_IDENTITY = "identity.*.read_identity";

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

const LIST: BodySpec<typeof LIST_SCHEMA> = {
  schema: LIST_SCHEMA,
  fixes: {
    limit: `Pass a whole number from 1 to ${LIMIT_MAX}, or leave limit out for ${LIMIT_MAX}.`,
    cursor: "Pass pagination.cursor from the previous page unchanged, or leave cursor out to start at the first page.",
    search: "Pass part of a name to find, or leave search out.",
  },
  example: '{"limit": 10}',
};

type ListRequest = v.InferOutput<typeof LIST_SCHEMA>;

/** `%` and `_` in a search are the characters themselves, not LIKE's wildcards. */
function containsPattern(search: string | undefined): string {
  const escaped = (search ?? "").trim().replace(/[\\%_]/g, (character) => `\\${character}`);
  return `%${escaped}%`;
}

/** One page of rows with an `id`, ordered by it: one row more than asked tells whether another page exists. */
function page<T extends { id: string }>(
  rows: T[],
  limit: number,
): { rows: T[]; pagination: { cursor?: string; hasMore: boolean } } {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  const last = kept.at(-1)?.id;
  return {
    rows: kept,
    pagination: hasMore && last !== undefined ? { cursor: last, hasMore: true } : { hasMore: false },
  };
}

function pageAnswer(c: Context<ApiEnv>, data: unknown, pagination: { cursor?: string; hasMore: boolean }): Response {
  return okJson(JSON.stringify({ meta: { requestId: c.get("requestId") }, data, pagination }));
}

function listHandler<T extends { id: string }>(
  deps: AuthDependencies,
  read: (db: Database, workspaceId: string, request: ListRequest & { limit: number }) => T[],
  authorize: (permissions: string, rows: readonly T[], workspaceId: string) => void,
  toJson: (db: Database, workspaceId: string, row: T) => unknown,
) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, LIST);
    if (!body.ok) return body.response;
    const limit = body.value.limit ?? LIMIT_MAX;

    const result = applyRead(c, deps.store, (db) => {
      const { rows, pagination } = page(read(db, rootKey.workspaceId, { ...body.value, limit }), limit);
      authorize(rootKey.permissions, rows, rootKey.workspaceId);
      return { data: rows.map((row) => toJson(db, rootKey.workspaceId, row)), pagination };
    });
    if (!result.ok) return result.response;
    return pageAnswer(c, result.value.data, result.value.pagination);
  };
}

/** `POST /v2/permissions.listPermissions` (`rbac.*.read_permission`): `search` finds part of an id, name, slug or description. */
export function listPermissionsHandler(deps: AuthDependencies) {
  return listHandler<DescribedRow<PermissionRow>>(
    deps,
    (db, workspaceId, { cursor, search, limit }) =>
      db
        .prepare<{ workspaceId: string; cursor: string; pattern: string; limit: number }, DescribedRow<PermissionRow>>(
          `SELECT id, name, slug, description FROM permissions
            WHERE workspace_id = :workspaceId AND id > :cursor
              AND (id LIKE :pattern ESCAPE '\\' OR name LIKE :pattern ESCAPE '\\' OR slug LIKE :pattern ESCAPE '\\'
                   OR description LIKE :pattern ESCAPE '\\')
            ORDER BY id LIMIT :limit`,
        )
        .all({ workspaceId, cursor: cursor ?? "", pattern: containsPattern(search), limit: limit + 1 }),
    (permissions) => requirePermissions(permissions, { oneOfEach: [[READ_PERMISSION]] }),
    (_db, _workspaceId, { description, ...row }) => withDescription(row, description),
  );
}

type DescribedRow<T> = T & { description: string | null };

/** A row with its description, left out when it has none (as the real service omits an empty one). */
function withDescription<T extends object>(row: T, description: string | null): T & { description?: string } {
  return description === null || description === "" ? row : { ...row, description };
}

interface RoleListRow {
  id: string;
  name: string;
  description: string | null;
  permissions: string;
}

/** `POST /v2/permissions.listRoles` (`rbac.*.read_role`): each role with its permissions; `search` finds part of an id, name or description. */
export function listRolesHandler(deps: AuthDependencies) {
  return listHandler<RoleListRow>(
    deps,
    (db, workspaceId, { cursor, search, limit }) =>
      db
        .prepare<{ workspaceId: string; cursor: string; pattern: string; limit: number }, RoleListRow>(
          `SELECT id, name, description, permissions FROM roles
            WHERE workspace_id = :workspaceId AND id > :cursor
              AND (id LIKE :pattern ESCAPE '\\' OR name LIKE :pattern ESCAPE '\\' OR description LIKE :pattern ESCAPE '\\')
            ORDER BY id LIMIT :limit`,
        )
        .all({ workspaceId, cursor: cursor ?? "", pattern: containsPattern(search), limit: limit + 1 }),
    (permissions) => requirePermissions(permissions, { oneOfEach: [[READ_ROLE]] }),
    (db, workspaceId, row) => {
      const rolePermissions = permissionRows(db, workspaceId, parsePermissionList(row.permissions));
      const role = withDescription({ id: row.id, name: row.name }, row.description);
      return rolePermissions.length === 0 ? role : { ...role, permissions: rolePermissions };
    },
  );
}

interface IdentityRow {
  id: string;
  externalId: string;
  meta: string | null;
}

interface IdentityRateLimitRow {
  id: string;
  name: string;
  limit: number;
  duration: number;
  autoApply: number;
}

function identityJson(db: Database, row: IdentityRow): object {
  const limits = db
    .prepare<[string], IdentityRateLimitRow>(
      `SELECT id, name, "limit", duration_ms AS duration, auto_apply AS autoApply FROM identity_ratelimits WHERE identity_id = ? ORDER BY name`,
    )
    .all(row.id)
    .map((limit) => ({ ...limit, autoApply: limit.autoApply === 1 }));
  // meta is stored as JSON text of an object only (the table checks it).
  const meta: unknown = row.meta === null ? undefined : JSON.parse(row.meta);
  return {
    id: row.id,
    externalId: row.externalId,
    ...(meta !== undefined && { meta }),
    ...(limits.length > 0 && { ratelimits: limits }),
  };
}

/** `identity.*.read_identity`, the identity's own, or the URN of any identity of any project (as the real service). */
function readIdentityRule(workspaceId: string, identityId: string): PermissionRule {
  return {
    oneOfEach: [[READ_ANY_IDENTITY, `identity.${identityId}.read_identity`]],
    resource: [resources.anyIdentity(workspaceId, "read_identity")],
  };
}

/** `POST /v2/identities.listIdentities`: every identity listed needs `identity.*.read_identity` or its own; `search` finds part of an id or external id. */
export function listIdentitiesHandler(deps: AuthDependencies) {
  return listHandler<IdentityRow>(
    deps,
    (db, workspaceId, { cursor, search, limit }) =>
      db
        .prepare<{ workspaceId: string; cursor: string; pattern: string; limit: number }, IdentityRow>(
          `SELECT id, external_id AS externalId, meta FROM identities
            WHERE workspace_id = :workspaceId AND deleted_at IS NULL AND id > :cursor
              AND (id LIKE :pattern ESCAPE '\\' OR external_id LIKE :pattern ESCAPE '\\')
            ORDER BY id LIMIT :limit`,
        )
        .all({ workspaceId, cursor: cursor ?? "", pattern: containsPattern(search), limit: limit + 1 }),
    (permissions, rows, workspaceId) => {
      for (const row of rows) requirePermissions(permissions, readIdentityRule(workspaceId, row.id));
    },
    (db, _workspaceId, row) => identityJson(db, row),
  );
}

const GET_IDENTITY_SCHEMA = v.strictObject({
  identity: v.pipe(v.string("identity is required and must be a string"), v.minLength(1, "identity must not be empty")),
});

const GET_IDENTITY: BodySpec<typeof GET_IDENTITY_SCHEMA> = {
  schema: GET_IDENTITY_SCHEMA,
  fixes: { identity: "Pass the identity's id (id_…) or its external id." },
  example: '{"identity": "user_123"}',
};

/** `POST /v2/identities.getIdentity`: by id or external id; 404 before the permission check, as the real service. */
export function getIdentityHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, GET_IDENTITY);
    if (!body.ok) return body.response;
    const { identity } = body.value;

    const result = applyRead(c, deps.store, (db) => {
      const row = db
        .prepare<[string, string, string], IdentityRow>(
          "SELECT id, external_id AS externalId, meta FROM identities WHERE workspace_id = ? AND (id = ? OR external_id = ?) AND deleted_at IS NULL",
        )
        .get(rootKey.workspaceId, identity, identity);
      if (row === undefined)
        throw new ChangeRefused("err:svc:data:identity_not_found", "This identity does not exist.");
      requirePermissions(rootKey.permissions, readIdentityRule(rootKey.workspaceId, row.id));
      return identityJson(db, row);
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, result.value);
  };
}
