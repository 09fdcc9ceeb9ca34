import { LIST, VARCHAR, type DuckDBConnection } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";

/**
 * The engine's derived copy of SQLite's `key_verifications` (the source of truth, written by any process):
 * the raw rows and four rollups in DuckDB's `store` schema, caught up by `seq`.
 */

interface Rollup {
  table: string;
  /** The bucket of a Unix-ms expression, as the public table's `time`. */
  bucket: (ms: string) => string;
  timeType: "TIMESTAMP" | "DATE";
}

export const ROLLUPS: readonly Rollup[] = [
  { table: "store.per_minute", bucket: (ms) => `date_trunc('minute', epoch_ms(${ms}))`, timeType: "TIMESTAMP" },
  { table: "store.per_hour", bucket: (ms) => `date_trunc('hour', epoch_ms(${ms}))`, timeType: "TIMESTAMP" },
  { table: "store.per_day", bucket: (ms) => `CAST(epoch_ms(${ms}) AS DATE)`, timeType: "DATE" },
  { table: "store.per_month", bucket: (ms) => `CAST(date_trunc('month', epoch_ms(${ms})) AS DATE)`, timeType: "DATE" },
];

export function storeSchemaSql(): string {
  const rollups = ROLLUPS.map(
    (rollup) => `CREATE TABLE ${rollup.table} (
      time ${rollup.timeType}, workspace_id VARCHAR, key_space_id VARCHAR, external_id VARCHAR, key_id VARCHAR,
      outcome VARCHAR, tags VARCHAR[], count BIGINT, spent_credits BIGINT
    );`,
  );
  return `
    CREATE SCHEMA store;
    CREATE TABLE store.verifications (
      seq BIGINT, request_id VARCHAR, time BIGINT, workspace_id VARCHAR, key_space_id VARCHAR, external_id VARCHAR,
      key_id VARCHAR, outcome VARCHAR, region VARCHAR, tags VARCHAR[], spent_credits BIGINT
    );
    ${rollups.join("\n")}
  `;
}

type SourceRow = [
  seq: number,
  requestId: string,
  time: number,
  workspaceId: string,
  keySpaceId: string,
  keyId: string,
  externalId: string,
  outcome: string,
  region: string,
  tags: string,
  spentCredits: number,
];

const BATCH_ROWS = 100_000;
const TAGS = LIST(VARCHAR);

function parseTags(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String) : [];
}

export interface StoreSync {
  /** Copies the rows SQLite has beyond the last one copied and refreshes the rollups they touch. */
  catchUp(): Promise<void>;
  /** The highest `seq` copied. */
  readonly lastSeq: number;
}

export function createStoreSync(sqlite: Database, connection: DuckDBConnection): StoreSync {
  const newRows = sqlite
    .prepare<[number, number], SourceRow>(
      `SELECT seq, request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits
       FROM key_verifications WHERE seq > ? ORDER BY seq LIMIT ?`,
    )
    .raw();
  const maxSeq = sqlite.prepare<[], number | null>("SELECT max(seq) FROM key_verifications").pluck();
  let lastSeq = 0;
  let running: Promise<void> | undefined;

  async function copyNewRows(): Promise<{ earliest: number; workspaces: Set<string> } | undefined> {
    let earliest = Number.POSITIVE_INFINITY;
    const workspaces = new Set<string>();
    const appender = await connection.createAppender("verifications", "store");
    for (;;) {
      const rows = newRows.all(lastSeq, BATCH_ROWS);
      for (const [seq, requestId, time, workspaceId, keySpaceId, keyId, externalId, outcome, region, tags, spent] of rows) {
        appender.appendBigInt(BigInt(seq));
        appender.appendVarchar(requestId);
        appender.appendBigInt(BigInt(time));
        appender.appendVarchar(workspaceId);
        appender.appendVarchar(keySpaceId);
        appender.appendVarchar(externalId);
        appender.appendVarchar(keyId);
        appender.appendVarchar(outcome);
        appender.appendVarchar(region);
        appender.appendList(parseTags(tags), TAGS);
        appender.appendBigInt(BigInt(spent));
        appender.endRow();
        if (time < earliest) earliest = time;
        workspaces.add(workspaceId);
      }
      const last = rows.at(-1);
      if (last !== undefined) lastSeq = last[0];
      if (rows.length < BATCH_ROWS) break;
      // Let other requests in between batches of a big copy (a first start, or another process's bulk traffic).
      await new Promise((resolve) => setImmediate(resolve));
    }
    appender.flushSync();
    appender.closeSync();
    return workspaces.size === 0 ? undefined : { earliest, workspaces };
  }

  async function refreshRollups(earliest: number, workspaces: ReadonlySet<string>): Promise<void> {
    for (const workspaceId of workspaces) {
      for (const rollup of ROLLUPS) {
        // Every bucket from the earliest new row's is recomputed from the raw rows: live traffic touches the last one.
        const firstBucket = rollup.bucket("$earliest::BIGINT");
        const parameters = { workspace: workspaceId, earliest };
        await connection.run(`DELETE FROM ${rollup.table} WHERE workspace_id = $workspace AND time >= ${firstBucket}`, parameters);
        await connection.run(
          `INSERT INTO ${rollup.table}
           SELECT ${rollup.bucket("time")} AS bucket, workspace_id, key_space_id, external_id, key_id, outcome, tags,
                  count(*), sum(spent_credits)
           FROM store.verifications
           WHERE workspace_id = $workspace AND time >= epoch_ms(CAST(${firstBucket} AS TIMESTAMP))
           GROUP BY ALL ORDER BY bucket`,
          parameters,
        );
      }
    }
  }

  async function catchUpOnce(): Promise<void> {
    // Nothing new (the common case): one indexed lookup in SQLite.
    if ((maxSeq.get() ?? 0) <= lastSeq) return;
    await connection.run("BEGIN TRANSACTION");
    try {
      const copied = await copyNewRows();
      if (copied !== undefined) await refreshRollups(copied.earliest, copied.workspaces);
      await connection.run("COMMIT");
    } catch (error) {
      await connection.run("ROLLBACK");
      throw error;
    }
  }

  return {
    get lastSeq() {
      return lastSeq;
    },
    catchUp() {
      // One copy at a time; a caller arriving during one waits for it, then checks again.
      running = (running ?? Promise.resolve()).then(catchUpOnce, catchUpOnce);
      return running;
    },
  };
}
