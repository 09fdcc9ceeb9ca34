import type { DuckDBConnection } from "@duckdb/node-api";

/**
 * The analytics store: DuckDB's database `store` (the file `analytics.duckdb` beside the SQLite file), holding two
 * families of tables, each copied from its SQLite table by `seq`: the verifications (`key_verifications`) and the
 * rate-limit decisions (`ratelimit_decisions`), each as its raw rows and their sums by minute, hour, day and month,
 * with the seq of the last row copied (a column of `meta` each), committed with the rows it counts.
 */

/** Bumped when the store's tables change: a store of another version is dropped and copied anew from SQLite. */
export const STORE_SCHEMA_VERSION = 3;

export type FamilyName = "verifications" | "ratelimits";

/** A column of a family's raw rows: how it crosses from SQLite (a field of a line of text, or JSON) into DuckDB. */
export interface RawColumn {
  /** As SQL names it (quoted where it is a keyword, as `"limit"`). */
  name: string;
  /** Its DuckDB type in the store (and the staging table). */
  type: string;
  /** Its text in a batch's line (SQLite); a free text is quoted as JSON, so that no separator can hide in it. */
  text: string;
  /** Its value from that text, `field` a DuckDB VARCHAR. */
  fromText: (field: string) => string;
  /** Its value in a row's JSON object (SQLite), the slower way a batch crosses when a line does not split. */
  json: string;
  /** Its type for DuckDB's json_transform. */
  jsonType: string | readonly string[];
}

/** A sum a rollup keeps per group: from the raw rows of a batch, and from the finer rollup's rows. */
export interface Measure {
  name: string;
  fromRows: string;
  fromSums: string;
}

export interface Rollup {
  /** The physical table, in the attached database `store`. */
  table: string;
  /** The public table a query names, whose view reads this one. */
  view: string;
  timeType: "TIMESTAMP" | "DATE";
  /** The bucket of a row of the finer rollup before it (of a Unix-ms `time` for the first), as this table's `time`. */
  bucket: (time: string) => string;
  /** As the real service's table's TTL: its buckets older than this leave it, whatever the workspace's retention. */
  keepDays?: number;
}

/** One family of tables: a SQLite table, its copy in the store, its rollups and the public tables over them. */
export interface Family {
  name: FamilyName;
  /** What its rows are, in messages: "verifications". */
  noun: string;
  /** The SQLite table the rows are copied from, by `seq` (an INTEGER PRIMARY KEY in commit order). */
  source: string;
  /** Its raw rows in the store. */
  raw: string;
  /** The public table over them. */
  rawView: string;
  /** As the real service's raw table's TTL (beside the workspace's retention), if it has a shorter one. */
  rawKeepDays?: number;
  /** The column of `store.meta` holding the seq of the last row copied. */
  mark: string;
  /** The raw columns, `seq` first and `time` (Unix ms) among them. */
  columns: readonly RawColumn[];
  /** What tells one rollup row from another beside its bucket `time`. */
  groupColumns: readonly string[];
  measures: readonly Measure[];
  /** Finest first: each one's new sums are grouped from the one before's (ClickHouse's materialized views chain alike). */
  rollups: readonly Rollup[];
  /** The column a root key narrowed to some of the workspace's rows is narrowed by (key spaces, namespaces). */
  narrowColumn: string;
  /** The public tables' views over the rows `filter` keeps (the workspace's, and maybe some key spaces' or namespaces'). */
  views: (filter: string) => string;
}

function column(name: string, type: string, options: Partial<Omit<RawColumn, "name" | "type">> = {}): RawColumn {
  return {
    name,
    type,
    text: options.text ?? name,
    fromText: options.fromText ?? ((field) => `${field}::${type}`),
    json: options.json ?? name,
    jsonType: options.jsonType ?? type,
  };
}

/** A free text, quoted as JSON in a line of text (so no separator hides in it). */
function freeText(name: string): RawColumn {
  return column(name, "VARCHAR", { text: `json_quote(${name})`, fromText: (field) => `${field}::JSON->>'$'` });
}

const id = (name: string) => column(name, "VARCHAR", { fromText: (field) => field });

/** The four rollups of a family, their tables named `<prefix>minute` … and their views `<view>_per_minute_v1` …. */
function rollupsOf(prefix: string, view: string, keepDays: Partial<Record<string, number>> = {}): Rollup[] {
  const rollup = (unit: string, timeType: Rollup["timeType"], bucket: Rollup["bucket"]): Rollup => ({
    table: `store.${prefix}${unit}`,
    view: `${view}_per_${unit}_v1`,
    timeType,
    bucket,
    ...(keepDays[unit] !== undefined && { keepDays: keepDays[unit] }),
  });
  return [
    rollup("minute", "TIMESTAMP", (ms) => `date_trunc('minute', epoch_ms(${ms}))`),
    rollup("hour", "TIMESTAMP", (minute) => `date_trunc('hour', ${minute})`),
    rollup("day", "DATE", (hour) => `CAST(${hour} AS DATE)`),
    rollup("month", "DATE", (day) => `CAST(date_trunc('month', ${day}) AS DATE)`),
  ];
}

