import type { DuckDBConnection } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";
import { FAMILIES, type Family, type FamilyName } from "./store-schema";

/**
 * Retention on disk: a workspace's verifications and rate-limit decisions older than its analytics retention (30 days
 * unless set; a query may not reach further back) leave SQLite (key_verifications, ratelimit_decisions), the analytics
 * store and the per-hour sums by key, so a server that runs for months keeps about a retention's worth of rows. As the
 * real service's tables' TTLs, each table goes by its own time column: a raw row once its time is older; a rollup's
 * bucket once all of it is (the bucket holding the cut stays whole, as the month holding it). A table with a shorter
 * TTL of its own on the real service (the rate-limit tables: a month raw, 7 days by minute, …) keeps no more than that.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per SQLite transaction: a verification waiting for the write lock waits for at most one. */
const SQLITE_ROWS = 2_000;
/** Seqs of old rows read from the store at once. */
const SEQS_AT_ONCE = 50_000;
/** Rows of the sums scanned per slice of the analytics thread. */
const SUMS_ROWS = 20_000;

export interface RetentionResult {
  /** Verifications deleted from SQLite's key_verifications. */
  verifications: number;
  /** Rate-limit decisions deleted from SQLite's ratelimit_decisions; left out when none were. */
  ratelimitDecisions?: number;
}

export interface RetentionSources {
  /** The analytics thread's connection: the verifications as `main`, the sums as `sums`. */
  sqlite: Database;
  duckdb: DuckDBConnection;
  /**
   * Rows of each family up to this seq are in the store (and the verifications in the sums): only those leave SQLite
   * (none is lost to either).
   */
  settledSeqs: Record<FamilyName, number>;
}

const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));

async function deleteFromSqlite(sqlite: Database, table: string, seqs: readonly bigint[]): Promise<number> {
  const remove = sqlite.prepare<[string]>(`DELETE FROM main.${table} WHERE seq IN (SELECT value FROM json_each(?))`);
  let deleted = 0;
  for (let start = 0; start < seqs.length; start += SQLITE_ROWS) {
    const chunk = seqs.slice(start, start + SQLITE_ROWS).map(Number);
    deleted += sqlite.transaction(() => remove.run(JSON.stringify(chunk)).changes)();
    await yieldTurn();
  }
  return deleted;
}

/** The sums of hours wholly before `cutoff`, deleted a slice of keys at a time (by the index's key order). */
async function deleteOldSums(sqlite: Database, workspaceId: string, cutoff: number): Promise<void> {
  const hourOfCutoff = cutoff - (((cutoff % 3_600_000) + 3_600_000) % 3_600_000);
  const boundary = sqlite
    .prepare<[string, string, number], string>(
      "SELECT key_id FROM sums.key_verifications_per_hour WHERE workspace_id = ? AND key_id > ? ORDER BY key_id LIMIT 1 OFFSET ?",
    )
    .pluck();
  const removeUpTo = sqlite.prepare<[string, string, string, number]>(
    "DELETE FROM sums.key_verifications_per_hour WHERE workspace_id = ? AND key_id > ? AND key_id <= ? AND time < ?",
  );
  const removeRest = sqlite.prepare<[string, string, number]>(
    "DELETE FROM sums.key_verifications_per_hour WHERE workspace_id = ? AND key_id > ? AND time < ?",
  );
  let after = "";
  for (;;) {
    const next = boundary.get(workspaceId, after, SUMS_ROWS);
    if (next === undefined) {
      removeRest.run(workspaceId, after, hourOfCutoff);
      return;
    }
    removeUpTo.run(workspaceId, after, next, hourOfCutoff);
    after = next;
    await yieldTurn();
  }
}

/** The later of the workspace's cut and the table's own TTL's, if it has one. */
function cutOf(workspaceCut: number, now: number, keepDays: number | undefined): number {
  return keepDays === undefined ? workspaceCut : Math.max(workspaceCut, now - keepDays * DAY_MS);
}

/** Deletes one family's rows of one workspace older than its cuts; resolves how many left SQLite. */
async function deleteOld(
  sources: RetentionSources,
  family: Family,
  workspace: string,
  workspaceCut: number,
  now: number,
): Promise<number> {
  const { sqlite, duckdb } = sources;
  // The newest row stays whatever its age: its seq is what the next one's follows (an INTEGER PRIMARY KEY without
  // AUTOINCREMENT starts again below it), and the copy reads by seq.
  const newest = sqlite.prepare<[], number | null>(`SELECT max(seq) FROM main.${family.source}`).pluck().get() ?? 0;
  const keepFrom = Math.min(sources.settledSeqs[family.name], newest - 1);
  const old = { workspace, cutoff: cutOf(workspaceCut, now, family.rawKeepDays), keepFrom };
  let deleted = 0;
  // The store says which rows are old (its columns read fast; SQLite has no index on time), a bounded list at a time.
  for (let after = 0; ;) {
    const reader = await duckdb.runAndReadAll(
      `SELECT seq FROM ${family.raw}
       WHERE workspace_id = $workspace AND time < $cutoff AND seq > $after AND seq <= $keepFrom ORDER BY seq LIMIT ${SEQS_AT_ONCE}`,
      { ...old, after },
    );
    const seqs = reader.getColumnsJS()[0]?.filter((seq): seq is bigint => typeof seq === "bigint") ?? [];
    const last = seqs.at(-1);
    if (last === undefined) break;
    deleted += await deleteFromSqlite(sqlite, family.source, seqs);
    after = Number(last);
  }
  await duckdb.run(
    `DELETE FROM ${family.raw} WHERE workspace_id = $workspace AND time < $cutoff AND seq <= $keepFrom`,
    old,
  );
  // The cut's bucket in each rollup, finest first (the first bucket takes Unix ms).
  for (const rollup of family.rollups) {
    const cutoff = cutOf(workspaceCut, now, rollup.keepDays);
    let bucket = "$cutoff::BIGINT";
    for (const finer of family.rollups.slice(0, family.rollups.indexOf(rollup) + 1)) bucket = finer.bucket(bucket);
    await duckdb.run(`DELETE FROM ${rollup.table} WHERE workspace_id = $workspace AND time < ${bucket}`, {
      workspace,
      cutoff,
    });
  }
  return deleted;
}

/** Deletes what every workspace's retention (and each table's own TTL) no longer reaches, as of `now`. */
export async function enforceRetention(sources: RetentionSources, now: number): Promise<RetentionResult> {
  const workspaces = sources.sqlite
    .prepare<[], { id: string; days: number }>("SELECT id, analytics_retention_days AS days FROM main.workspaces")
    .all();
  let verifications = 0;
  let ratelimitDecisions = 0;
  for (const { id, days } of workspaces) {
    const cutoff = now - days * DAY_MS;
    verifications += await deleteOld(sources, FAMILIES.verifications, id, cutoff, now);
    await deleteOldSums(sources.sqlite, id, cutoff);
    ratelimitDecisions += await deleteOld(sources, FAMILIES.ratelimits, id, cutoff, now);
  }
  return { verifications, ...(ratelimitDecisions > 0 && { ratelimitDecisions }) };
}
