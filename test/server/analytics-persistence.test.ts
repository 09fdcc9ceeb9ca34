import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import BetterSqlite3, { type Database } from "better-sqlite3";
import * as v from "valibot";
import { afterEach, describe, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { STORE_FILE, SUMS_FILE } from "../../server/analytics/store-files";
import { createWorkspace } from "../../server/db/workspaces";
import { DATABASE_FILE_NAME, openDatabase } from "../../server/db/open";
import { usageSql } from "../../src/features/keys/utils/usage";
import { runAdminInProcess } from "../support/admin-in-process";
import { seedVerifications } from "./analytics-data";

/**
 * The analytics store persists beside the SQLite file (#41): a new engine on the same data directory (a restart) copies
 * only the verifications recorded since the last one copied, and answers exactly as if it had copied them all.
 */

const LIMITS = { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 };
/** The engines' clock, pinned: the sums' windows and DuckDB's read the same hours whenever the test runs. */
const NOW = Date.now();
const Count = v.tuple([v.object({ n: v.number() })]);
const open: { engines: AnalyticsEngine[]; dbs: Database[] } = { engines: [], dbs: [] };

afterEach(async () => {
  for (const engine of open.engines.splice(0)) await engine.close();
  for (const db of open.dbs.splice(0)) db.close();
});

function dataDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `keyscope-persist-${name}-`));
}

function database(dir: string): Database {
  const db = openDatabase(dir);
  open.dbs.push(db);
  return db;
}

async function engineOn(db: Database): Promise<AnalyticsEngine> {
  // No copy of its own accord: each test says when.
  const engine = await createAnalyticsEngine(db, LIMITS, { rollup: true, catchUpEveryMs: 0, now: () => NOW });
  open.engines.push(engine);
  return engine;
}

async function closeEngine(engine: AnalyticsEngine): Promise<void> {
  open.engines.splice(open.engines.indexOf(engine), 1);
  await engine.close();
}

async function rows(engine: AnalyticsEngine, workspaceId: string, sql: string): Promise<unknown[]> {
  const outcome = await engine.query(workspaceId, sql);
  if (outcome.kind !== "rows") throw new Error(`${outcome.kind}: ${outcome.message}`);
  return JSON.parse(outcome.json) as unknown[];
}

