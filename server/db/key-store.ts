import type { Database, Statement } from "better-sqlite3";
import { createVersionedCache } from "./versioned-cache";
import { createGroupCommit } from "./group-commit";

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
 * A key as stored, with its identity, rate limits and roles' permissions joined in. JSON columns (`meta`,
 * `permissions`, `roles`, `identity_meta`, `ratelimits`, `identity_ratelimits`) stay JSON text: a page is written
 * straight from it.
 */
export interface KeyRecord {
  id: string;
  workspace_id: string;
  api_id: string;
  name: string;
  start: string;
  enabled: 0 | 1;
  created_at: number;
  updated_at: number | null;
  last_used_at: number | null;
  expires: number | null;
  meta: string | null;
  credits_remaining: number | null;
  refill_interval: "daily" | "monthly" | null;
  refill_amount: number | null;
  refill_day: number | null;
  last_refill_at: number | null;
  /** The key's effective permissions: its own and those of its roles (JSON array, sorted when it has roles). */
  permissions: string;
  roles: string;
  external_id: string | null;
  identity_id: string | null;
  identity_meta: string | null;
  /** JSON array of `{id, name, limit, duration, autoApply}`, ordered by name; `[]` when none. */
  ratelimits: string;
  /** The identity's rate limits, shared by its keys: the same shape; `[]` when none or no identity. */
  identity_ratelimits: string;
}

/** A row of KEY_SELECT as better-sqlite3 returns it raw: in column order, which is twice as fast as its objects. */
type KeyRow = [
  id: string,
  workspace_id: string,
  api_id: string,
  name: string,
  start: string,
  enabled: 0 | 1,
  created_at: number,
  updated_at: number | null,
  last_used_at: number | null,
  expires: number | null,
  meta: string | null,
  credits_remaining: number | null,
  refill_interval: "daily" | "monthly" | null,
  refill_amount: number | null,
  refill_day: number | null,
  last_refill_at: number | null,
  permissions: string,
  roles: string,
  external_id: string | null,
  identity_id: string | null,
  identity_meta: string | null,
  ratelimits: string,
  identity_ratelimits: string,
];

/** A row of KEY_TO_VERIFY: KEY_SELECT's columns, then the key's API's IP whitelist. */
type KeyToVerifyRow = [...KeyRow, ipWhitelist: string | null];

function toRecord(row: KeyRow | KeyToVerifyRow): KeyRecord {
  const [
    id,
    workspace_id,
    api_id,
    name,
    start,
    enabled,
    created_at,
    updated_at,
    last_used_at,
    expires,
    meta,
    credits_remaining,
    refill_interval,
    refill_amount,
    refill_day,
    last_refill_at,
    permissions,
    roles,
    external_id,
    identity_id,
    identity_meta,
    ratelimits,
    identity_ratelimits,
  ] = row;
  return {
    id,
    workspace_id,
    api_id,
    name,
    start,
    enabled,
    created_at,
    updated_at,
    last_used_at,
    expires,
    meta,
    credits_remaining,
    refill_interval,
    refill_amount,
    refill_day,
    last_refill_at,
    permissions,
    roles,
    external_id,
    identity_id,
    identity_meta,
    ratelimits,
    identity_ratelimits,
  };
}

export interface KeyPage {
  rows: KeyRecord[];
  hasMore: boolean;
}

/** What one verification changes: the key's usage columns, and the row analytics reads. */
export interface VerificationWrite {
  keyId: string;
  lastUsedAt: number;
  creditsRemaining: number | null;
  lastRefillAt: number | null;
  record: {
    requestId: string;
    time: number;
    workspaceId: string;
    keySpaceId: string;
    keyId: string;
    externalId: string;
    outcome: string;
    region: string;
    tags: string;
    spentCredits: number;
  };
}

