import type { Database } from "better-sqlite3";
import { ConflictError } from "./conflict-error";
import { newId } from "./ids";
import type { NewRateLimit } from "./rate-limits";

/** Identities: creating (with their shared rate limits), finding, changing, deleting and listing them. */

export interface NewIdentity {
  workspaceId: string;
  externalId: string;
  meta?: Record<string, unknown>;
  ratelimits?: readonly NewRateLimit[];
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

/** A live identity of the workspace, by its id or its external id (an id is looked for first, as the real service). */
export function findLiveIdentity(
  db: Database,
  workspaceId: string,
  identity: string,
): { id: string; externalId: string } | undefined {
  return db
    .prepare<[string, string, string, string], { id: string; externalId: string }>(
      `SELECT id, external_id AS externalId FROM identities
        WHERE workspace_id = ? AND (id = ? OR external_id = ?) AND deleted_at IS NULL
        ORDER BY id = ? DESC LIMIT 1`,
    )
    .get(workspaceId, identity, identity, identity);
}

/**
 * Deletes a live identity of the workspace (by id or external id), as the real service does: the row and its rate
 * limits stay, found by nothing, and its keys lose it. There a key keeps pointing at the deleted row, which no
 * operation follows, so a new identity of the same external id does not take the key; here a key names its identity
 * by external id, so the key lets go of it. Returns whether there was one.
 */
export function deleteIdentity(db: Database, workspaceId: string, identity: string, now = Date.now()): boolean {
  return db.transaction(() => {
    const found = findLiveIdentity(db, workspaceId, identity);
    if (found === undefined) return false;
    db.prepare("UPDATE identities SET deleted_at = ? WHERE id = ?").run(now, found.id);
    db.prepare("UPDATE keys SET external_id = NULL WHERE workspace_id = ? AND external_id = ?").run(
      workspaceId,
      found.externalId,
    );
    return true;
  })();
}

export interface IdentityChange {
  meta?: Record<string, unknown>;
  ratelimits?: readonly NewRateLimit[];
}

/**
 * identities.updateIdentity: meta replaced when given, rate limits replaced when given, matched by name as the real
 * service matches them: a limit kept keeps its id, and so the counter all the identity's keys share; the others are
 * deleted or added.
 */
export function updateIdentity(db: Database, identityId: string, change: IdentityChange): void {
  if (change.meta !== undefined) {
    db.prepare("UPDATE identities SET meta = ? WHERE id = ?").run(JSON.stringify(change.meta), identityId);
  }
  if (change.ratelimits === undefined) return;
  const wanted = new Map(change.ratelimits.map((limit) => [limit.name, limit]));
  const existing = db
    .prepare<[string], { id: string; name: string }>("SELECT id, name FROM identity_ratelimits WHERE identity_id = ?")
    .all(identityId);
  const remove = db.prepare<[string]>("DELETE FROM identity_ratelimits WHERE id = ?");
  for (const row of existing) if (!wanted.has(row.name)) remove.run(row.id);
  const upsert = db.prepare(
    `INSERT INTO identity_ratelimits (id, identity_id, name, "limit", duration_ms, auto_apply) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (identity_id, name) DO UPDATE SET "limit" = excluded."limit", duration_ms = excluded.duration_ms, auto_apply = excluded.auto_apply`,
  );
  for (const limit of wanted.values()) {
    upsert.run(newId("rl"), identityId, limit.name, limit.limit, limit.durationMs, limit.autoApply ? 1 : 0);
  }
}

export interface IdentitySummary {
  id: string;
  externalId: string;
  keyCount: number;
  ratelimits: NewRateLimit[];
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