/** What the store file says, read by a DuckDB of the test's own once the engine has closed it. */
async function storeFile(dir: string): Promise<{ copiedSeq: number; rows: number }> {
  const instance = await DuckDBInstance.create(join(dir, STORE_FILE), { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    const [copied] = (await connection.runAndReadAll("SELECT copied_seq FROM meta")).getRowsJS()[0] ?? [];
    const [count] = (await connection.runAndReadAll("SELECT count(*) FROM verifications")).getRowsJS()[0] ?? [];
    return { copiedSeq: Number(copied), rows: Number(count) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const BUCKETS = {
  key_verifications_per_minute_v1: "toStartOfMinute(fromUnixTimestamp64Milli(time))",
  key_verifications_per_hour_v1: "toStartOfHour(fromUnixTimestamp64Milli(time))",
  key_verifications_per_day_v1: "toDate(fromUnixTimestamp64Milli(time))",
  key_verifications_per_month_v1: "toStartOfMonth(fromUnixTimestamp64Milli(time))",
};

/** Each rollup holds exactly the raw rows' sums, one row per group. */
async function expectRollupsExact(engine: AnalyticsEngine, workspaceId: string): Promise<void> {
  const columns = "key_space_id, external_id, key_id, outcome, tags";
  for (const [table, bucket] of Object.entries(BUCKETS)) {
    const rollup = await rows(
      engine,
      workspaceId,
      `SELECT time, ${columns}, count, spent_credits FROM ${table} ORDER BY ALL`,
    );
    const raw = await rows(
      engine,
      workspaceId,
      `SELECT ${bucket} AS time, ${columns}, count(*) AS count, sum(spent_credits) AS spent_credits FROM key_verifications_v1 GROUP BY ALL ORDER BY ALL`,
    );
    expect(rollup, table).toEqual(raw);
  }
}

describe("a restart", () => {
  test("copies only what was recorded since the last copy: rows it holds are never read again", async () => {
    const dir = dataDir("restart");
    const db = database(dir);
    const workspace = createWorkspace(db, "Kept");
    seedVerifications(db, { workspaceId: workspace, count: 3_000, prefix: "first", now: NOW });
    const first = await engineOn(db);
    expect(await first.catchUp()).toEqual({ copiedSeq: 3_000, foldedSeq: 3_000 });
    await closeEngine(first);
    expect(await storeFile(dir)).toEqual({ copiedSeq: 3_000, rows: 3_000 });
    expect(existsSync(join(dir, SUMS_FILE))).toBe(true);

    // A row already copied, changed behind the store's back: a store that copied everything again would show it.
    db.prepare("UPDATE key_verifications SET outcome = 'EXPIRED' WHERE seq <= 10").run();
    seedVerifications(db, { workspaceId: workspace, count: 500, prefix: "second", now: NOW - 90_000 });
    const second = await engineOn(db);
    const count = (sql: string) => rows(second, workspace, sql).then((answer) => v.parse(Count, answer)[0].n);
    expect(await count("SELECT count(*) AS n FROM key_verifications_v1")).toBe(3_500);
    expect(await count("SELECT count(*) AS n FROM key_verifications_v1 WHERE outcome = 'EXPIRED'")).toBe(0);
    await expectRollupsExact(second, workspace);
    // The sums by key, folded on from where they were, answer the keys page's usage query from the same rows.
    const key = `key_${workspace}_0`;
    const usage = v.parse(v.array(v.object({ count: v.number() })), await rows(second, workspace, usageSql([key])));
    expect(usage.reduce((sum, row) => sum + row.count, 0)).toBe(
      await count(
        `SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id = '${key}' AND toStartOfHour(fromUnixTimestamp64Milli(time)) >= now() - INTERVAL 36 HOUR`,
      ),
    );
    await closeEngine(second);
    expect(await storeFile(dir)).toEqual({ copiedSeq: 3_500, rows: 3_500 });
  });

  test("of a data directory whose database was replaced copies the new database, not the old store", async () => {
    const dir = dataDir("replaced");
    const old = openDatabase(dir);
    const workspace = createWorkspace(old, "Old");
    seedVerifications(old, { workspaceId: workspace, count: 800, prefix: "old" });
    const engine = await engineOn(old);
    await engine.catchUp();
    await closeEngine(engine);
    old.close();

    // Another database in its place (an id of its own), with fewer verifications than the store holds.
    const other = dataDir("other");
    const fresh = openDatabase(other);
    const otherWorkspace = createWorkspace(fresh, "New");
    seedVerifications(fresh, { workspaceId: otherWorkspace, count: 50, prefix: "new" });
    fresh.close();
    for (const suffix of ["", "-wal", "-shm"]) {
      rmSync(join(dir, `${DATABASE_FILE_NAME}${suffix}`), { force: true });
      if (existsSync(join(other, `${DATABASE_FILE_NAME}${suffix}`)))
        copyFileSync(join(other, `${DATABASE_FILE_NAME}${suffix}`), join(dir, `${DATABASE_FILE_NAME}${suffix}`));
    }
    const db = database(dir);
    const restarted = await engineOn(db);
    await restarted.catchUp();
    expect(await rows(restarted, workspace, "SELECT count(*) AS n FROM key_verifications_v1")).toEqual([{ n: 0 }]);
    expect(await rows(restarted, otherWorkspace, "SELECT count(*) AS n FROM key_verifications_v1")).toEqual([
      { n: 50 },
    ]);
    await expectRollupsExact(restarted, otherWorkspace);
  });
});

describe("two engines on one data directory", () => {
  test("the second keeps a private copy, answers alike, and leaves the first's store as it was", async () => {
    const dir = dataDir("two");
    const db = database(dir);
    const workspace = createWorkspace(db, "Shared");
    seedVerifications(db, { workspaceId: workspace, count: 400, prefix: "shared" });
    const first = await engineOn(db);
    const second = await engineOn(db);
    const sql = "SELECT outcome, count(*) AS n FROM key_verifications_v1 GROUP BY outcome ORDER BY outcome";
    expect(await rows(second, workspace, sql)).toEqual(await rows(first, workspace, sql));
    await closeEngine(second);
    await closeEngine(first);
    expect(await storeFile(dir)).toEqual({ copiedSeq: 400, rows: 400 });
  });
});

describe("the admin CLI's traffic", () => {
  test("leaves the store and the sums holding every verification it recorded, so a start answers at once", async () => {
    const dir = dataDir("traffic");
    const admin = (...args: string[]) => runAdminInProcess([...args, "--data-dir", dir]);
    expect(admin("keys", "seed", "--count", "50").code).toBe(0);
    const run = admin("traffic", "--days", "3", "--count", "2000");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("analytics: up to date");
    const db = database(dir);
    const newest = db.prepare<[], number>("SELECT max(seq) FROM key_verifications").pluck().get() ?? 0;
    expect(await storeFile(dir)).toEqual({ copiedSeq: newest, rows: newest });
    const sums = new BetterSqlite3(join(dir, SUMS_FILE), { readonly: true });
    try {
      expect(sums.prepare("SELECT seq FROM folded").pluck().get()).toBe(newest);
    } finally {
      sums.close();
    }

    // With an engine of this process holding the store (as a running server would), traffic leaves the copy to it.
    const engine = await engineOn(db);
    const again = admin("traffic", "--days", "1", "--count", "100");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("the running server copies the new verifications itself");
    expect((await engine.catchUp()).copiedSeq).toBe(newest + 100);
  });
});
