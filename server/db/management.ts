import type { Database } from "better-sqlite3";
import { DEFAULT_RETENTION_DAYS } from "../analytics/time-column";
import { newId } from "./ids";
import { hashSecret, newRootKeySecret, secretStart, type KeySpaceDefaults } from "../keys/secrets";

/** Reads and writes of the admin CLI and the demo data; the request path has its own statements in key-store.ts. */

export interface WorkspaceRow {
  id: string;
  name: string;
}

export interface ApiSummary {
  id: string;
  name: string;
  keyCount: number;
  createdAt: number;
  defaultPrefix: string | null;
  defaultBytes: number | null;
  deleteProtection: boolean;
  /** Comma-separated, as stored. */
  ipWhitelist: string | null;
}

export interface RootKeySummary {
  id: string;
  name: string;
  start: string;
  permissions: string[];
  state: "enabled" | "disabled" | "revoked";
  ratelimit: { limit: number; windowMs: number } | null;
  createdAt: number;
}

export interface NewKey {
  workspaceId: string;
  apiId: string;
  name: string;
  secret: string;
  enabled: boolean;
  createdAt: number;
  expires?: number;
  meta?: Record<string, unknown>;
  /** Puts the key in this identity of the workspace, created when it does not exist yet. */
  externalId?: string;
  /** Remaining credits; unlimited when left out. */
  credits?: number;
  refill?: { interval: "daily" | "monthly"; amount: number; refillDay?: number };
  permissions?: readonly string[];
  roles?: readonly string[];
  ratelimits?: readonly NewKeyRateLimit[];
  lastUsedAt?: number;
}

export interface NewKeyRateLimit {
  name: string;
  limit: number;
  durationMs: number;
  autoApply: boolean;
}

export interface NewRootKey {
  workspaceId: string;
  name: string;
  permissions: readonly string[];
  ratelimit?: { limit: number; windowMs: number };
  createdAt?: number;
}

export function findWorkspace(db: Database, workspaceId?: string): WorkspaceRow | undefined {
  if (workspaceId !== undefined) {
    return db.prepare<[string], WorkspaceRow>("SELECT id, name FROM workspaces WHERE id = ?").get(workspaceId);
  }
  return db.prepare<[], WorkspaceRow>("SELECT id, name FROM workspaces ORDER BY created_at, rowid LIMIT 1").get();
}

export function createWorkspace(db: Database, name: string, createdAt = Date.now()): string {
  const id = newId("ws");
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)").run(id, name, createdAt);
  return id;
}

/**
 * A workspace's own analytics limits, as the real service keeps them per workspace: how many days back a query may
 * reach (30 unless set), and how many queries it may run per hour (null: the server's `--analytics-quota`).
 */
export interface AnalyticsSettings {
  retentionDays: number;
  queriesPerHour: number | null;
}

export function analyticsSettings(db: Database, workspaceId: string): AnalyticsSettings {
  return (
    db
      .prepare<[string], AnalyticsSettings>(
        "SELECT analytics_retention_days AS retentionDays, analytics_queries_per_hour AS queriesPerHour FROM workspaces WHERE id = ?",
      )
      .get(workspaceId) ?? { retentionDays: DEFAULT_RETENTION_DAYS, queriesPerHour: null }
  );
}

export function setAnalyticsQueriesPerHour(db: Database, workspaceId: string, queries: number | null): void {
  db.prepare("UPDATE workspaces SET analytics_queries_per_hour = ? WHERE id = ?").run(queries, workspaceId);
}

export function setAnalyticsRetentionDays(db: Database, workspaceId: string, days: number): void {
  db.prepare("UPDATE workspaces SET analytics_retention_days = ? WHERE id = ?").run(days, workspaceId);
}

/**
 * An API's settings, as on the real service (set from its dashboard, not by apis.createApi): the prefix and byte
 * length keys.createKey uses when a request leaves them out, the protection apis.deleteApi refuses, and the
 * addresses verifications may come from. `null` clears one.
 */
export interface ApiSettings {
  defaultPrefix?: string | null;
  defaultBytes?: number | null;
  deleteProtection?: boolean;
  /** The addresses keys.verifyKey accepts calls from (all when null), as the real service's `ip_whitelist`. */
  ipWhitelist?: readonly string[] | null;
}

export function createApi(
  db: Database,
  workspaceId: string,
  name: string,
  createdAt = Date.now(),
  settings: ApiSettings = {},
): string {
  const id = newId("api");
  db.prepare("INSERT INTO apis (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)").run(
    id,
    workspaceId,
    name,
    createdAt,
  );
  updateApi(db, id, settings);
  return id;
}

