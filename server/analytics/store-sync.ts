import type { DuckDBConnection } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";
import { catchUpSteps } from "./catch-up-steps";

/**
 * The engine's derived copy of SQLite's `key_verifications` (the source of truth, written by any process):
 * the raw rows and four rollups in an in-memory database `store` that DuckDB compresses at each checkpoint,
 * caught up by `seq`.
 */

interface Rollup {
  table: string;
  /** The bucket of a Unix-ms expression, as the public table's `time`. */
  bucket: (ms: string) => string;
  timeType: "TIMESTAMP" | "DATE";
  /** The order rows are written in, which decides the row groups DuckDB can skip by their min and max. */
  order: string;
}

const hour = (ms: string) => `date_trunc('hour', epoch_ms(${ms}))`;

export const ROLLUPS: readonly Rollup[] = [
  {
    table: "store.per_minute",
    bucket: (ms) => `date_trunc('minute', epoch_ms(${ms}))`,
    timeType: "TIMESTAMP",
    order: "time",
  },
  { table: "store.per_hour", bucket: hour, timeType: "TIMESTAMP", order: "time" },
  // The same rows as per_hour, sorted by key: a page of keys' usage reads only their row groups, where the copy
  // sorted by time holds every key's rows of an hour together. Which copy a query reads is decided by
  // `filtersByKey`; both give every query the same answer.
  { table: "store.per_hour_by_key", bucket: hour, timeType: "TIMESTAMP", order: "workspace_id, key_id, time" },
  { table: "store.per_day", bucket: (ms) => `CAST(epoch_ms(${ms}) AS DATE)`, timeType: "DATE", order: "time" },
  {
    table: "store.per_month",
    bucket: (ms) => `CAST(date_trunc('month', epoch_ms(${ms})) AS DATE)`,
    timeType: "DATE",
    order: "time",
  },
];

export function storeSchemaSql(): string {
  const rollups = ROLLUPS.map(
    (rollup) => `CREATE TABLE ${rollup.table} (
      time ${rollup.timeType}, workspace_id VARCHAR, key_space_id VARCHAR, external_id VARCHAR, key_id VARCHAR,
      outcome VARCHAR, tags VARCHAR[], count BIGINT, spent_credits BIGINT
    );`,
  );
  return `
    CREATE TABLE store.verifications (
      seq BIGINT, request_id VARCHAR, time BIGINT, workspace_id VARCHAR, key_space_id VARCHAR, external_id VARCHAR,
      key_id VARCHAR, outcome VARCHAR, region VARCHAR, tags VARCHAR[], spent_credits BIGINT
    );
    ${rollups.join("\n")}
  `;
}

/** What tells one rollup row from another: its bucket `time` and the dimensions it sums over. */
const GROUP_COLUMNS = ["time", "workspace_id", "key_space_id", "external_id", "key_id", "outcome", "tags"] as const;

// Rows cross from SQLite to DuckDB as one JSON text per batch: SQLite writes it and DuckDB reads it natively,
// which is many times faster than a call into DuckDB per value.
const BATCH_ROWS = 20_000;
const ROWS_PER_COMMIT = 200_000;
const CHECKPOINT_AFTER_ROWS = 100_000;
/** More new rows than this are a bulk (the first start's copy): their buckets are recomputed, not added to. */
const ADD_TO_ROLLUPS_AT_MOST = 50_000;
const ROW_SHAPE = JSON.stringify({
  seq: "BIGINT",
  request_id: "VARCHAR",
  time: "BIGINT",
  workspace_id: "VARCHAR",
  key_space_id: "VARCHAR",
  external_id: "VARCHAR",
  key_id: "VARCHAR",
  outcome: "VARCHAR",
  region: "VARCHAR",
  tags: ["VARCHAR"],
  spent_credits: "BIGINT",
});

interface Batch {
  rows: string;
  lastSeq: number | null;
  count: number;
}

export interface StoreSync {
  /** The seq of the newest verification committed in SQLite now: what a query arriving now is answered from. */
  newestSeq(): number;
  /**
   * Copies the rows SQLite has beyond the last one copied, up to `upTo` (a `newestSeq()`) and no further however fast
   * new ones come, and refreshes the rollups they touch.
   */
  catchUp(upTo: number): Promise<void>;
  /** Ends the copy at its next batch; resolves once it has stopped. */
  stop(): Promise<void>;
}

