import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import BetterSqlite3, { type Database } from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkQuery } from "../../server/analytics/check-query";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { attachSums, createKeyRollup, ROLLUP_ROWS } from "../../server/analytics/key-rollup";
import { SUMS_FILE } from "../../server/analytics/store-files";
import { planRollupQuery } from "../../server/analytics/key-rollup-plan";
import { createWorkspace } from "../../server/db/workspaces";
import { openDatabase } from "../../server/db/open";
import { usageQuery } from "../../src/lib/analytics-sql";
import { usageSql, usageTotalsSql } from "../../src/features/keys/utils/usage";
import { startServer } from "../support/server-process";
import { seedTwoWorkspaces, seedVerifications } from "./analytics-data";

/**
 * The questions about a few keys' per-hour sums are answered from SQLite (server/analytics/key-rollup.ts): every
 * such query must get exactly DuckDB's answer, for the caller's workspace only, and every other query must go to
 * DuckDB.
 */

/**
 * Both engines' clock, pinned: SQLite's answer and DuckDB's are read at one instant, so a row at an hour's edge of a
 * `now() - INTERVAL …` window is in both or in neither, however long apart the two answers come.
 */
const NOW = Date.now();

let db: Database;
let withRollup: AnalyticsEngine;
let duckOnly: AnalyticsEngine;
let own: string;
let other: string;
let instance: DuckDBInstance;
let parser: DuckDBConnection;

beforeAll(async () => {
  // A verification a minute for 50 hours, 7 keys, four outcomes, external ids on every 5th.
  ({ db, own, other } = seedTwoWorkspaces("key-rollup", 3000, NOW));
  const limits = { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 };
  withRollup = await createAnalyticsEngine(db, limits, { rollup: true, now: () => NOW });
  duckOnly = await createAnalyticsEngine(db, limits, { rollup: false, now: () => NOW });
  instance = await DuckDBInstance.create(":memory:");
  parser = await instance.connect();
});

afterAll(async () => {
  await withRollup.close();
  await duckOnly.close();
  parser.closeSync();
  instance.closeSync();
  db.close();
});

