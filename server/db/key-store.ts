import type { Database, Statement } from "better-sqlite3";

/** What a request needs to know about the root key it carries. */
export interface RootKeyRecord {
  id: string;
  workspaceId: string;
  /** The stored JSON array, parsed (and cached) by permissions.ts. */
  permissions: string;
  enabled: boolean;
  ratelimit: { limit: number; windowMs: number } | null;
}

export interface ListKeysQuery {
  workspaceId: string;
  apiId?: string;
  externalId?: string;
  /** Keyset cursor: only keys whose id sorts after it. */
  after?: string;
  limit: number;
}

/**
 * A listed key as stored, in column order: raw rows skip building an object per key, and `meta` stays the
 * JSON text it is stored as (the schema only admits a JSON object there).
 */
export type KeyRow = [
  keyId: string,
  name: string,
  start: string,
  enabled: 0 | 1,
  createdAt: number,
  expires: number | null,
  meta: string | null,
];

export interface KeyPage {
  rows: KeyRow[];
  hasMore: boolean;
}

/** The request path's reads, prepared once per database. */
export interface KeyStore {
  /** The unrevoked root key with this secret hash. */
  findRootKey(hash: string): RootKeyRecord | undefined;
  apiBelongsTo(apiId: string, workspaceId: string): boolean;
  listKeys(query: ListKeysQuery): KeyPage;
  /**
   * SQLite's `data_version`: it changes whenever another connection (the admin CLI) commits. The server's
   * own connection never writes, so an unchanged value means every read would answer the same.
   */
  dataVersion(): number;
}

interface RootKeyRow {
  id: string;
  workspace_id: string;
  permissions: string;
  enabled: number;
  ratelimit_limit: number | null;
  ratelimit_window_ms: number | null;
}

const KEY_COLUMNS = "id, name, start, enabled, created_at, expires, meta";
// "" sorts before every id, so a first page is the same index range scan as any other.
const BEFORE_ALL_IDS = "";

export function createKeyStore(db: Database): KeyStore {
  const rootKeyByHash = db.prepare<[string], RootKeyRow>(
    `SELECT id, workspace_id, permissions, enabled, ratelimit_limit, ratelimit_window_ms
       FROM root_keys WHERE hash = ? AND revoked_at IS NULL`,
  );
  const dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
  const apiInWorkspace = db
    .prepare<[string, string], number>("SELECT 1 FROM apis WHERE id = ? AND workspace_id = ?")
    .pluck();

  type PageArgs = [scope: string, after: string, limit: number];
  type FilteredPageArgs = [scope: string, externalId: string, after: string, limit: number];
  const byWorkspace = db
    .prepare<PageArgs, KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys WHERE workspace_id = ? AND id > ? ORDER BY id LIMIT ?`)
    .raw();
  const byApi = db
    .prepare<PageArgs, KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys WHERE api_id = ? AND id > ? ORDER BY id LIMIT ?`)
    .raw();
  const byWorkspaceAndExternalId = db
    .prepare<FilteredPageArgs, KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM keys WHERE workspace_id = ? AND external_id = ? AND id > ? ORDER BY id LIMIT ?`,
    )
    .raw();
  const byApiAndExternalId = db
    .prepare<FilteredPageArgs, KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM keys WHERE api_id = ? AND external_id = ? AND id > ? ORDER BY id LIMIT ?`,
    )
    .raw();

  function pageRows(query: ListKeysQuery): KeyRow[] {
    const after = query.after ?? BEFORE_ALL_IDS;
    // One row more than asked tells whether another page exists.
    const fetch = query.limit + 1;
    const scope = query.apiId ?? query.workspaceId;
    if (query.externalId === undefined) {
      const statement: Statement<PageArgs, KeyRow> = query.apiId === undefined ? byWorkspace : byApi;
      return statement.all(scope, after, fetch);
    }
    const statement = query.apiId === undefined ? byWorkspaceAndExternalId : byApiAndExternalId;
    return statement.all(scope, query.externalId, after, fetch);
  }

  return {
    findRootKey(hash) {
      const row = rootKeyByHash.get(hash);
      if (row === undefined) return undefined;
      return {
        id: row.id,
        workspaceId: row.workspace_id,
        permissions: row.permissions,
        enabled: row.enabled === 1,
        ratelimit:
          row.ratelimit_limit !== null && row.ratelimit_window_ms !== null
            ? { limit: row.ratelimit_limit, windowMs: row.ratelimit_window_ms }
            : null,
      };
    },
    apiBelongsTo(apiId, workspaceId) {
      return apiInWorkspace.get(apiId, workspaceId) === 1;
    },
    dataVersion() {
      return dataVersion.get() ?? 0;
    },
    listKeys(query) {
      const rows = pageRows(query);
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.length = query.limit;
      return { rows, hasMore };
    },
  };
}