/** Changes what `settings` gives of an API's key-space settings. */
export function updateApi(db: Database, apiId: string, settings: ApiSettings): void {
  const columns: Record<string, string | number | null> = {};
  if (settings.defaultPrefix !== undefined) columns.default_prefix = settings.defaultPrefix;
  if (settings.defaultBytes !== undefined) columns.default_bytes = settings.defaultBytes;
  if (settings.deleteProtection !== undefined) columns.delete_protection = settings.deleteProtection ? 1 : 0;
  if (settings.ipWhitelist !== undefined)
    columns.ip_whitelist = settings.ipWhitelist === null ? null : settings.ipWhitelist.join(",");
  const names = Object.keys(columns);
  if (names.length === 0) return;
  db.prepare(`UPDATE apis SET ${names.map((name) => `${name} = @${name}`).join(", ")} WHERE id = @id`).run({
    ...columns,
    id: apiId,
  });
}

/** The API's key-space defaults (none for an API this workspace does not have). */
export function keySpaceDefaults(db: Database, apiId: string): KeySpaceDefaults {
  return (
    db
      .prepare<[string], KeySpaceDefaults>(
        "SELECT default_prefix AS defaultPrefix, default_bytes AS defaultBytes FROM apis WHERE id = ?",
      )
      .get(apiId) ?? { defaultPrefix: null, defaultBytes: null }
  );
}

export function listApis(db: Database, workspaceId: string): ApiSummary[] {
  const rows = db
    .prepare<[string], Omit<ApiSummary, "deleteProtection"> & { deleteProtection: number }>(
      `SELECT a.id, a.name, a.created_at AS createdAt, a.default_prefix AS defaultPrefix, a.default_bytes AS defaultBytes,
              a.delete_protection AS deleteProtection, a.ip_whitelist AS ipWhitelist,
              (SELECT count(*) FROM keys k WHERE k.api_id = a.id AND k.deleted_at IS NULL) AS keyCount
         FROM apis a WHERE a.workspace_id = ? AND a.deleted_at IS NULL ORDER BY a.created_at, a.id`,
    )
    .all(workspaceId);
  return rows.map((row) => ({ ...row, deleteProtection: row.deleteProtection === 1 }));
}

/** The api with this id in the workspace, or the workspace's first api when no id is given. */
export function findApi(db: Database, workspaceId: string, apiId?: string): { id: string } | undefined {
  if (apiId !== undefined) {
    return db
      .prepare<[string, string], { id: string }>(
        "SELECT id FROM apis WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL",
      )
      .get(apiId, workspaceId);
  }
  return db
    .prepare<[string], { id: string }>(
      "SELECT id FROM apis WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY created_at, id LIMIT 1",
    )
    .get(workspaceId);
}