async function answer(engine: AnalyticsEngine, workspaceId: string, sql: string): Promise<unknown[]> {
  const outcome = await engine.query(workspaceId, sql);
  if (outcome.kind !== "rows") throw new Error(`expected rows for ${sql}, got ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json) as unknown[];
}

/** The plan key-rollup-plan.ts makes for a query, from the tree the engine checks. */
async function planOf(sql: string) {
  const text = (await parser.runAndReadAll("SELECT json_serialize_sql($sql::VARCHAR)", { sql })).value(0, 0);
  const checked = checkQuery(JSON.parse(String(text)));
  if (!checked.ok) throw new Error(`refused: ${checked.message}`);
  return planRollupQuery(checked.statement);
}

const keyId = (workspaceId: string, index: number) => `key_${workspaceId}_${index}`;
const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");
const sortedTexts = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();

describe("answered from SQLite", () => {
  test("the keys page's usage of a page of keys: the same rows as DuckDB's, current at once", async () => {
    const keys = [0, 1, 2, 3].map((index) => keyId(own, index));
    const sql = `SELECT key_id, time, outcome, SUM(count) AS count FROM key_verifications_per_hour_v1 WHERE time >= now() - INTERVAL 36 HOUR AND key_id IN (${quoted(keys)}) GROUP BY key_id, time, outcome`;
    expect(await planOf(sql)).toBeDefined();
    const fromSqlite = await answer(withRollup, own, sql);
    expect(fromSqlite.length).toBeGreaterThan(4 * 36);
    expect(sortedTexts(fromSqlite)).toEqual(sortedTexts(await answer(duckOnly, own, sql)));
    // DuckDB's TIMESTAMP text, ClickHouse's DateTime: the hour's start, UTC.
    expect(fromSqlite[0]).toMatchObject({
      key_id: keys[0],
      time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:00:00$/) as unknown,
    });

    // A verification written now is in the next answer: the sums are folded up to it first.
    const total = (rows: unknown[]) =>
      rows.reduce<number>((sum, row) => sum + Number((row as { count: number }).count), 0);
    seedVerifications(db, { workspaceId: own, count: 3, keys: 1, now: NOW, prefix: "late" });
    expect(total(await answer(withRollup, own, sql))).toBe(total(fromSqlite) + 3);
  });

  test("the dashboard's own questions about keys: a page's usage bars and totals, a key's 24-hour and 7-day charts", async () => {
    const page = [0, 1, 2, 3, 4, 5, 6].map((index) => keyId(own, index));
    // The key page's charts take only ids as the API makes them (no second underscore).
    const chartKey = "key_3ChartKey7";
    const insert = db.prepare(
      `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
       VALUES (?, ?, ?, 'ks_chart', ?, '', ?, 'local', '[]', 0)`,
    );
    for (let index = 0; index < 200; index += 1)
      insert.run(
        `req_chart${index}`,
        NOW - index * 3_000_000,
        own,
        chartKey,
        index % 3 === 0 ? "RATE_LIMITED" : "VALID",
      );
    const questions = [usageSql(page), usageTotalsSql(page), usageQuery(chartKey, "24h"), usageQuery(chartKey, "7d")];
    for (const sql of questions) {
      expect(await planOf(sql), sql).toBeDefined();
      const fromSqlite = await answer(withRollup, own, sql);
      expect(fromSqlite.length, sql).toBeGreaterThan(0);
      expect(sortedTexts(fromSqlite), sql).toEqual(sortedTexts(await answer(duckOnly, own, sql)));
    }
    // A month of a key, per day: the per-day table, DuckDB's.
    expect(await planOf(usageQuery(chartKey, "30d"))).toBeUndefined();
  });

  test("never another workspace's rows, also for its key ids", async () => {
    const theirs = [0, 1].map((index) => keyId(other, index));
    const sql = `SELECT key_id, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id IN (${quoted(theirs)}) AND time >= now() - INTERVAL 2 DAY GROUP BY key_id`;
    expect(await planOf(sql)).toBeDefined();
    expect(await answer(withRollup, own, sql)).toEqual([]);
    expect((await answer(withRollup, other, sql)).length).toBe(2);
  });

  test("generated queries of the family get DuckDB's exact answer", async () => {
    const dimensions = ["key_id", "time", "outcome", "key_space_id", "external_id"] as const;
    const query = fc.record({
      groups: fc.subarray([...dimensions], { minLength: 1 }),
      sums: fc.subarray(["count", "spent_credits"] as const),
      alias: fc.constantFrom("n", "count", "total"),
      keys: fc.subarray([0, 1, 2, 3, 4, 5, 6, 9], { minLength: 1 }),
      otherKeys: fc.boolean(),
      equalKey: fc.boolean(),
      outcomes: fc.option(fc.subarray(["VALID", "RATE_LIMITED", "USAGE_EXCEEDED", "EXPIRED"], { minLength: 1 }), {
        nil: undefined,
      }),
      externalId: fc.option(fc.constantFrom("", "user_1"), { nil: undefined }),
      since: fc.record({ amount: fc.integer({ min: 0, max: 60 }), unit: fc.constantFrom("HOUR", "MINUTE", "DAY") }),
      sinceFlipped: fc.boolean(),
      before: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
      strict: fc.boolean(),
      order: fc.option(fc.constantFrom("ASC", "DESC", ""), { nil: undefined }),
      limit: fc.option(fc.record({ rows: fc.integer({ min: 0, max: 50 }), offset: fc.integer({ min: 0, max: 20 }) }), {
        nil: undefined,
      }),
    });
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        if (q.since.unit === "DAY" && q.since.amount > 5) q.since.amount = 5;
        const sums = q.sums.map((column, index) => `sum(${column}) AS ${index === 0 ? q.alias : `${column}_sum`}`);
        const select = [...q.groups, ...sums].join(", ");
        const keys = q.equalKey
          ? [keyId(own, q.keys[0] ?? 0)]
          : [...q.keys.map((index) => keyId(own, index)), ...(q.otherKeys ? [keyId(other, 1)] : [])];
        const sinceExpression = `now() - INTERVAL ${q.since.amount} ${q.since.unit}`;
        const where = [
          q.equalKey ? `key_id = '${keys[0]}'` : `key_id IN (${quoted(keys)})`,
          q.sinceFlipped
            ? `${sinceExpression} ${q.strict ? "<" : "<="} time`
            : `time ${q.strict ? ">" : ">="} ${sinceExpression}`,
          ...(q.outcomes ? [`outcome IN (${quoted(q.outcomes)})`] : []),
          ...(q.externalId !== undefined ? [`external_id = '${q.externalId}'`] : []),
          ...(q.before !== undefined ? [`time < now() - INTERVAL ${q.before} HOUR`] : []),
        ];
        // An order over every group column is total: only then may a LIMIT pick rows, which both must pick alike.
        const total = q.order !== undefined;
        const orderBy = total ? ` ORDER BY ${q.groups.map((column) => `${column} ${q.order}`).join(", ")}` : "";
        const limit = total && q.limit ? ` LIMIT ${q.limit.rows} OFFSET ${q.limit.offset}` : "";
        const sql = `SELECT ${select} FROM key_verifications_per_hour_v1 WHERE ${where.join(" AND ")} GROUP BY ${q.groups.join(", ")}${orderBy}${limit}`;
        // Every generated query is one SQLite takes, or the comparison below would compare DuckDB with itself.
        expect(await planOf(sql), sql).toBeDefined();
        const fromSqlite = await answer(withRollup, own, sql);
        const fromDuckDb = await answer(duckOnly, own, sql);
        if (total) expect(fromSqlite, sql).toEqual(fromDuckDb);
        else expect(sortedTexts(fromSqlite), sql).toEqual(sortedTexts(fromDuckDb));
      }),
      { numRuns: 150 },
    );
    // Two engines' answers per run: a busy machine takes several times as long as an idle one.
  }, 180_000);

  test("over the row limit, the same refusal as DuckDB's", async () => {
    const limits = { ...DEFAULT_ANALYTICS_LIMITS, threads: 1, maxRows: 5 };
    const small = await createAnalyticsEngine(db, limits, { rollup: true, now: () => NOW });
    try {
      const sql = `SELECT key_id, time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = '${keyId(own, 0)}' AND time >= now() - INTERVAL 1 DAY GROUP BY key_id, time`;
      expect(await planOf(sql)).toBeDefined();
      expect(await small.query(own, sql)).toEqual({
        kind: "limit",
        limit: "rows",
        message: "The query returns more than 5 rows",
      });
      expect(await small.query(own, `${sql} ORDER BY time LIMIT 5`)).toMatchObject({ kind: "rows", rowCount: 5 });
    } finally {
      await small.close();
    }
  });
});

describe("SQLite and DuckDB alike", () => {
  test("a sum past 2^53 keeps its digits, as a string", async () => {
    const rich = createWorkspace(db, "Rich");
    const insert = db.prepare(
      `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
       VALUES (?, ?, ?, 'ks_rich', 'key_rich', '', 'VALID', 'local', '[]', ?)`,
    );
    for (let index = 0; index < 3; index += 1)
      insert.run(`req_rich${index}`, NOW - index * 1000, rich, Number.MAX_SAFE_INTEGER);
    const sql =
      "SELECT key_id, sum(spent_credits) AS n FROM key_verifications_per_hour_v1 WHERE key_id = 'key_rich' AND time >= now() - INTERVAL 1 DAY GROUP BY key_id";
    expect(await planOf(sql)).toBeDefined();
    const expected = [{ key_id: "key_rich", n: String(3n * BigInt(Number.MAX_SAFE_INTEGER)) }];
    expect(await answer(withRollup, rich, sql)).toEqual(expected);
    expect(await answer(duckOnly, rich, sql)).toEqual(expected);
  });

  test("on a host in another time zone, now() is UTC in every DuckDB connection, as the SQLite windows are", async () => {
    const server = await startServer({ env: { TZ: "America/Los_Angeles" } });
    try {
      const response = await fetch(`${server.url}/v2/analytics.getVerifications`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${server.rootKey ?? ""}` },
        body: JSON.stringify({ query: "SELECT toUnixTimestamp64Milli(now()) AS ms" }),
      });
      const body = (await response.json()) as { data: { ms: number }[] };
      // Local time read as UTC would be 8 hours off; a minute covers any slowness.
      expect(Math.abs((body.data[0]?.ms ?? 0) - Date.now())).toBeLessThan(60_000);
    } finally {
      await server.stop();
    }
  });

  test("another process holding SQLite's write lock: the sums fold all the same, and answer at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keyscope-key-rollup-lock-"));
    const fresh = openDatabase(dir);
    const workspace = createWorkspace(fresh, "Locked");
    seedVerifications(fresh, { workspaceId: workspace, count: 50, prefix: "lock" });
    // Were the fold to wait for the lock, it would wait these 20 s (in the analytics thread: the test would time out).
    fresh.pragma("busy_timeout = 20000");
    const engine = await createAnalyticsEngine(
      fresh,
      { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 },
      { rollup: true, catchUpEveryMs: 0 },
    );
    const other = new BetterSqlite3(fresh.name);
    const sums = new BetterSqlite3(join(dir, SUMS_FILE), { readonly: true });
    const foldedSeq = sums.prepare("SELECT seq FROM folded").pluck();
    try {
      const sql = `SELECT key_id, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = '${keyId(workspace, 0)}' AND time >= now() - INTERVAL 1 DAY GROUP BY key_id`;
      expect(await answer(engine, workspace, sql)).toEqual([{ key_id: keyId(workspace, 0), n: 8 }]);
      seedVerifications(fresh, { workspaceId: workspace, count: 7, keys: 1, prefix: "later" });
      other.exec("BEGIN IMMEDIATE");
      const askedAt = Date.now();
      expect(await answer(engine, workspace, sql)).toEqual([{ key_id: keyId(workspace, 0), n: 15 }]);
      // Not a speed target: the fold never waits (milliseconds on any machine), or it waits the whole busy timeout.
      expect(Date.now() - askedAt).toBeLessThan(10_000);
      // The sums are in a file of their own: folding them needs no lock of the verifications' database (#41).
      expect(foldedSeq.get()).toBe(57);
      other.exec("ROLLBACK");
    } finally {
      sums.close();
      other.close();
      await engine.close();
      fresh.close();
    }
  });
});

