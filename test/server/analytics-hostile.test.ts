import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET_VERIFICATIONS_PATH, ERROR_KINDS, LIVENESS_PATH, type ErrorCode } from "../../src/lib/contract";
import { createWorkspace } from "../../server/db/workspaces";
import { startServer, type StartedServer } from "../support/server-process";
import { seedVerifications } from "./analytics-data";
import { asError, callApi, typeFor } from "./http";

/** Hostile analytics queries against a real server process whose rows another process (this test) writes. */

let server: StartedServer;
let key: string;
let ownWorkspace: string;
let otherWorkspace: string;
/** The own workspace's rows: the demo data's verifications and the 2,000 seeded here. */
let ownRows: number;
const outside = mkdtempSync(join(tmpdir(), "keyscope-outside-"));
const written = join(outside, "written");

beforeAll(async () => {
  server = await startServer({ args: ["--analytics-timeout", "2"] });
  const db = new Database(join(server.dataDir, "keyscope.sqlite"));
  try {
    ownWorkspace = db.prepare<[], string>("SELECT id FROM workspaces ORDER BY created_at LIMIT 1").pluck().get() ?? "";
    otherWorkspace = createWorkspace(db, "Other");
    seedVerifications(db, { workspaceId: ownWorkspace, count: 2000, prefix: "own" });
    seedVerifications(db, { workspaceId: otherWorkspace, count: 300, prefix: "other" });
    ownRows =
      db
        .prepare<[string], number>("SELECT count(*) FROM key_verifications WHERE workspace_id = ?")
        .pluck()
        .get(ownWorkspace) ?? 0;
  } finally {
    db.close();
  }
  key =
    (await server.admin(["root-key", "create", "--name", "analytics", "--permissions", "api.*.read_analytics"]))
      .split(/\s+/)
      .at(-1) ?? "";
});

afterAll(async () => {
  await server.stop();
});

const query = (sql: string) => callApi(server.url, { key, path: GET_VERIFICATIONS_PATH, body: { query: sql } });

const TABLE: ErrorCode = "err:user:bad_request:invalid_analytics_table";
const TYPE: ErrorCode = "err:user:bad_request:invalid_analytics_query_type";
const FUNCTION: ErrorCode = "err:user:bad_request:invalid_analytics_function";
const QUERY: ErrorCode = "err:user:bad_request:invalid_analytics_query";

