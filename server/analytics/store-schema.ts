import type { DuckDBConnection } from "@duckdb/node-api";

/**
 * The analytics store: DuckDB's database `store` (the file `analytics.duckdb` beside the SQLite file), holding the
 * verifications copied from SQLite's `key_verifications` and their sums by minute, hour, day and month, with the
 * seq of the last verification copied (`meta.copied_seq`), committed with the rows it counts.
 */

/** Bumped when the store's tables change: a store of another version is dropped and copied anew from SQLite. */
export const STORE_SCHEMA_VERSION = 2;

export interface Rollup {
  /** The physical table, in the attached database `store`. */
  table: string;
  /** The public table a query names, whose view reads this one. */
  view: string;
  timeType: "TIMESTAMP" | "DATE";
  /** The bucket of a row of the finer rollup before it (of a Unix-ms `time` for the first), as this table's `time`. */
  bucket: (time: string) => string;
}

/** Finest first: each one's new sums are grouped from the one before's (ClickHouse's materialized views chain alike). */
export const ROLLUPS: readonly Rollup[] = [
  {
    table: "store.per_minute",
    view: "key_verifications_per_minute_v1",
    timeType: "TIMESTAMP",
    bucket: (ms) => `date_trunc('minute', epoch_ms(${ms}))`,
  },
  {
    table: "store.per_hour",
    view: "key_verifications_per_hour_v1",
    timeType: "TIMESTAMP",
    bucket: (minute) => `date_trunc('hour', ${minute})`,
  },
  {
    table: "store.per_day",
    view: "key_verifications_per_day_v1",
    timeType: "DATE",
    bucket: (hour) => `CAST(${hour} AS DATE)`,
  },
  {
    table: "store.per_month",
    view: "key_verifications_per_month_v1",
    timeType: "DATE",
    bucket: (day) => `CAST(date_trunc('month', ${day}) AS DATE)`,
  },
];

/** What tells one rollup row from another: its bucket `time` and the dimensions it sums over. */
export const GROUP_COLUMNS = ["time", "workspace_id", "key_space_id", "external_id", "key_id", "outcome", "tags"];

export const RAW_COLUMNS = [
  "seq",
  "request_id",
  "time",
  "workspace_id",
  "key_space_id",
  "external_id",
  "key_id",
  "outcome",
  "region",
  "tags",
  "spent_credits",
] as const;

const RAW_TABLE_COLUMNS = `seq BIGINT, request_id VARCHAR, time BIGINT, workspace_id VARCHAR, key_space_id VARCHAR,
  external_id VARCHAR, key_id VARCHAR, outcome VARCHAR, region VARCHAR, tags VARCHAR[], spent_credits BIGINT`;

function createTablesSql(): string {
  const rollups = ROLLUPS.map(
    (rollup) => `CREATE TABLE ${rollup.table} (
      time ${rollup.timeType}, workspace_id VARCHAR, key_space_id VARCHAR, external_id VARCHAR, key_id VARCHAR,
      outcome VARCHAR, tags VARCHAR[], count BIGINT, spent_credits BIGINT
    );`,
  );
  return `
    CREATE TABLE store.meta (schema_version INTEGER, source_id VARCHAR, copied_seq BIGINT);
    CREATE TABLE store.verifications (${RAW_TABLE_COLUMNS});
    ${rollups.join("\n")}
  `;
}

/**
 * The staging table a batch of rows crosses into before it is committed to the store (temporary, never on disk): made
 * anew for each batch and dropped after it, since rows deleted from a temporary table keep their memory.
 */
export const STAGE_TABLE_SQL = `CREATE OR REPLACE TEMP TABLE stage (${RAW_TABLE_COLUMNS})`;

/** What a batch leaves in memory: dropped once it is committed, so queries have that memory between batches. */
export const DROP_BATCH_TABLES_SQL = [
  "DROP TABLE IF EXISTS temp.stage",
  ...ROLLUPS.map((_, index) => `DROP TABLE IF EXISTS temp.delta_${index}`),
].join(";\n");

export interface StoreState {
  /** The seq of the last verification the store holds (with its sums). */
  copiedSeq: number;
  /** Why the store was emptied at opening, if it was. */
  reset: string | undefined;
}

/**
 * Makes `store` hold this version's tables for the source database `sourceId`, whose newest verification is
 * `sourceMaxSeq`: a store made for another database (a data directory whose SQLite file was replaced), by another
 * version, or ahead of its source (restored from an older backup) is emptied, to be copied anew.
 */
export async function prepareStore(
  connection: DuckDBConnection,
  sourceId: string,
  sourceMaxSeq: number,
): Promise<StoreState> {
  const tables = (
    await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = 'store'")
  ).getRowsJS();
  let reset: string | undefined;
  if (tables.length > 0) {
    const meta = tables.some(([name]) => name === "meta")
      ? (await connection.runAndReadAll("SELECT schema_version, source_id, copied_seq FROM store.meta")).getRowsJS()[0]
      : undefined;
    const [version, source, copied] = meta ?? [];
    if (version !== STORE_SCHEMA_VERSION) reset = `it was made by another version (${JSON.stringify(version ?? null)})`;
    else if (source !== sourceId) reset = "it was made from another database";
    else if (Number(copied) > sourceMaxSeq) reset = "it holds verifications the database does not";
    if (reset === undefined) return { copiedSeq: Number(copied), reset };
    for (const [name] of tables) if (typeof name === "string") await connection.run(`DROP TABLE store."${name}"`);
  }
  await connection.run("BEGIN TRANSACTION");
  await connection.run(createTablesSql());
  await connection.run("INSERT INTO store.meta VALUES ($version, $source, 0)", {
    version: STORE_SCHEMA_VERSION,
    source: sourceId,
  });
  await connection.run("COMMIT");
  await connection.run("CHECKPOINT store");
  return { copiedSeq: 0, reset };
}
