import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import type { QueryOutcome } from "../../server/analytics/query-outcome";
import { STORE_FILE } from "../../server/analytics/store-files";
import { STORE_SCHEMA_VERSION } from "../../server/analytics/store-schema";
import { openDatabase } from "../../server/db/open";
import { createWorkspace, setAnalyticsRetentionDays } from "../../server/db/workspaces";
import { runAdminInProcess } from "../support/admin-in-process";
import { seedRatelimitDecisions, seedVerifications } from "./analytics-data";

/**
 * analytics.getRatelimits' tables in the engine (#39): the rate-limit decisions copied from SQLite's
 * ratelimit_decisions by their own seq mark, beside the verifications, into ratelimits_v1 and its four rollups; each
 * query reads one family's tables, one workspace's rows, and a namespace-scoped key's namespaces only.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Noon UTC of a day long past, pinned as the engine's clock: buckets and retention read the same day whenever it runs.
const NOW = Date.UTC(2026, 5, 20, 12, 0, 0);
const ROLLUP_BUCKETS = [
  ["ratelimits_per_minute_v1", "toStartOfMinute(fromUnixTimestamp64Milli(time))"],
  ["ratelimits_per_hour_v1", "toStartOfHour(fromUnixTimestamp64Milli(time))"],
  ["ratelimits_per_day_v1", "toDate(fromUnixTimestamp64Milli(time))"],
  ["ratelimits_per_month_v1", "toStartOfMonth(fromUnixTimestamp64Milli(time))"],
] as const;

function rowsOf(outcome: QueryOutcome): Record<string, unknown>[] {
  if (outcome.kind !== "rows") throw new Error(`${outcome.kind}: ${"message" in outcome ? outcome.message : ""}`);
  return JSON.parse(outcome.json) as Record<string, unknown>[];
}

function engineOver(db: Database): Promise<AnalyticsEngine> {
  return createAnalyticsEngine(
    db,
    { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 },
    { rollup: true, catchUpEveryMs: 0, now: () => NOW },
  );
}

async function storeFile(dir: string): Promise<{ version: number; copiedSeq: number; rows: number }> {
  const instance = await DuckDBInstance.create(join(dir, STORE_FILE), { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    const [version, copied] =
      (await connection.runAndReadAll("SELECT schema_version, ratelimits_copied_seq FROM meta")).getRowsJS()[0] ?? [];
    const [count] = (await connection.runAndReadAll("SELECT count(*) FROM ratelimits")).getRowsJS()[0] ?? [];
    return { version: Number(version), copiedSeq: Number(copied), rows: Number(count) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("the decisions' tables", () => {
  let dir: string;
  let db: Database;
  let engine: AnalyticsEngine;
  let workspace: string;
  let other: string;
  const ask = (sql: string, namespaces?: string[]) => engine.queryRatelimits(workspace, sql, 30, namespaces);
  const rows = async (sql: string, namespaces?: string[]) => rowsOf(await ask(sql, namespaces));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "keyscope-ratelimit-analytics-"));
    db = openDatabase(dir);
    workspace = createWorkspace(db, "Limits");
    other = createWorkspace(db, "Other");
    engine = await engineOver(db);
    // Three copies whose rows land in the same buckets (minutes, hours, days) as the copies before: each adds to them.
    seedRatelimitDecisions(db, { workspaceId: workspace, namespaceId: "rlns_a", count: 2_000, now: NOW, prefix: "a" });
    expect((await engine.catchUp("ratelimits")).copiedSeq).toBe(2_000);
    seedRatelimitDecisions(db, {
      workspaceId: workspace,
      namespaceId: "rlns_a",
      count: 1_500,
      now: NOW - 10_000,
      stepMs: 41_000,
      identifiers: ["user_2", "user_4"],
      prefix: "b",
    });
    seedRatelimitDecisions(db, {
      workspaceId: workspace,
      namespaceId: "rlns_b",
      count: 300,
      now: NOW - 5_000,
      stepMs: 300_000,
      prefix: "c",
    });
    await engine.catchUp("ratelimits");
    seedRatelimitDecisions(db, { workspaceId: other, namespaceId: "rlns_o", count: 200, now: NOW, prefix: "o" });
    expect(await engine.catchUp("ratelimits")).toEqual({ copiedSeq: 4_000, foldedSeq: undefined });
  });

  afterAll(async () => {
    await engine.close();
    db.close();
  });

  test("ratelimits_v1 holds every decision of the workspace as recorded", async () => {
    expect(
      await rows(
        "SELECT namespace_id, count(*) AS total, countIf(passed) AS passed, sum(tokens) AS tokens FROM ratelimits_v1 GROUP BY namespace_id ORDER BY namespace_id",
      ),
    ).toEqual([
      { namespace_id: "rlns_a", total: 3_500, passed: 2_625, tokens: 6_999 },
      { namespace_id: "rlns_b", total: 300, passed: 225, tokens: 600 },
    ]);
    const [first] = await rows(
      "SELECT identifier, passed, latency, override_id, limit, remaining, reset_at, tokens FROM ratelimits_v1 WHERE request_id = 'req_a1'",
    );
    expect(first).toEqual({
      identifier: "user_2",
      passed: true,
      latency: 0.26,
      override_id: "",
      limit: 10,
      remaining: 8,
      reset_at: NOW,
      tokens: 2,
    });
  });

  test.each(ROLLUP_BUCKETS)("%s holds the raw rows' sums, bucket by bucket", async (table, bucket) => {
    const sums = await rows(
      `SELECT toString(time) AS t, namespace_id, identifier, passed, total, total_tokens, passed_tokens
       FROM ${table} ORDER BY t, namespace_id, identifier`,
    );
    const fromRaw = await rows(
      `SELECT toString(${bucket}) AS t, namespace_id, identifier, countIf(passed) AS passed, count(*) AS total,
              sum(tokens) AS total_tokens, sumIf(tokens, passed) AS passed_tokens
       FROM ratelimits_v1 GROUP BY t, namespace_id, identifier ORDER BY t, namespace_id, identifier`,
    );
    expect(sums.length).toBeGreaterThan(0);
    expect(sums).toEqual(fromRaw);
  });

  test("the rollups' latency states are there, as the real tables' columns, and no function reads them", async () => {
    const [row] = await rows("SELECT * FROM ratelimits_per_hour_v1 LIMIT 1");
    expect(Object.keys(row ?? {})).toEqual([
      "time",
      "workspace_id",
      "namespace_id",
      "identifier",
      "passed",
      "total",
      "total_tokens",
      "passed_tokens",
      "latency_avg",
      "latency_p75",
      "latency_p99",
    ]);
    for (const sql of [
      "SELECT avgMerge(latency_avg) AS average FROM ratelimits_per_hour_v1",
      "SELECT quantilesTDigestMerge(0.75)(latency_p75)[1] AS p75 FROM ratelimits_per_hour_v1",
    ]) {
      expect(await ask(sql)).toMatchObject({ kind: "refused", refusal: "function" });
    }
    // The raw table's latency is read with the documented functions, the parametric quantile as ClickHouse writes it.
    expect(
      await rows("SELECT round(avg(latency), 3) AS average, quantile(0.5)(latency) AS p50 FROM ratelimits_v1"),
    ).toEqual([{ average: expect.closeTo(0.295, 3) as unknown, p50: expect.any(Number) as unknown }]);
  });

  test("a query reads one family's tables: the other's are an invalid table", async () => {
    expect(await ask("SELECT count(*) AS n FROM key_verifications_v1")).toMatchObject({
      kind: "refused",
      refusal: "table",
      message: expect.stringContaining("only ratelimits_v1, ratelimits_per_minute_v1") as unknown,
    });
    expect(await engine.query(workspace, "SELECT count(*) AS n FROM ratelimits_per_day_v1")).toMatchObject({
      kind: "refused",
      refusal: "table",
    });
    // A CTE may take a table's name, as it may for verifications.
    expect(await rows("WITH key_verifications_v1 AS (SELECT 1 AS n) SELECT n FROM key_verifications_v1")).toEqual([
      { n: 1 },
    ]);
  });

  test("another workspace's decisions are never seen, nor a namespace's outside a narrowed key's", async () => {
    expect(await rows("SELECT count(*) AS n FROM ratelimits_v1 WHERE namespace_id = 'rlns_o'")).toEqual([{ n: 0 }]);
    const narrowed = ["rlns_b"];
    for (const sql of [
      "SELECT count(*) AS n FROM ratelimits_v1",
      "SELECT count(*) AS n FROM ratelimits_v1 WHERE namespace_id = 'rlns_a' OR 1 = 1",
      "WITH d AS (SELECT * FROM ratelimits_v1) SELECT count(*) AS n FROM d",
      "SELECT sum(total) AS n FROM ratelimits_per_minute_v1",
      "SELECT sum(total) AS n FROM ratelimits_per_month_v1",
      "SELECT count(*) AS n FROM (SELECT request_id FROM ratelimits_v1 UNION ALL SELECT request_id FROM ratelimits_v1 WHERE namespace_id = 'rlns_a')",
    ]) {
      expect(await rows(sql, narrowed), sql).toEqual([{ n: 300 }]);
    }
    expect(await rows("SELECT count(*) AS n FROM ratelimits_v1", ["rlns_unknown"])).toEqual([{ n: 0 }]);
    expect(await rows("SELECT count(*) AS n FROM ratelimits_v1", ["rlns_a", "rlns_b"])).toEqual([{ n: 3_800 }]);
  });

  test("the verifications' copy goes on beside it, each with its own mark", async () => {
    seedVerifications(db, { workspaceId: workspace, count: 30, now: NOW, prefix: "v" });
    expect(await engine.catchUp()).toEqual({ copiedSeq: 30, foldedSeq: 30 });
    expect(rowsOf(await engine.query(workspace, "SELECT count(*) AS n FROM key_verifications_v1"))).toEqual([
      { n: 30 },
    ]);
    expect(await engine.catchUp("ratelimits")).toEqual({ copiedSeq: 4_000, foldedSeq: undefined });
  });
});

describe("the store on disk", () => {
  test("holds each decision once with the seq it reaches; a restart copies only the new ones; another version's store is copied anew", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keyscope-ratelimit-store-"));
    const db = openDatabase(dir);
    const workspace = createWorkspace(db, "Limits");
    seedRatelimitDecisions(db, { workspaceId: workspace, namespaceId: "rlns_s", count: 700, now: NOW, prefix: "s" });
    let engine = await engineOver(db);
    await engine.catchUp("ratelimits");
    await engine.close();
    expect(await storeFile(dir)).toEqual({ version: STORE_SCHEMA_VERSION, copiedSeq: 700, rows: 700 });

    seedRatelimitDecisions(db, { workspaceId: workspace, namespaceId: "rlns_s", count: 50, now: NOW, prefix: "t" });
    engine = await engineOver(db);
    expect((await engine.catchUp("ratelimits")).copiedSeq).toBe(750);
    await engine.close();
    expect(await storeFile(dir)).toEqual({ version: STORE_SCHEMA_VERSION, copiedSeq: 750, rows: 750 });

    // As a store of the version before: rows missing that its mark says it holds. It is dropped and copied anew.
    const instance = await DuckDBInstance.create(join(dir, STORE_FILE));
    const connection = await instance.connect();
    await connection.run("UPDATE meta SET schema_version = 2");
    await connection.run("DELETE FROM ratelimits WHERE seq > 100");
    connection.closeSync();
    instance.closeSync();
    engine = await engineOver(db);
    expect((await engine.catchUp("ratelimits")).copiedSeq).toBe(750);
    expect(rowsOf(await engine.queryRatelimits(workspace, "SELECT count(*) AS n FROM ratelimits_v1"))).toEqual([
      { n: 750 },
    ]);
    await engine.close();
    expect(await storeFile(dir)).toEqual({ version: STORE_SCHEMA_VERSION, copiedSeq: 750, rows: 750 });
    db.close();
  });
});

describe("the admin CLI's traffic --namespace", () => {
  test("leaves the store holding every decision it recorded, so a start answers at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keyscope-ratelimit-traffic-"));
    const admin = (...args: string[]) => runAdminInProcess([...args, "--data-dir", dir]);
    expect(admin("namespaces", "create", "--name", "checkout").code).toBe(0);
    const run = admin("traffic", "--namespace", "checkout", "--days", "2", "--count", "3000");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("analytics: up to date");
    const db = openDatabase(dir);
    // The demo workspace's decisions (made at the data directory's first opening) and these.
    const newest = db.prepare<[], number>("SELECT max(seq) FROM ratelimit_decisions").pluck().get() ?? 0;
    db.close();
    expect(newest).toBeGreaterThan(3_000);
    expect(await storeFile(dir)).toEqual({ version: STORE_SCHEMA_VERSION, copiedSeq: newest, rows: newest });
  });
});

describe("retention on disk", () => {
  // Ages of each workspace's decisions, in days: past the raw table's month, the minute table's week, both.
  const AGES_DAYS = [45, 31, 29.5, 10, 6.5, 0.5];
  let db: Database;
  let engine: AnalyticsEngine;
  let month: string;
  let year: string;

  function seed(workspaceId: string, prefix: string): void {
    const insert = db.prepare(
      `INSERT INTO ratelimit_decisions (request_id, time, workspace_id, namespace_id, identifier, passed, latency,
         override_id, "limit", remaining, reset_at, tokens)
       VALUES (?, ?, ?, 'rlns_r', 'user_1', 1, 0.2, '', 10, 9, ?, 1)`,
    );
    AGES_DAYS.forEach((age, index) => insert.run(`req_${prefix}${index}`, NOW - age * DAY, workspaceId, NOW));
  }

  /** How many decisions a table counts: its rows (raw), or the sum of its totals. */
  const sum = async (workspaceId: string, table: string) => {
    const counted = table === "ratelimits_v1" ? "count(*)" : "sum(total)";
    return rowsOf(await engine.queryRatelimits(workspaceId, `SELECT ${counted} AS n FROM ${table}`, 365))[0]?.n;
  };

  beforeAll(async () => {
    db = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-ratelimit-retention-")));
    month = createWorkspace(db, "Thirty days");
    year = createWorkspace(db, "A year");
    setAnalyticsRetentionDays(db, year, 365);
    seed(month, "m");
    seed(year, "y");
    // One more decision, the newest: SQLite keeps its newest row whatever its age (the next seq follows it).
    seedRatelimitDecisions(db, { workspaceId: year, namespaceId: "rlns_r", count: 1, now: NOW, prefix: "z" });
    engine = await engineOver(db);
    await engine.catchUp("ratelimits");
  });

  afterAll(async () => {
    await engine.close();
    db.close();
  });

  test("decisions leave SQLite and each table by the workspace's retention and the real tables' own TTLs", async () => {
    expect(await sum(year, "ratelimits_per_day_v1")).toBe(7);
    // 45 and 31 days old, in both workspaces: past the raw table's month, whatever the workspace's retention.
    expect(await engine.enforceRetention()).toEqual({ verifications: 0, ratelimitDecisions: 4 });
    const ages = db
      .prepare<[number, string], number>(
        "SELECT (? - time) / 86400000.0 FROM ratelimit_decisions WHERE workspace_id = ? ORDER BY time",
      )
      .pluck();
    expect(ages.all(NOW, month)).toEqual([29.5, 10, 6.5, 0.5]);

    for (const workspaceId of [month, year]) {
      expect(await sum(workspaceId, "ratelimits_v1")).toBe(workspaceId === year ? 5 : 4);
      // A week by minute; 30 days by hour.
      expect(await sum(workspaceId, "ratelimits_per_minute_v1")).toBe(workspaceId === year ? 3 : 2);
      expect(await sum(workspaceId, "ratelimits_per_hour_v1")).toBe(workspaceId === year ? 5 : 4);
    }
    // By day, 100 days: a year-long workspace keeps its 45- and 31-day-old days; the other, its retention's.
    expect(await sum(year, "ratelimits_per_day_v1")).toBe(7);
    expect(await sum(month, "ratelimits_per_day_v1")).toBe(4);
    // Once more: nothing left to delete.
    expect(await engine.enforceRetention()).toEqual({ verifications: 0 });
  });
});