describe("left to DuckDB", () => {
  test("a query of the family that reads more sums than SQLite may read at once: DuckDB's answer", async () => {
    const busy = createWorkspace(db, "Busy");
    const outcomes = [
      "VALID",
      "RATE_LIMITED",
      "INVALID",
      "EXPIRED",
      "DISABLED",
      "INSUFFICIENT_PERMISSIONS",
      "FORBIDDEN",
      "USAGE_EXCEEDED",
    ];
    const keys = 12;
    const hours = Math.ceil(ROLLUP_ROWS / (keys * outcomes.length)) + 2;
    const insert = db.prepare(
      `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
       VALUES (?, ?, ?, 'ks_busy', ?, '', ?, 'local', '[]', 1)`,
    );
    let written = 0;
    db.transaction(() => {
      for (let key = 0; key < keys; key += 1) {
        for (let hour = 0; hour < hours; hour += 1) {
          for (const outcome of outcomes)
            insert.run(`req_busy${(written += 1)}`, NOW - hour * 3_600_000, busy, keyId(busy, key), outcome);
        }
      }
    })();
    const ids = Array.from({ length: keys }, (_, index) => keyId(busy, index));
    const sql = `SELECT key_id, time, outcome, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id IN (${quoted(ids)}) AND time >= now() - INTERVAL ${hours + 1} HOUR GROUP BY key_id, time, outcome`;
    expect(await planOf(sql)).toBeDefined();
    const rows = await answer(withRollup, busy, sql);
    expect(rows.length).toBeGreaterThan(ROLLUP_ROWS);
    expect(sortedTexts(rows)).toEqual(sortedTexts(await answer(duckOnly, busy, sql)));
  });

  const key = `'key_x_0'`;
  const recent = "time >= now() - INTERVAL 36 HOUR";
  test.each([
    ["no key filter", `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE ${recent} GROUP BY time`],
    [
      "no lower bound on time",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} GROUP BY time`,
    ],
    [
      "more key-hours than the budget",
      `SELECT key_id, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id IN (${Array.from({ length: 600 }, (_, index) => `'k${index}'`).join(", ")}) AND ${recent} GROUP BY key_id`,
    ],
    [
      "another table",
      `SELECT time, sum(count) AS n FROM key_verifications_per_day_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "no GROUP BY",
      `SELECT key_id, time, count FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent}`,
    ],
    [
      "count(*), which counts rows split by tags",
      `SELECT time, count(*) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "tags",
      `SELECT tags, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY tags`,
    ],
    [
      "an alias naming another column",
      `SELECT outcome AS key_id, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY outcome`,
    ],
    [
      "a sum named like a dimension",
      `SELECT time, sum(count) AS outcome FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "an unnamed sum",
      `SELECT time, sum(count) FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "OR",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE (key_id = ${key} OR outcome = 'VALID') AND ${recent} GROUP BY time`,
    ],
    [
      "a function of a column",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE lower(key_id) = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "a time of the day",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND time >= toStartOfHour(now()) GROUP BY time`,
    ],
    [
      "a fraction of an hour (a DECIMAL constant is written as its digits)",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND time >= now() - INTERVAL (1.5) HOUR GROUP BY time`,
    ],
    [
      "a fractional LIMIT",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time ORDER BY time LIMIT 2.5`,
    ],
    [
      "an interval as text",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND time >= now() - INTERVAL '36 hours' GROUP BY time`,
    ],
    [
      "HAVING",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time HAVING sum(count) > 1`,
    ],
    [
      "DISTINCT",
      `SELECT DISTINCT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "a CTE",
      `WITH k AS (SELECT * FROM key_verifications_per_hour_v1) SELECT time, sum(count) AS n FROM k WHERE key_id = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "a qualified column",
      `SELECT t.time, sum(count) AS n FROM key_verifications_per_hour_v1 t WHERE key_id = ${key} AND ${recent} GROUP BY t.time`,
    ],
    [
      "an upper-case column",
      `SELECT TIME, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY TIME`,
    ],
    [
      "ROLLUP",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY ROLLUP (time)`,
    ],
    [
      "ORDER BY NULLS FIRST",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time ORDER BY time NULLS FIRST`,
    ],
    [
      "a LIMIT expression",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time LIMIT 1 + 1`,
    ],
    [
      "EXPORT_STATE",
      `SELECT time, sum(count) EXPORT_STATE AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND ${recent} GROUP BY time`,
    ],
    [
      "more constants than SQLite binds on the main thread",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = ${key} AND outcome IN (${Array.from({ length: 1001 }, (_, index) => `'o${index}'`).join(", ")}) AND ${recent} GROUP BY time`,
    ],
    [
      "a key compared with a number",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = 1 AND ${recent} GROUP BY time`,
    ],
    [
      "not equal",
      `SELECT time, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id IN (${key}) AND outcome != 'VALID' AND ${recent} GROUP BY time`,
    ],
  ])("%s", async (_, sql) => {
    expect(await planOf(sql)).toBeUndefined();
  });
});

