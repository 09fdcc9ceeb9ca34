import type { Database } from "better-sqlite3";
import { ApiRefusal } from "../http/api-refusal";
import { newId } from "./ids";
import { ensureIdentity } from "./identities";
import { addPermissions, ensurePermissions, parsePermissionList, requireRoles } from "./rbac";
import type { NewRateLimit } from "./rate-limits";
import { hashSecret, secretStart } from "../keys/secrets";

/**
 * Keys: inserting them (the admin CLI, the demo data and keys.createKey), and the writes of the key-changing
 * operations (keys.updateKey, updateCredits, rerollKey, deleteKey, the permission and role operations). Each runs
 * inside the caller's transaction (KeyStore.change): a refusal found half-way is thrown, which undoes every write
 * before it.
 */

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
  ratelimits?: readonly NewRateLimit[];
  lastUsedAt?: number;
}

/** A key imported by its old system's hash (keys.migrateKeys): no secret here, and no start until it is re-hashed. */
export type NewImportedKey = Omit<NewKey, "secret"> & { imported: { hash: string; pendingMigrationId: string } };

/** The key as the change operations need it: its API and its own (direct) permissions and roles. */
export interface ChangedKey {
  id: string;
  apiId: string;
  workspaceId: string;
  name: string;
  start: string;
  enabled: boolean;
  expires: number | null;
  meta: string | null;
  externalId: string | null;
  creditsRemaining: number | null;
  refillInterval: "daily" | "monthly" | null;
  refillAmount: number | null;
  refillDay: number | null;
  permissions: string[];
  roles: string[];
}

interface KeyRow {
  id: string;
  api_id: string;
  workspace_id: string;
  name: string;
  start: string;
  enabled: number;
  expires: number | null;
  meta: string | null;
  external_id: string | null;
  credits_remaining: number | null;
  refill_interval: "daily" | "monthly" | null;
  refill_amount: number | null;
  refill_day: number | null;
  permissions: string;
  roles: string;
}

/**
 * A live key of the workspace: neither it nor its API deleted, as the real service's FindLiveKeyByID (a key whose
 * API is gone is not found, whatever is asked of it).
 */
export function findLiveKey(db: Database, workspaceId: string, keyId: string): ChangedKey | undefined {
  const row = db
    .prepare<[string, string], KeyRow>(
      `SELECT k.id, k.api_id, k.workspace_id, k.name, k.start, k.enabled, k.expires, k.meta, k.external_id,
              k.credits_remaining, k.refill_interval, k.refill_amount, k.refill_day, k.permissions, k.roles
         FROM keys k JOIN apis a ON a.id = k.api_id AND a.deleted_at IS NULL
        WHERE k.id = ? AND k.workspace_id = ? AND k.deleted_at IS NULL`,
    )
    .get(keyId, workspaceId);
  if (row === undefined) return undefined;
  return {
    id: row.id,
    apiId: row.api_id,
    workspaceId: row.workspace_id,
    name: row.name,
    start: row.start,
    enabled: row.enabled === 1,
    expires: row.expires,
    meta: row.meta,
    externalId: row.external_id,
    creditsRemaining: row.credits_remaining,
    refillInterval: row.refill_interval,
    refillAmount: row.refill_amount,
    refillDay: row.refill_day,
    permissions: parsePermissionList(row.permissions),
    roles: parsePermissionList(row.roles),
  };
}

/** The real service's words for an unknown key in rerollKey and the permission and role operations (else the kind's). */
export const SPECIFIED_KEY_NOT_FOUND = "The specified key was not found.";

/** The live key of the workspace, or the 404 of a key it does not have (deleted or never made), in the route's words. */
export function requireLiveKey(db: Database, workspaceId: string, keyId: string, notFoundDetail?: string): ChangedKey {
  const key = findLiveKey(db, workspaceId, keyId);
  if (key === undefined) {
    throw new ApiRefusal("err:svc:data:key_not_found", notFoundDetail === undefined ? {} : { detail: notFoundDetail });
  }
  return key;
}