export function createStoreSync(sqlite: Database, connection: DuckDBConnection): StoreSync {
  const nextBatch = sqlite.prepare<[number, number, number], Batch>(
    `SELECT json_group_array(json_object(
       'seq', seq, 'request_id', request_id, 'time', time, 'workspace_id', workspace_id, 'key_space_id', key_space_id,
       'external_id', external_id, 'key_id', key_id, 'outcome', outcome, 'region', region, 'tags', json(tags),
       'spent_credits', spent_credits)) AS rows, max(seq) AS lastSeq, count(*) AS count
     FROM (SELECT * FROM key_verifications WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?)`,
  );
  const maxSeq = sqlite.prepare<[], number | null>("SELECT max(seq) FROM key_verifications").pluck();
  let lastSeq = 0;
  // The rollups hold the sums of the copied rows up to this seq.
  let rolledUpSeq = 0;
  let uncompressedRows = 0;
  let stopped = false;

  async function inTransaction(work: () => Promise<void>): Promise<void> {
    await connection.run("BEGIN TRANSACTION");
    try {
      await work();
      await connection.run("COMMIT");
    } catch (error) {
      await connection.run("ROLLBACK");
      throw error;
    }
  }

  /** Copies up to `limit` new rows, none past `upTo`, in one transaction; resolves how many it copied. */
  async function copyNewRows(limit: number, upTo: number): Promise<number> {
    let seq = lastSeq;
    let copied = 0;
    await inTransaction(async () => {
      while (copied < limit && !stopped) {
        const batch = nextBatch.get(seq, upTo, BATCH_ROWS);
        if (batch?.lastSeq == null) break;
        await connection.run(
          "INSERT INTO store.verifications SELECT unnest(json_transform(value, $shape)) FROM json_each($rows::VARCHAR)",
          { rows: batch.rows, shape: ROW_SHAPE },
        );
        seq = batch.lastSeq;
        copied += batch.count;
      }
    });
    lastSeq = seq;
    return copied;
  }

  /** Compresses what was added since the last checkpoint, once there is enough of it to matter. */
  async function compressIfWorthIt(): Promise<void> {
    if (uncompressedRows < CHECKPOINT_AFTER_ROWS) return;
    uncompressedRows = 0;
    try {
      await connection.run("CHECKPOINT store");
    } catch {
      // A checkpoint waits for no one: with a query writing nothing but still open, it is simply tried next time.
    }
  }

  /**
   * Adds the copied rows past `from` up to `to` to the rollups: their sums by bucket are added to the rows of their
   * groups, or are new rows. Live traffic so costs the new rows, not the buckets they land in (a month's rollup
   * recomputed from its raw rows at every query made verification wait on DuckDB's threads).
   */
  async function addToRollups(from: number, to: number): Promise<void> {
    const sameGroup = GROUP_COLUMNS.map((column) => `rollup.${column} = delta.${column}`).join(" AND ");
    for (const rollup of ROLLUPS) {
      await connection.run(
        `CREATE OR REPLACE TEMP TABLE rollup_delta AS
         SELECT ${rollup.bucket("time")} AS time, workspace_id, key_space_id, external_id, key_id, outcome, tags,
                count(*) AS count, sum(spent_credits) AS spent_credits
         FROM store.verifications WHERE seq > $from AND seq <= $to GROUP BY ALL`,
        { from, to },
      );
      await connection.run(
        `UPDATE ${rollup.table} AS rollup
         SET count = rollup.count + delta.count, spent_credits = rollup.spent_credits + delta.spent_credits
         FROM rollup_delta AS delta WHERE ${sameGroup}`,
      );
      await connection.run(
        `INSERT INTO ${rollup.table}
         SELECT * FROM rollup_delta AS delta
         WHERE NOT EXISTS (SELECT 1 FROM ${rollup.table} AS rollup WHERE ${sameGroup})
         ORDER BY ${rollup.order}`,
      );
    }
    await connection.run("DROP TABLE rollup_delta");
  }

  /**
   * Recomputes, from the raw rows, every bucket from the earliest one the copied rows past `from` up to `to` land in:
   * for a bulk of rows (the first start's copy), which this sorts and writes once.
   */
  async function rebuildRollups(from: number, to: number): Promise<void> {
    const reader = await connection.runAndReadAll(
      "SELECT workspace_id, min(time) FROM store.verifications WHERE seq > $from AND seq <= $to GROUP BY workspace_id",
      { from, to },
    );
    for (const [workspaceId, time] of reader.getRowsJS()) {
      if (typeof workspaceId !== "string") continue;
      for (const rollup of ROLLUPS) {
        const firstBucket = rollup.bucket("$earliest::BIGINT");
        const parameters = { workspace: workspaceId, earliest: Number(time) };
        await connection.run(
          `DELETE FROM ${rollup.table} WHERE workspace_id = $workspace AND time >= ${firstBucket}`,
          parameters,
        );
        await connection.run(
          `INSERT INTO ${rollup.table}
           SELECT ${rollup.bucket("time")} AS time, workspace_id, key_space_id, external_id, key_id, outcome, tags,
                  count(*), sum(spent_credits)
           FROM store.verifications
           WHERE workspace_id = $workspace AND time >= epoch_ms(CAST(${firstBucket} AS TIMESTAMP))
           GROUP BY ALL ORDER BY ${rollup.order}`,
          parameters,
        );
      }
    }
  }

  async function catchUpTo(upTo: number): Promise<void> {
    // Nothing new (the common case).
    if (stopped || (upTo <= lastSeq && rolledUpSeq === lastSeq)) return;
    // A big copy (the first start, another process's bulk traffic) commits and compresses as it goes, to bound memory.
    let copiedNow = 0;
    for (;;) {
      const copied = await copyNewRows(ROWS_PER_COMMIT, upTo);
      copiedNow += copied;
      uncompressedRows += copied;
      await compressIfWorthIt();
      if (copied < ROWS_PER_COMMIT || stopped) break;
    }
    if (rolledUpSeq < lastSeq && !stopped) {
      const to = lastSeq;
      const from = rolledUpSeq;
      await inTransaction(() =>
        to - from > ADD_TO_ROLLUPS_AT_MOST ? rebuildRollups(from, to) : addToRollups(from, to),
      );
      rolledUpSeq = to;
      // The rollups took about as many rows as were copied (fewer, being sums).
      uncompressedRows += copiedNow;
      await compressIfWorthIt();
    }
  }

  let running: Promise<void> | undefined;
  const step = catchUpSteps(catchUpTo);
  return {
    newestSeq: () => maxSeq.get() ?? 0,
    catchUp(upTo) {
      running = step(upTo);
      return running;
    },
    async stop() {
      stopped = true;
      await running?.catch(() => undefined);
    },
  };
}