describe("the per-hour sums in SQLite", () => {
  test("fold every verification in, by seq and in batches, into its key's hour (also before 1970)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keyscope-key-rollup-fold-"));
    const fresh = openDatabase(dir);
    attachSums(
      fresh,
      join(dir, SUMS_FILE),
      fresh.prepare<[], string>("SELECT id FROM database_id").pluck().get() ?? "",
    );
    const rollup = createKeyRollup(fresh);
    try {
      const insert = fresh.prepare(
        `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, spent_credits)
         VALUES (?, ?, 'ws_1', 'ks_1', ?, '', ?, 'local', ?)`,
      );
      const hour = 3_600_000;
      insert.run("req_a", 5 * hour + 10, "key_1", "VALID", 1);
      insert.run("req_b", 5 * hour + hour - 1, "key_1", "VALID", 2);
      insert.run("req_c", 6 * hour, "key_1", "VALID", 1);
      insert.run("req_d", -1, "key_2", "RATE_LIMITED", 0);
      await rollup.catchUp();
      const sums = fresh
        .prepare(
          "SELECT key_id, time, outcome, count, spent_credits FROM sums.key_verifications_per_hour ORDER BY key_id, time",
        )
        .raw();
      expect(sums.all()).toEqual([
        ["key_1", 5 * hour, "VALID", 2, 3],
        ["key_1", 6 * hour, "VALID", 1, 1],
        ["key_2", -hour, "RATE_LIMITED", 1, 0],
      ]);

      // Many batches (the first takes 2,000), added to the sums already there.
      fresh.transaction(() => {
        for (let index = 0; index < 45_000; index += 1)
          insert.run(`req_bulk${index}`, 6 * hour + index, `key_${index % 3}`, "VALID", 1);
      })();
      await rollup.catchUp();
      expect(
        fresh.prepare("SELECT sum(count), sum(spent_credits) FROM sums.key_verifications_per_hour").raw().get(),
      ).toEqual([45_004, 45_004]);
      expect(
        fresh
          .prepare(
            "SELECT count, spent_credits FROM sums.key_verifications_per_hour WHERE key_id = 'key_1' AND time = ?",
          )
          .raw()
          .get(6 * hour),
      ).toEqual([15_001, 15_001]);
      expect(fresh.prepare("SELECT seq FROM sums.folded").pluck().get()).toBe(45_004);
    } finally {
      await rollup.stop();
      fresh.close();
    }
  });
});