/** Adds the permissions (by slug, which is also their name) the workspace does not have yet. */
export function addPermissions(db: Database, workspaceId: string, slugs: readonly string[], createdAt: number): void {
  if (slugs.length === 0) return;
  const insert = db.prepare<[string, string, string, string, number]>(
    "INSERT INTO permissions (id, workspace_id, name, slug, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  for (const slug of new Set(slugs)) insert.run(newId("perm"), workspaceId, slug, slug, createdAt);
}

/** One prepared insert for many keys; the caller decides the transaction. Returns the new key's id. */
export function keyInserter(db: Database): (key: NewKey) => string {
  const insert = db.prepare(
    `INSERT INTO keys (id, workspace_id, api_id, name, start, hash, enabled, created_at, expires, meta, external_id,
                       credits_remaining, refill_interval, refill_amount, refill_day, permissions, roles, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertRateLimit = db.prepare(
    `INSERT INTO key_ratelimits (id, key_id, name, "limit", duration_ms, auto_apply) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  // A role a key names exists in the workspace, as on the real service; a new one carries no permissions yet.
  const insertRole = db.prepare(
    "INSERT INTO roles (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  return (key) => {
    const id = newId("key");
    if (key.externalId !== undefined) ensureIdentity(db, key.workspaceId, key.externalId, key.createdAt);
    // So is every permission it names (permissions.listPermissions lists them).
    addPermissions(db, key.workspaceId, key.permissions ?? [], key.createdAt);
    for (const role of key.roles ?? []) insertRole.run(newId("role"), key.workspaceId, role, key.createdAt);
    insert.run(
      id,
      key.workspaceId,
      key.apiId,
      key.name,
      secretStart(key.secret),
      hashSecret(key.secret),
      key.enabled ? 1 : 0,
      key.createdAt,
      key.expires ?? null,
      key.meta === undefined ? null : JSON.stringify(key.meta),
      key.externalId ?? null,
      key.credits ?? null,
      key.refill?.interval ?? null,
      key.refill?.amount ?? null,
      key.refill?.interval === "monthly" ? (key.refill.refillDay ?? 1) : null,
      JSON.stringify(key.permissions ?? []),
      JSON.stringify(key.roles ?? []),
      key.lastUsedAt ?? null,
    );
    for (const limit of key.ratelimits ?? []) {
      insertRateLimit.run(newId("rl"), id, limit.name, limit.limit, limit.durationMs, limit.autoApply ? 1 : 0);
    }
    return id;
  };
}

/** Creates a root key and returns its id and secret; the secret exists only in this return value. */
export function createRootKey(db: Database, rootKey: NewRootKey): { id: string; secret: string } {
  const id = newId("key");
  const secret = newRootKeySecret();
  db.prepare(
    `INSERT INTO root_keys (id, workspace_id, name, start, hash, permissions, ratelimit_limit, ratelimit_window_ms, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    rootKey.workspaceId,
    rootKey.name,
    secretStart(secret),
    hashSecret(secret),
    JSON.stringify(rootKey.permissions),
    rootKey.ratelimit?.limit ?? null,
    rootKey.ratelimit?.windowMs ?? null,
    rootKey.createdAt ?? Date.now(),
  );
  return { id, secret };
}

interface RootKeyRow {
  id: string;
  name: string;
  start: string;
  permissions: string;
  enabled: number;
  revoked_at: number | null;
  ratelimit_limit: number | null;
  ratelimit_window_ms: number | null;
  created_at: number;
}

export function listRootKeys(db: Database, workspaceId: string): RootKeySummary[] {
  const rows = db
    .prepare<[string], RootKeyRow>(
      `SELECT id, name, start, permissions, enabled, revoked_at, ratelimit_limit, ratelimit_window_ms, created_at
         FROM root_keys WHERE workspace_id = ? ORDER BY created_at, id`,
    )
    .all(workspaceId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    start: row.start,
    permissions: parsePermissionList(row.permissions),
    state: row.revoked_at !== null ? "revoked" : row.enabled === 1 ? "enabled" : "disabled",
    ratelimit:
      row.ratelimit_limit !== null && row.ratelimit_window_ms !== null
        ? { limit: row.ratelimit_limit, windowMs: row.ratelimit_window_ms }
        : null,
    createdAt: row.created_at,
  }));
}

export type RootKeyChange = "revoke" | "disable" | "enable";

/** Applies the change to a root key of the workspace; false when there is no such key (or, to enable or disable, it is revoked). */
export function changeRootKey(db: Database, workspaceId: string, rootKeyId: string, change: RootKeyChange): boolean {
  const result =
    change === "revoke"
      ? db
          .prepare("UPDATE root_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND workspace_id = ?")
          .run(Date.now(), rootKeyId, workspaceId)
      : // A revoked key stays revoked: enabling or disabling it is refused rather than silently meaningless.
        db
          .prepare("UPDATE root_keys SET enabled = ? WHERE id = ? AND workspace_id = ? AND revoked_at IS NULL")
          .run(change === "enable" ? 1 : 0, rootKeyId, workspaceId);
  return result.changes === 1;
}

/** Permissions are stored as a JSON array of strings. */
export function parsePermissionList(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : [];
}

export interface RoleSummary {
  id: string;
  name: string;
  permissions: string[];
  keyCount: number;
}

export class ConflictError extends Error {}

/** Creates a role of the workspace with these permissions; a ConflictError when the name is taken. */
export function createRole(
  db: Database,
  workspaceId: string,
  name: string,
  permissions: readonly string[],
  createdAt = Date.now(),
  description?: string,
): string {
  const id = newId("role");
  const inserted = db
    .prepare(
      "INSERT INTO roles (id, workspace_id, name, permissions, created_at, description) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    )
    .run(id, workspaceId, name, JSON.stringify([...new Set(permissions)]), createdAt, description ?? null);
  if (inserted.changes === 0) throw new ConflictError(`the workspace already has a role "${name}"`);
  addPermissions(db, workspaceId, permissions, createdAt);
  return id;
}

/** Adds permissions to a role of the workspace; returns all its permissions, or undefined when there is no such role. */
export function grantRole(
  db: Database,
  workspaceId: string,
  name: string,
  permissions: readonly string[],
): string[] | undefined {
  return db
    .transaction(() => {
      const row = db
        .prepare<[string, string], { permissions: string }>(
          "SELECT permissions FROM roles WHERE workspace_id = ? AND name = ?",
        )
        .get(workspaceId, name);
      if (row === undefined) return undefined;
      const all = [...new Set([...parsePermissionList(row.permissions), ...permissions])];
      addPermissions(db, workspaceId, permissions, Date.now());
      db.prepare("UPDATE roles SET permissions = ? WHERE workspace_id = ? AND name = ?").run(
        JSON.stringify(all),
        workspaceId,
        name,
      );
      return all;
    })
    .immediate();
}

export function listRoles(db: Database, workspaceId: string): RoleSummary[] {
  const rows = db
    .prepare<[string], { id: string; name: string; permissions: string; keyCount: number }>(
      `SELECT r.id, r.name, r.permissions,
              (SELECT count(*) FROM keys k WHERE k.workspace_id = r.workspace_id AND k.deleted_at IS NULL
                 AND EXISTS (SELECT 1 FROM json_each(k.roles) WHERE value = r.name)) AS keyCount
         FROM roles r WHERE r.workspace_id = ? ORDER BY r.name`,
    )
    .all(workspaceId);
  return rows.map((row) => ({ ...row, permissions: parsePermissionList(row.permissions) }));
}

export interface NewIdentity {
  workspaceId: string;
  externalId: string;
  meta?: Record<string, unknown>;
  ratelimits?: readonly NewKeyRateLimit[];
  createdAt?: number;
}

/** Creates an identity with its rate limits (shared by all its keys); a ConflictError when the external id is taken. */
export function createIdentity(db: Database, identity: NewIdentity): string {
  return db
    .transaction(() => {
      const id = newId("id");
      const createdAt = identity.createdAt ?? Date.now();
      forgetDeletedIdentity(db, identity.workspaceId, identity.externalId);
      const inserted = db
        .prepare(
          "INSERT INTO identities (id, workspace_id, external_id, meta, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        )
        .run(
          id,
          identity.workspaceId,
          identity.externalId,
          identity.meta === undefined ? null : JSON.stringify(identity.meta),
          createdAt,
        );
      if (inserted.changes === 0)
        throw new ConflictError(`the workspace already has an identity "${identity.externalId}"`);
      const insertRateLimit = db.prepare(
        `INSERT INTO identity_ratelimits (id, identity_id, name, "limit", duration_ms, auto_apply) VALUES (?, ?, ?, ?, ?, ?)`,
      );
      for (const limit of identity.ratelimits ?? []) {
        insertRateLimit.run(newId("rl"), id, limit.name, limit.limit, limit.durationMs, limit.autoApply ? 1 : 0);
      }
      return id;
    })
    .immediate();
}

/**
 * A deleted identity's row goes when its external id is given to a new one: the real service keeps one deleted and
 * one live identity per external id, and removes the older deleted one the same way; here keys find their identity
 * by external id, so a live one may not share it with a deleted one.
 */
function forgetDeletedIdentity(db: Database, workspaceId: string, externalId: string): void {
  const deleted = db
    .prepare<[string, string], string>(
      "SELECT id FROM identities WHERE workspace_id = ? AND external_id = ? AND deleted_at IS NOT NULL",
    )
    .pluck()
    .get(workspaceId, externalId);
  if (deleted === undefined) return;
  db.prepare("DELETE FROM identity_ratelimits WHERE identity_id = ?").run(deleted);
  db.prepare("DELETE FROM identities WHERE id = ?").run(deleted);
}

/** The live identity of this external id, created (without meta or rate limits) when the workspace has none. */
export function ensureIdentity(db: Database, workspaceId: string, externalId: string, createdAt: number): void {
  forgetDeletedIdentity(db, workspaceId, externalId);
  db.prepare(
    "INSERT INTO identities (id, workspace_id, external_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  ).run(newId("id"), workspaceId, externalId, createdAt);
}

/** Deletes a live identity of the workspace (by id or external id), as the real service does: the row stays, found by nothing. */
export function deleteIdentity(db: Database, workspaceId: string, identity: string, now = Date.now()): boolean {
  const result = db
    .prepare(
      "UPDATE identities SET deleted_at = ? WHERE workspace_id = ? AND (id = ? OR external_id = ?) AND deleted_at IS NULL",
    )
    .run(now, workspaceId, identity, identity);
  return result.changes > 0;
}

export interface IdentitySummary {
  id: string;
  externalId: string;
  keyCount: number;
  ratelimits: NewKeyRateLimit[];
}

export function listIdentities(db: Database, workspaceId: string): IdentitySummary[] {
  const identities = db
    .prepare<[string], { id: string; externalId: string; keyCount: number }>(
      `SELECT i.id, i.external_id AS externalId,
              (SELECT count(*) FROM keys k WHERE k.workspace_id = i.workspace_id AND k.external_id = i.external_id AND k.deleted_at IS NULL) AS keyCount
         FROM identities i WHERE i.workspace_id = ? AND i.deleted_at IS NULL ORDER BY i.external_id`,
    )
    .all(workspaceId);
  const limitsOf = db.prepare<[string], { name: string; limit: number; durationMs: number; autoApply: number }>(
    `SELECT name, "limit", duration_ms AS durationMs, auto_apply AS autoApply FROM identity_ratelimits WHERE identity_id = ? ORDER BY name`,
  );
  return identities.map((identity) => ({
    ...identity,
    ratelimits: limitsOf.all(identity.id).map((limit) => ({ ...limit, autoApply: limit.autoApply === 1 })),
  }));
}