/** The request path's reads and writes, prepared once per database. */
export interface KeyStore {
  /** The unrevoked root key with this secret hash. */
  findRootKey(hash: string): RootKeyRecord | undefined;
  apiBelongsTo(apiId: string, workspaceId: string): boolean;
  listKeys(query: ListKeysQuery): KeyPage;
  findKeyById(keyId: string, workspaceId: string): KeyRecord | undefined;
  findKeyByHash(hash: string): KeyRecord | undefined;
  /**
   * What a verification reads, in one statement: the key with this secret hash, and its API's IP whitelist as stored
   * (comma-separated addresses; null when it has none).
   */
  findKeyToVerify(hash: string): { key: KeyRecord; ipWhitelist: string | null } | undefined;
  /**
   * Runs `work` in one immediate transaction (a savepoint when one is open): a verification reads and writes a key
   * atomically across processes.
   */
  transaction<T>(work: () => T): T;
  /**
   * Runs `work` now inside the transaction this turn of the event loop shares (group-commit.ts), and resolves its
   * value once that transaction has committed: the request path's writes, answered only when on disk. A `work` that
   * throws leaves nothing of itself and rejects once the transaction has committed too.
   */
  inGroupCommit<T>(work: () => T): Promise<T>;
  /** Commits what the group transaction holds now: call before closing the database. */
  flush(): void;
  writeVerification(write: VerificationWrite): void;
  /**
   * Runs a change of keys, APIs, permissions or roles (the key-changing operations) on this connection, in the group
   * commit's transaction and its own savepoint, so a `work` that throws leaves nothing of itself; resolves once it is
   * committed, and every cached answer is stale from then on.
   */
  change<T>(work: (db: Database) => T): Promise<T>;
  /** Runs a read of the workspace's APIs, permissions, roles or identities (operations off the hot path) on this connection. */
  read<T>(work: (db: Database) => T): T;
  /**
   * Runs a write of the verification path's own (re-hashing a key imported by keys.migrateKeys) inside the group
   * commit's work already running; every cached answer is stale from then on.
   */
  writeInGroup<T>(work: (db: Database) => T): T;
  /**
   * Changes whenever the stored data may have: another connection (the admin CLI) committed, or this one
   * wrote. SQLite's `data_version` alone misses this connection's own writes.
   */
  changeVersion(): number;
}

interface RootKeyRow {
  id: string;
  workspace_id: string;
  permissions: string;
  enabled: number;
  ratelimit_limit: number | null;
  ratelimit_window_ms: number | null;
}

/** `{id, name, limit, duration, autoApply}` objects of a rate limit table's rows `r`, ordered by name. */
function rateLimitsJson(table: string, owner: string): string {
  return `(SELECT json_group_array(json_object('id', r.id, 'name', r.name, 'limit', r."limit",
            'duration', r.duration_ms, 'autoApply', json(iif(r.auto_apply = 1, 'true', 'false'))))
     FROM (SELECT * FROM ${table} WHERE ${owner} ORDER BY name) r)`;
}

// A key without roles (most of them) keeps its stored permissions as they are, without a subquery.
const EFFECTIVE_PERMISSIONS = `
  CASE WHEN k.roles = '[]' THEN k.permissions ELSE
    (SELECT json_group_array(name) FROM (
       SELECT value AS name FROM json_each(k.permissions)
       UNION
       SELECT p.value FROM roles r, json_each(r.permissions) p
        WHERE r.workspace_id = k.workspace_id AND r.name IN (SELECT value FROM json_each(k.roles))
       ORDER BY 1))
  END`;

const KEY_COLUMNS = `
  SELECT k.id, k.workspace_id, k.api_id, k.name, k.start, k.enabled, k.created_at, k.updated_at, k.last_used_at,
         k.expires, k.meta, k.credits_remaining, k.refill_interval, k.refill_amount, k.refill_day, k.last_refill_at,
         ${EFFECTIVE_PERMISSIONS} AS permissions, k.roles, k.external_id, i.id AS identity_id, i.meta AS identity_meta,
         ${rateLimitsJson("key_ratelimits", "key_id = k.id")} AS ratelimits,
         CASE WHEN i.id IS NULL THEN '[]' ELSE ${rateLimitsJson("identity_ratelimits", "identity_id = i.id")} END AS identity_ratelimits`;