const VERIFICATION_ROLLUPS = rollupsOf("per_", "key_verifications");

export const VERIFICATIONS: Family = {
  name: "verifications",
  noun: "verifications",
  source: "key_verifications",
  raw: "store.verifications",
  rawView: "key_verifications_v1",
  mark: "copied_seq",
  columns: [
    column("seq", "BIGINT"),
    id("request_id"),
    column("time", "BIGINT"),
    id("workspace_id"),
    id("key_space_id"),
    freeText("external_id"),
    id("key_id"),
    id("outcome"),
    freeText("region"),
    // Tags are JSON text in SQLite already.
    column("tags", "VARCHAR[]", {
      fromText: (field) => `${field}::JSON::VARCHAR[]`,
      json: "json(tags)",
      jsonType: ["VARCHAR"],
    }),
    column("spent_credits", "BIGINT"),
  ],
  groupColumns: ["workspace_id", "key_space_id", "external_id", "key_id", "outcome", "tags"],
  measures: [
    { name: "count", fromRows: "count(*)", fromSums: "sum(count)" },
    { name: "spent_credits", fromRows: "sum(spent_credits)", fromSums: "sum(spent_credits)" },
  ],
  rollups: VERIFICATION_ROLLUPS,
  narrowColumn: "key_space_id",
  views(filter) {
    // Every verification here comes from the API: source 'api', no gateway app (as key_verifications_v1 says too).
    const dimensions =
      "time, workspace_id, key_space_id, external_id, key_id, outcome, 'api' AS source, '' AS app_id, tags, count, spent_credits";
    return [
      `CREATE TEMP VIEW key_verifications_v1 AS
        SELECT request_id, time, workspace_id, key_space_id, external_id, key_id, outcome, region,
               'api' AS source, '' AS app_id, tags, spent_credits
        FROM store.verifications WHERE ${filter};`,
      ...VERIFICATION_ROLLUPS.map(
        (rollup) => `CREATE TEMP VIEW ${rollup.view} AS SELECT ${dimensions} FROM ${rollup.table} WHERE ${filter};`,
      ),
    ].join("\n");
  },
};

// The real service's tables' TTLs, in days (ratelimits_raw_v2's month read as 30 days, as the retention check reads
// a month).
const RATELIMIT_ROLLUPS = rollupsOf("ratelimits_per_", "ratelimits", { minute: 7, hour: 30, day: 100, month: 3 * 365 });

export const RATELIMITS: Family = {
  name: "ratelimits",
  noun: "rate-limit decisions",
  source: "ratelimit_decisions",
  raw: "store.ratelimits",
  rawView: "ratelimits_v1",
  rawKeepDays: 30,
  mark: "ratelimits_copied_seq",
  columns: [
    column("seq", "BIGINT"),
    id("request_id"),
    column("time", "BIGINT"),
    id("workspace_id"),
    id("namespace_id"),
    freeText("identifier"),
    column("passed", "BOOLEAN", { fromText: (field) => `${field} = '1'`, json: "json(iif(passed, 'true', 'false'))" }),
    column("latency", "DOUBLE"),
    id("override_id"),
    column('"limit"', "BIGINT"),
    column("remaining", "BIGINT"),
    column("reset_at", "BIGINT"),
    column("tokens", "BIGINT"),
  ],
  groupColumns: ["workspace_id", "namespace_id", "identifier"],
  measures: [
    { name: "passed", fromRows: "count_if(passed)", fromSums: "sum(passed)" },
    { name: "total", fromRows: "count(*)", fromSums: "sum(total)" },
    { name: "total_tokens", fromRows: "sum(tokens)", fromSums: "sum(total_tokens)" },
    {
      name: "passed_tokens",
      fromRows: "coalesce(sum(tokens) FILTER (WHERE passed), 0)",
      fromSums: "sum(passed_tokens)",
    },
  ],
  rollups: RATELIMIT_ROLLUPS,
  narrowColumn: "namespace_id",
  views(filter) {
    // The latency states (ClickHouse's avgState and quantilesTDigestState) are not kept: no function a query may call
    // reads them, on the real service either (its allow-list has no -Merge combinator), so they are NULL here.
    const sums =
      "time, workspace_id, namespace_id, identifier, passed, total, total_tokens, passed_tokens, NULL::VARCHAR AS latency_avg, NULL::VARCHAR AS latency_p75, NULL::VARCHAR AS latency_p99";
    return [
      `CREATE TEMP VIEW ratelimits_v1 AS
        SELECT request_id, time, workspace_id, namespace_id, identifier, passed, latency, override_id, "limit",
               remaining, reset_at, tokens
        FROM store.ratelimits WHERE ${filter};`,
      ...RATELIMIT_ROLLUPS.map(
        (rollup) => `CREATE TEMP VIEW ${rollup.view} AS SELECT ${sums} FROM ${rollup.table} WHERE ${filter};`,
      ),
    ].join("\n");
  },
};