/** One prepared insert for many keys; the caller decides the transaction. Returns the new key's id. */
export function keyInserter(db: Database): (key: NewKey | NewImportedKey) => string {
  const insert = db.prepare(
    `INSERT INTO keys (id, workspace_id, api_id, name, start, hash, enabled, created_at, expires, meta, external_id,
                       credits_remaining, refill_interval, refill_amount, refill_day, permissions, roles, last_used_at,
                       pending_migration_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      "imported" in key ? "" : secretStart(key.secret),
      "imported" in key ? key.imported.hash : hashSecret(key.secret),
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
      "imported" in key ? key.imported.pendingMigrationId : null,
    );
    for (const limit of key.ratelimits ?? []) {
      insertRateLimit.run(newId("rl"), id, limit.name, limit.limit, limit.durationMs, limit.autoApply ? 1 : 0);
    }
    return id;
  };
}

/** Inserts a key (its identity, rate limits, and the permissions it names but the workspace lacks); returns its id. */
export function insertKey(db: Database, key: NewKey): string {
  return keyInserter(db)(key);
}

export interface KeyUpdate {
  name?: string | null;
  externalId?: string | null;
  meta?: Record<string, unknown> | null;
  expires?: number | null;
  enabled?: boolean;
  /** What is given of the credits replaces the key's: remaining null = unlimited (and no refill), refill null = none. */
  credits?: {
    remaining?: number | null;
    refill?: { interval: "daily" | "monthly"; amount: number; refillDay?: number } | null;
  } | null;
  ratelimits?: readonly NewRateLimit[];
  roles?: readonly string[];
  permissions?: readonly string[];
}

/** keys.updateKey: what is given replaces what the key had; null clears. */
export function updateKey(db: Database, key: ChangedKey, update: KeyUpdate, now: number): void {
  const columns: Record<string, string | number | null> = { updated_at: now };
  if (update.name !== undefined) columns.name = update.name ?? "";
  if (update.externalId !== undefined) {
    if (update.externalId !== null) ensureIdentity(db, key.workspaceId, update.externalId, now);
    columns.external_id = update.externalId;
  }
  if (update.meta !== undefined) columns.meta = update.meta === null ? null : JSON.stringify(update.meta);
  if (update.expires !== undefined) columns.expires = update.expires;
  if (update.enabled !== undefined) columns.enabled = update.enabled ? 1 : 0;
  if (update.credits !== undefined) {
    const credits = update.credits;
    // null credits, or null remaining, make the key unlimited: a refill of nothing is cleared with it.
    const clearsAll = credits === null || credits.remaining === null;
    if (clearsAll) columns.credits_remaining = null;
    else if (credits.remaining !== undefined) columns.credits_remaining = credits.remaining;
    if (clearsAll || credits.refill === null) {
      Object.assign(columns, { refill_interval: null, refill_amount: null, refill_day: null });
    } else if (credits.refill !== undefined) {
      Object.assign(columns, {
        refill_interval: credits.refill.interval,
        refill_amount: credits.refill.amount,
        refill_day: credits.refill.interval === "monthly" ? (credits.refill.refillDay ?? 1) : null,
      });
    }
  }
  if (update.roles !== undefined) {
    columns.roles = JSON.stringify(requireRoles(db, key.workspaceId, update.roles).map((role) => role.name));
  }
  if (update.permissions !== undefined) {
    columns.permissions = JSON.stringify(
      ensurePermissions(db, key.workspaceId, update.permissions, now).map((row) => row.slug),
    );
  }
  const names = Object.keys(columns);
  db.prepare(`UPDATE keys SET ${names.map((name) => `${name} = @${name}`).join(", ")} WHERE id = @id`).run({
    ...columns,
    id: key.id,
  });
  if (update.ratelimits !== undefined) setRateLimits(db, key.id, update.ratelimits);
}

/** Replaces the key's rate limits by name: one kept keeps its id (and so its counter), one left out is deleted. */
function setRateLimits(db: Database, keyId: string, limits: readonly NewRateLimit[]): void {
  const wanted = new Map(limits.map((limit) => [limit.name, limit]));
  const existing = db
    .prepare<[string], { id: string; name: string }>("SELECT id, name FROM key_ratelimits WHERE key_id = ?")
    .all(keyId);
  const remove = db.prepare<[string]>("DELETE FROM key_ratelimits WHERE id = ?");
  for (const row of existing) if (!wanted.has(row.name)) remove.run(row.id);
  const upsert = db.prepare(
    `INSERT INTO key_ratelimits (id, key_id, name, "limit", duration_ms, auto_apply) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key_id, name) DO UPDATE SET "limit" = excluded."limit", duration_ms = excluded.duration_ms, auto_apply = excluded.auto_apply`,
  );
  for (const limit of wanted.values()) {
    upsert.run(newId("rl"), keyId, limit.name, limit.limit, limit.durationMs, limit.autoApply ? 1 : 0);
  }
}

export type CreditsOperation = "set" | "increment" | "decrement";

/** keys.updateCredits: `set` null makes the key unlimited (and drops its refill); a decrement stops at 0. */
export function updateCredits(
  db: Database,
  key: ChangedKey,
  operation: CreditsOperation,
  value: number | null,
  now: number,
): void {
  if (operation === "set") {
    if (value === null) {
      db.prepare(
        "UPDATE keys SET credits_remaining = NULL, refill_interval = NULL, refill_amount = NULL, refill_day = NULL, updated_at = ? WHERE id = ?",
      ).run(now, key.id);
    } else {
      db.prepare("UPDATE keys SET credits_remaining = ?, updated_at = ? WHERE id = ?").run(value, now, key.id);
    }
    return;
  }
  const delta = operation === "increment" ? value : -(value ?? 0);
  db.prepare("UPDATE keys SET credits_remaining = max(0, credits_remaining + ?), updated_at = ? WHERE id = ?").run(
    delta,
    now,
    key.id,
  );
}

/** The credits a key has now, as keys.updateCredits answers them. */
export function creditsOf(
  db: Database,
  keyId: string,
): Pick<ChangedKey, "creditsRemaining" | "refillInterval" | "refillAmount" | "refillDay"> {
  const row = db
    .prepare<[string], Pick<KeyRow, "credits_remaining" | "refill_interval" | "refill_amount" | "refill_day">>(
      "SELECT credits_remaining, refill_interval, refill_amount, refill_day FROM keys WHERE id = ?",
    )
    .get(keyId);
  if (row === undefined) throw new ApiRefusal("err:svc:data:key_not_found");
  return {
    creditsRemaining: row.credits_remaining,
    refillInterval: row.refill_interval,
    refillAmount: row.refill_amount,
    refillDay: row.refill_day,
  };
}

const MINUTE_MS = 60_000;

/**
 * keys.rerollKey: a new key with the old one's settings (name, meta, identity, credits and refill, expiry,
 * enabled, rate limits, roles, permissions) and a new secret; the old key expires `expirationMs` from now, rounded
 * up to the minute as the real service does, or at once for 0.
 */
export function rerollKey(db: Database, key: ChangedKey, secret: string, expirationMs: number, now: number): string {
  const limits = db
    .prepare<[string], { name: string; limit: number; durationMs: number; autoApply: number }>(
      `SELECT name, "limit", duration_ms AS durationMs, auto_apply AS autoApply FROM key_ratelimits WHERE key_id = ?`,
    )
    .all(key.id);
  const newKey: NewKey = {
    workspaceId: key.workspaceId,
    apiId: key.apiId,
    name: key.name,
    secret,
    enabled: key.enabled,
    createdAt: now,
    permissions: key.permissions,
    roles: key.roles,
    ratelimits: limits.map((limit) => ({ ...limit, autoApply: limit.autoApply === 1 })),
  };
  if (key.expires !== null) newKey.expires = key.expires;
  if (key.meta !== null) newKey.meta = JSON.parse(key.meta) as Record<string, unknown>;
  if (key.externalId !== null) newKey.externalId = key.externalId;
  if (key.creditsRemaining !== null) newKey.credits = key.creditsRemaining;
  if (key.refillInterval !== null && key.refillAmount !== null) {
    newKey.refill = {
      interval: key.refillInterval,
      amount: key.refillAmount,
      ...(key.refillDay !== null && { refillDay: key.refillDay }),
    };
  }
  const newKeyId = insertKey(db, newKey);
  const expires = expirationMs === 0 ? now : Math.ceil((now + expirationMs) / MINUTE_MS) * MINUTE_MS;
  db.prepare("UPDATE keys SET expires = ?, updated_at = ? WHERE id = ?").run(expires, now, key.id);
  return newKeyId;
}

/** keys.deleteKey: soft (the row stays, found by nothing) or permanent (the row and its rate limits are gone). */
export function deleteKey(db: Database, keyId: string, permanent: boolean, now: number): void {
  if (permanent) {
    db.prepare("DELETE FROM key_ratelimits WHERE key_id = ?").run(keyId);
    db.prepare("DELETE FROM keys WHERE id = ?").run(keyId);
  } else {
    db.prepare("UPDATE keys SET deleted_at = ? WHERE id = ?").run(now, keyId);
  }
}

/** Sets the key's own permissions (slugs of the workspace's permissions) and roles, as the add/remove/set operations decide them. */
export function setKeyPermissions(db: Database, keyId: string, slugs: readonly string[], now: number): void {
  db.prepare("UPDATE keys SET permissions = ?, updated_at = ? WHERE id = ?").run(
    JSON.stringify([...new Set(slugs)]),
    now,
    keyId,
  );
}

export function setKeyRoles(db: Database, keyId: string, names: readonly string[], now: number): void {
  db.prepare("UPDATE keys SET roles = ?, updated_at = ? WHERE id = ?").run(
    JSON.stringify([...new Set(names)]),
    now,
    keyId,
  );
}