const KEY_FROM = `
    FROM keys k LEFT JOIN identities i ON i.workspace_id = k.workspace_id AND i.external_id = k.external_id AND i.deleted_at IS NULL`;
const KEY_SELECT = KEY_COLUMNS + KEY_FROM;
// A verification's one read: the key and its API's whitelist (checked before its permissions).
const KEY_TO_VERIFY = `${KEY_COLUMNS}, (SELECT ip_whitelist FROM apis WHERE id = k.api_id) AS ip_whitelist ${KEY_FROM}`;

/** Root keys whose lookups are remembered between changes (the least recently used go first). */
const ROOT_KEYS_REMEMBERED = 1000;

// "" sorts before every id, so a first page is the same index range scan as any other.
const BEFORE_ALL_IDS = "";

export function createKeyStore(db: Database): KeyStore {
  const rootKeyByHash = db.prepare<[string], RootKeyRow>(
    `SELECT id, workspace_id, permissions, enabled, ratelimit_limit, ratelimit_window_ms
       FROM root_keys WHERE hash = ? AND revoked_at IS NULL`,
  );
  const dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
  const apiInWorkspace = db
    .prepare<[string, string], number>("SELECT 1 FROM apis WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL")
    .pluck();

  type PageArgs = [scope: string, after: string, limit: number];
  type FilteredPageArgs = [scope: string, externalId: string, after: string, limit: number];
  function page<Args extends unknown[]>(where: string): Statement<Args, KeyRow> {
    return db
      .prepare<Args, KeyRow>(`${KEY_SELECT} WHERE ${where} AND k.id > ? AND k.deleted_at IS NULL ORDER BY k.id LIMIT ?`)
      .raw();
  }
  const byWorkspace = page<PageArgs>("k.workspace_id = ?");
  const byApi = page<PageArgs>("k.api_id = ?");
  const byWorkspaceAndExternalId = page<FilteredPageArgs>("k.workspace_id = ? AND k.external_id = ?");
  const byApiAndExternalId = page<FilteredPageArgs>("k.api_id = ? AND k.external_id = ?");
  const keyById = db
    .prepare<[string, string], KeyRow>(`${KEY_SELECT} WHERE k.id = ? AND k.workspace_id = ? AND k.deleted_at IS NULL`)
    .raw();
  const keyByHash = db.prepare<[string], KeyRow>(`${KEY_SELECT} WHERE k.hash = ? AND k.deleted_at IS NULL`).raw();
  const keyToVerify = db
    .prepare<[string], KeyToVerifyRow>(`${KEY_TO_VERIFY} WHERE k.hash = ? AND k.deleted_at IS NULL`)
    .raw();

  const updateUsage = db.prepare<[number, number | null, number | null, string]>(
    // max(): a replayed past verification (admin traffic) never moves lastUsedAt back.
    "UPDATE keys SET last_used_at = max(coalesce(last_used_at, 0), ?), credits_remaining = ?, last_refill_at = ? WHERE id = ?",
  );
  const insertVerification = db.prepare<
    [string, number, string, string, string, string, string, string, string, number]
  >(
    `INSERT INTO key_verifications
       (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  // One transaction function for every call: better-sqlite3 makes a savepoint of it when one is already open.
  const inTransaction = db.transaction((work: () => unknown) => work());
  const group = createGroupCommit(db);

  let ownWrites = 0;
  let seen = { dataVersion: dataVersion.get() ?? 0, ownWrites };
  let version = 0;

  function readRootKey(hash: string): RootKeyRecord | undefined {
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
  }

  // Root keys change only through another connection (the admin CLI; this one never writes them): SQLite's
  // data_version, read at every lookup, tells when another connection committed anything, and then every answer
  // remembered, "no such root key" (null) among them, is forgotten.
  const rootKeys = createVersionedCache<RootKeyRecord | null>(() => dataVersion.get() ?? 0, ROOT_KEYS_REMEMBERED);

  function pageRows(query: ListKeysQuery): KeyRow[] {
    const after = query.after ?? BEFORE_ALL_IDS;
    // One row more than asked tells whether another page exists.
    const fetch = query.limit + 1;
    const scope = query.apiId ?? query.workspaceId;
    if (query.externalId === undefined) {
      const statement = query.apiId === undefined ? byWorkspace : byApi;
      return statement.all(scope, after, fetch);
    }
    const statement = query.apiId === undefined ? byWorkspaceAndExternalId : byApiAndExternalId;
    return statement.all(scope, query.externalId, after, fetch);
  }

  return {
    findRootKey(hash) {
      return rootKeys.get(hash, () => readRootKey(hash) ?? null) ?? undefined;
    },
    apiBelongsTo(apiId, workspaceId) {
      return apiInWorkspace.get(apiId, workspaceId) === 1;
    },
    listKeys(query) {
      const rows = pageRows(query);
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.length = query.limit;
      return { rows: rows.map(toRecord), hasMore };
    },
    findKeyById(keyId, workspaceId) {
      const row = keyById.get(keyId, workspaceId);
      return row === undefined ? undefined : toRecord(row);
    },
    findKeyByHash(hash) {
      const row = keyByHash.get(hash);
      return row === undefined ? undefined : toRecord(row);
    },
    findKeyToVerify(hash) {
      const row = keyToVerify.get(hash);
      return row === undefined ? undefined : { key: toRecord(row), ipWhitelist: row[23] };
    },
    transaction<T>(work: () => T): T {
      // Inside a group commit's work, whose own savepoint already makes it atomic: a second one would only cost.
      if (group.inWork()) return work();
      let result: { value: T } | undefined;
      inTransaction.immediate(() => {
        result = { value: work() };
      });
      if (result === undefined) throw new Error("the transaction ran nothing");
      return result.value;
    },
    inGroupCommit(work) {
      // As change(): a refused work answers once the turn's transaction has committed (see there).
      return group.run(work).catch(async (error: unknown) => {
        await group.run(() => undefined);
        throw error;
      });
    },
    flush() {
      group.flush();
    },
    writeVerification({ keyId, lastUsedAt, creditsRemaining, lastRefillAt, record }) {
      updateUsage.run(lastUsedAt, creditsRemaining, lastRefillAt, keyId);
      insertVerification.run(
        record.requestId,
        record.time,
        record.workspaceId,
        record.keySpaceId,
        record.keyId,
        record.externalId,
        record.outcome,
        record.region,
        record.tags,
        record.spentCredits,
      );
      ownWrites += 1;
    },
    read(work) {
      return work(db);
    },
    writeInGroup(work) {
      if (!group.inWork()) throw new Error("writeInGroup runs only inside inGroupCommit's work");
      const value = work(db);
      ownWrites += 1;
      return value;
    },
    async change(work) {
      try {
        return await group.run(() => {
          const value = work(db);
          ownWrites += 1;
          return value;
        });
      } catch (error) {
        // The refused work's savepoint is undone, but the turn's transaction is still open: answer once it has
        // committed, as every other answer does, so no caller acts while this connection still holds the write lock.
        await group.run(() => undefined);
        throw error;
      }
    },
    changeVersion() {
      const now = { dataVersion: dataVersion.get() ?? 0, ownWrites };
      if (now.dataVersion !== seen.dataVersion || now.ownWrites !== seen.ownWrites) {
        seen = now;
        version += 1;
      }
      return version;
    },
  };
}