export const FAMILIES: Readonly<Record<FamilyName, Family>> = { verifications: VERIFICATIONS, ratelimits: RATELIMITS };

/** The public tables a query of the family may read. */
export function publicTables(family: Family): readonly string[] {
  return [family.rawView, ...family.rollups.map((rollup) => rollup.view)];
}

/** What tells one rollup row from another: its bucket `time` and the dimensions it sums over. */
export function groupColumns(family: Family): readonly string[] {
  return ["time", ...family.groupColumns];
}

function rawTableColumns(family: Family): string {
  return family.columns.map((raw) => `${raw.name} ${raw.type}`).join(", ");
}

function createTablesSql(): string {
  const families = Object.values(FAMILIES);
  const marks = families.map((family) => `${family.mark} BIGINT`).join(", ");
  const tables = families.flatMap((family) => {
    const groups = family.groupColumns
      .map((name) => `${name} ${family.columns.find((raw) => raw.name === name)?.type ?? "VARCHAR"}`)
      .join(", ");
    const measures = family.measures.map((measure) => `${measure.name} BIGINT`).join(", ");
    return [
      `CREATE TABLE ${family.raw} (${rawTableColumns(family)});`,
      ...family.rollups.map(
        (rollup) => `CREATE TABLE ${rollup.table} (time ${rollup.timeType}, ${groups}, ${measures});`,
      ),
    ];
  });
  return `
    CREATE TABLE store.meta (schema_version INTEGER, source_id VARCHAR, ${marks});
    ${tables.join("\n")}
  `;
}

/**
 * The staging table a batch of rows crosses into before it is committed to the store (temporary, never on disk): made
 * anew for each batch and dropped after it, since rows deleted from a temporary table keep their memory.
 */
export function stageTableSql(family: Family): string {
  return `CREATE OR REPLACE TEMP TABLE stage (${rawTableColumns(family)})`;
}

/** What a batch leaves in memory: dropped once it is committed, so queries have that memory between batches. */
export const DROP_BATCH_TABLES_SQL = [
  "DROP TABLE IF EXISTS temp.stage",
  ...VERIFICATION_ROLLUPS.map((_, index) => `DROP TABLE IF EXISTS temp.delta_${index}`),
].join(";\n");

export interface StoreState {
  /** The seq of the last row of each family the store holds (with its sums). */
  copiedSeqs: Record<FamilyName, number>;
  /** Why the store was emptied at opening, if it was. */
  reset: string | undefined;
}

/**
 * Makes `store` hold this version's tables for the source database `sourceId`, whose newest row of each family is
 * `sourceMaxSeqs`: a store made for another database (a data directory whose SQLite file was replaced), by another
 * version, or ahead of its source (restored from an older backup) is emptied, to be copied anew.
 */
export async function prepareStore(
  connection: DuckDBConnection,
  sourceId: string,
  sourceMaxSeqs: Record<FamilyName, number>,
): Promise<StoreState> {
  const families = Object.values(FAMILIES);
  const tables = (
    await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = 'store'")
  ).getRowsJS();
  let reset: string | undefined;
  if (tables.length > 0) {
    const meta = tables.some(([name]) => name === "meta")
      ? (await connection.runAndReadAll("SELECT * FROM store.meta")).getRowObjectsJS()[0]
      : undefined;
    const version = meta?.schema_version;
    const copied = (family: Family) => Number(meta?.[family.mark]);
    if (version !== STORE_SCHEMA_VERSION) reset = `it was made by another version (${JSON.stringify(version ?? null)})`;
    else if (meta?.source_id !== sourceId) reset = "it was made from another database";
    else {
      const ahead = families.find((family) => copied(family) > sourceMaxSeqs[family.name]);
      if (ahead !== undefined) reset = `it holds ${ahead.noun} the database does not`;
    }
    if (reset === undefined) {
      return {
        copiedSeqs: { verifications: copied(VERIFICATIONS), ratelimits: copied(RATELIMITS) },
        reset,
      };
    }
    for (const [name] of tables) if (typeof name === "string") await connection.run(`DROP TABLE store."${name}"`);
  }
  await connection.run("BEGIN TRANSACTION");
  await connection.run(createTablesSql());
  await connection.run(
    `INSERT INTO store.meta (schema_version, source_id, ${families.map((family) => family.mark).join(", ")})
     VALUES ($version, $source, ${families.map(() => "0").join(", ")})`,
    { version: STORE_SCHEMA_VERSION, source: sourceId },
  );
  await connection.run("COMMIT");
  await connection.run("CHECKPOINT store");
  return { copiedSeqs: { verifications: 0, ratelimits: 0 }, reset };
}
