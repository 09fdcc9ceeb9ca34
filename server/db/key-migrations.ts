import type { Database } from "better-sqlite3";
import { hashSecret } from "../keys/secrets";
import { migratedLookup, storedImportHash, type MigrationAlgorithm } from "../keys/migrated-secrets";
import { newId } from "./ids";
import { keyInserter, type NewKey } from "./keys";

/** Key migrations: making them (the admin CLI, as the real service's staff do), importing keys by their hashes, re-hashing one. */

export interface KeyMigration {
  id: string;
  workspaceId: string;
  algorithm: MigrationAlgorithm;
  createdAt: number;
}

export function createKeyMigration(
  db: Database,
  workspaceId: string,
  algorithm: MigrationAlgorithm,
  createdAt = Date.now(),
): string {
  const id = newId("mig");
  db.prepare("INSERT INTO key_migrations (id, workspace_id, algorithm, created_at) VALUES (?, ?, ?, ?)").run(
    id,
    workspaceId,
    algorithm,
    createdAt,
  );
  return id;
}

/** The workspace's migration with this id (another workspace's is not found, as on the real service). */
export function findKeyMigration(db: Database, workspaceId: string, id: string): KeyMigration | undefined {
  return db
    .prepare<[string, string], KeyMigration>(
      "SELECT id, workspace_id AS workspaceId, algorithm, created_at AS createdAt FROM key_migrations WHERE id = ? AND workspace_id = ?",
    )
    .get(id, workspaceId);
}

export function listKeyMigrations(db: Database, workspaceId: string): (KeyMigration & { keyCount: number })[] {
  return db
    .prepare<[string], KeyMigration & { keyCount: number }>(
      `SELECT m.id, m.workspace_id AS workspaceId, m.algorithm, m.created_at AS createdAt,
              (SELECT count(*) FROM keys k WHERE k.pending_migration_id = m.id AND k.deleted_at IS NULL) AS keyCount
         FROM key_migrations m WHERE m.workspace_id = ? ORDER BY m.created_at, m.id`,
    )
    .all(workspaceId);
}

/** A key to import: what keys.createKey takes, with its old system's hash instead of a secret. */
export type ImportedKey = Omit<NewKey, "secret" | "workspaceId" | "apiId" | "createdAt"> & { hash: string };

export interface ImportResult {
  migrated: { hash: string; keyId: string }[];
  /** The hashes some key has already (this server's or another workspace's), or that came twice: not imported. */
  failed: string[];
}

/**
 * keys.migrateKeys: each key inserted with its hash as the migration stores it, waiting for the migration's first
 * verification; its identity, roles and permissions made when the workspace lacks them, as on the real service.
 */
export function importKeys(
  db: Database,
  migration: KeyMigration,
  apiId: string,
  keys: readonly ImportedKey[],
  now: number,
): ImportResult {
  const insert = keyInserter(db);
  const used = db.prepare<[string], number>("SELECT 1 FROM keys WHERE hash = ?").pluck();
  const result: ImportResult = { migrated: [], failed: [] };
  const seen = new Set<string>();
  for (const { hash, ...key } of keys) {
    const stored = storedImportHash(migration.algorithm, hash);
    if (seen.has(stored) || used.get(stored) !== undefined) {
      result.failed.push(hash);
      continue;
    }
    seen.add(stored);
    const keyId = insert({
      ...key,
      workspaceId: migration.workspaceId,
      apiId,
      createdAt: now,
      imported: { hash: stored, pendingMigrationId: migration.id },
    });
    result.migrated.push({ hash, keyId });
  }
  return result;
}

/**
 * The first verification of an imported key that names its migration: the key is found by its old hash and re-hashed
 * to this server's, with the start shown from then on, as the real service does; returns whether there was one.
 */
export function rehashMigratedKey(
  db: Database,
  workspaceId: string,
  migrationId: string,
  lookup: { hash: string; start: string },
  secret: string,
  now: number,
): boolean {
  const changed = db
    .prepare(
      `UPDATE keys SET hash = ?, start = ?, pending_migration_id = NULL, updated_at = ?
        WHERE hash = ? AND workspace_id = ? AND pending_migration_id = ? AND deleted_at IS NULL`,
    )
    .run(hashSecret(secret), lookup.start, now, lookup.hash, workspaceId, migrationId);
  return changed.changes > 0;
}

/**
 * A verification that found no key, naming a migration (keys.verifyKey's `migrationId`): the key imported under it is
 * looked for by the migration's algorithm and, when found, re-hashed to this server's hash; "migrated" then, so the
 * verification runs again and finds it. "malformed" is a secret the algorithm cannot read (the real 400).
 */
export function migrateOnVerification(
  db: Database,
  workspaceId: string,
  migrationId: string,
  secret: string,
  now: number,
): "migrated" | "not_found" | "malformed" {
  const migration = findKeyMigration(db, workspaceId, migrationId);
  if (migration === undefined) return "not_found";
  const lookup = migratedLookup(migration.algorithm, secret);
  if (lookup.kind !== "lookup") return lookup.kind;
  return rehashMigratedKey(db, workspaceId, migrationId, lookup, secret, now) ? "migrated" : "not_found";
}