const HOSTILE: [string, string, ErrorCode | ErrorCode[]][] = [
  ["an INSERT", "INSERT INTO key_verifications_v1 (outcome) VALUES ('VALID')", TYPE],
  ["an UPDATE", "UPDATE key_verifications_v1 SET outcome = 'VALID'", TYPE],
  ["a DELETE", "DELETE FROM key_verifications_v1", TYPE],
  ["a DROP", "DROP TABLE key_verifications_v1", TYPE],
  ["a CREATE TABLE AS", "CREATE TABLE copy AS SELECT * FROM key_verifications_v1", TYPE],
  ["a CREATE MACRO", "CREATE MACRO countIf(x) AS 1", TYPE],
  [
    "a CREATE VIEW over the physical table",
    "CREATE TEMP VIEW key_verifications_v1 AS SELECT * FROM store.verifications",
    TYPE,
  ],
  ["a SELECT then a DROP", "SELECT 1; DROP TABLE key_verifications_v1", TYPE],
  ["two SELECTs", "SELECT 1; SELECT 2", TYPE],
  ["read_csv of /etc/passwd", "SELECT * FROM read_csv('/etc/passwd')", TABLE],
  ["read_csv_auto", "SELECT * FROM read_csv_auto('/etc/passwd')", TABLE],
  ["read_parquet", "SELECT * FROM read_parquet('/tmp/x.parquet')", TABLE],
  ["read_json", "SELECT * FROM read_json('/etc/hosts')", TABLE],
  ["read_text as a table", "SELECT * FROM read_text('/etc/passwd')", TABLE],
  ["glob", "SELECT * FROM glob('/*')", TABLE],
  ["a file path as a table", "SELECT * FROM '/etc/passwd'", TABLE],
  ["duckdb_tables()", "SELECT * FROM duckdb_tables()", TABLE],
  ["duckdb_settings()", "SELECT * FROM duckdb_settings()", TABLE],
  ["query() of the physical table", "SELECT * FROM query('SELECT * FROM store.verifications')", TABLE],
  ["query_table()", "SELECT * FROM query_table('store.verifications')", TABLE],
  ["information_schema", "SELECT * FROM information_schema.tables", TABLE],
  ["pg_catalog", "SELECT * FROM pg_catalog.pg_tables", TABLE],
  ["ClickHouse's system tables", "SELECT * FROM system.tables", TABLE],
  ["sqlite_master", "SELECT * FROM sqlite_master", TABLE],
  ["the physical table by its schema", "SELECT * FROM store.verifications", TABLE],
  ["the physical table by its bare name", "SELECT * FROM verifications", TABLE],
  [
    "ClickHouse's physical name (default is a keyword here)",
    "SELECT * FROM default.key_verifications_raw_v2",
    [TABLE, QUERY],
  ],
  ["a quoted schema-qualified physical name", 'SELECT * FROM "default".key_verifications_raw_v2', TABLE],
  ["a public table by a qualified name", "SELECT * FROM temp.main.key_verifications_v1", TABLE],
  ["a catalog-qualified rollup", "SELECT * FROM memory.store.per_hour", TABLE],
  ["a CTE over the physical table", "WITH x AS (SELECT * FROM store.verifications) SELECT * FROM x", TABLE],
  [
    "a CTE that names itself to reach a physical table",
    "WITH verifications AS (SELECT * FROM verifications) SELECT * FROM verifications",
    TABLE,
  ],
  [
    "a subquery over the physical table",
    "SELECT count(*) FROM key_verifications_v1 WHERE key_id IN (SELECT key_id FROM store.verifications)",
    TABLE,
  ],
  ["a scalar subquery over a catalog", "SELECT (SELECT count(*) FROM duckdb_tables()) AS n", TABLE],
  [
    "a UNION with the physical table",
    "SELECT request_id FROM key_verifications_v1 UNION ALL SELECT request_id FROM store.verifications",
    TABLE,
  ],
  [
    "a join with a rollup's physical table",
    "SELECT * FROM key_verifications_v1 JOIN store.per_hour USING (key_id)",
    TABLE,
  ],
  ["FROM-first syntax over the physical table", "SELECT * FROM (FROM store.verifications)", TABLE],
  ["ATTACH", `ATTACH '${join(outside, "x.db")}' AS x`, TYPE],
  ["DETACH", "DETACH memory", TYPE],
  ["USE", "USE store", TYPE],
  ["COPY TO a file", `COPY (SELECT * FROM key_verifications_v1) TO '${written}'`, TYPE],
  ["EXPORT DATABASE", `EXPORT DATABASE '${written}'`, TYPE],
  ["INSTALL", "INSTALL httpfs", TYPE],
  ["LOAD", "LOAD httpfs", TYPE],
  ["PRAGMA", "PRAGMA database_list", TYPE],
  ["SET", "SET enable_external_access = true", TYPE],
  ["RESET", "RESET lock_configuration", TYPE],
  ["CALL", "CALL duckdb_settings()", TYPE],
  ["VACUUM", "VACUUM", TYPE],
  ["CHECKPOINT", "CHECKPOINT", TYPE],
  ["DESCRIBE", "DESCRIBE key_verifications_v1", [TYPE, TABLE]],
  ["SUMMARIZE", "SUMMARIZE key_verifications_v1", [TYPE, TABLE]],
  ["PIVOT", "PIVOT key_verifications_v1 ON outcome USING count(*)", [TYPE, TABLE, QUERY]],
  ["getenv", "SELECT getenv('HOME') AS home", FUNCTION],
  ["current_setting", "SELECT current_setting('memory_limit') AS limit", FUNCTION],
  ["read_text as a function", "SELECT read_text('/etc/passwd') AS text", FUNCTION],
  ["version()", "SELECT version() AS v", FUNCTION],
  ["a lambda calling getenv", "SELECT arrayFilter(x -> getenv('HOME') = x, tags) FROM key_verifications_v1", FUNCTION],
  ["repeat to blow up memory", "SELECT repeat('x', 1000000000) AS x", FUNCTION],
  ["a function by a schema", "SELECT main.getenv('HOME')", FUNCTION],
  ["a recursive CTE", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r", QUERY],
  ["a huge number literal", `SELECT ${"9".repeat(5000)}::HUGEINT AS n`, QUERY],
  ["a huge string literal", `SELECT '${"x".repeat(70_000)}' AS s`, "err:user:bad_request:invalid_analytics_query"],
  ["a parameter", "SELECT $1", QUERY],
  ["unparsable SQL", "SELEC * FROM key_verifications_v1", QUERY],
  [
    "a cross join that runs forever",
    "SELECT count(*) FROM key_verifications_v1 a, key_verifications_v1 b, key_verifications_v1 c WHERE concat(a.request_id, b.request_id, c.request_id) = 'x'",
    "err:user:unprocessable_entity:query_execution_timeout",
  ],
];

describe("hostile analytics queries", () => {
  test(`the table holds at least 40 queries (${HOSTILE.length})`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
  });

  test.each(HOSTILE)("%s gets its envelope and the server keeps answering", async (_, sql, expected) => {
    const answer = await query(sql);
    const codes = Array.isArray(expected) ? expected : [expected];
    const envelope = asError(answer);
    expect(codes.map((code) => typeFor(server.url, code))).toContain(envelope.error.type);
    expect(envelope.error.status).toBe(answer.status);
    expect([400, 422]).toContain(answer.status);
    expect(answer.status).toBe(
      ERROR_KINDS[codes.find((code) => typeFor(server.url, code) === envelope.error.type) ?? QUERY].status,
    );
    if (answer.status === 400) expect(envelope.error.errors).toBeInstanceOf(Array);
    expect(answer.text).not.toContain(otherWorkspace);
    expect(answer.text).not.toContain("root:");
    expect((await callApi(server.url, { path: LIVENESS_PATH, method: "GET" })).status).toBe(200);
  });

  test("nothing was written outside, and the server still answers queries with only its own rows", async () => {
    expect(existsSync(written)).toBe(false);
    expect(existsSync(join(outside, "x.db"))).toBe(false);
    const answer = await query("SELECT workspace_id, count(*) AS n FROM key_verifications_v1 GROUP BY workspace_id");
    expect(answer.status).toBe(200);
    expect(ownRows).toBeGreaterThanOrEqual(2000);
    expect(answer.json).toMatchObject({ data: [{ workspace_id: ownWorkspace, n: ownRows }] });
  });
});
