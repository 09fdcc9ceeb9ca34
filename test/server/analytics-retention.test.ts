import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { SUMS_FILE } from "../../server/analytics/store-files";
import { createWorkspace, setAnalyticsRetentionDays } from "../../server/db/workspaces";
import { openDatabase } from "../../server/db/open";

/**
 * Retention on disk (#41): each workspace's verifications older than its retention leave SQLite, the analytics store
 * and the per-hour sums, so a server that runs for months keeps about a retention's worth of rows. A rollup's bucket
 * goes once all of it is older (the one holding the cut stays whole).
 */

const DAY = 24 * 60 * 60 * 1000;
// Noon UTC of a day long past: the cut (30 days before) falls at noon too, inside its day and its month's buckets.
const NOW = Date.UTC(2026, 5, 20, 12, 0, 0);
/** Ages of each workspace's verifications, in days. */
const AGES_DAYS = [45, 31, 30.5, 29.5, 10, 0.5];

let dir: string;
let db: Database;
let engine: AnalyticsEngine;
let month: string;
let year: string;

function seed(workspaceId: string, prefix: string): void {
  const insert = db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'api_r', ?, '', 'VALID', 'local', '[]', 1)`,
  );
  AGES_DAYS.forEach((age, index) => insert.run(`req_${prefix}${index}`, NOW - age * DAY, workspaceId, `key_${prefix}`));
}

async function rows(workspaceId: string, sql: string): Promise<unknown[]> {
  const outcome = await engine.query(workspaceId, sql, 365);
  if (outcome.kind !== "rows") throw new Error(`${outcome.kind}: ${outcome.message}`);
  return JSON.parse(outcome.json) as unknown[];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "keyscope-retention-"));
  db = openDatabase(dir);
  month = createWorkspace(db, "Thirty days");
  year = createWorkspace(db, "A year");
  setAnalyticsRetentionDays(db, year, 365);
  seed(month, "month");
  seed(year, "year");
  engine = await createAnalyticsEngine(
    db,
    { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 },
    { rollup: true, catchUpEveryMs: 0, now: () => NOW },
  );
  await engine.catchUp();
});

afterAll(async () => {
  await engine.close();
  db.close();
});

test("rows past a workspace's retention leave SQLite, the store and the sums; another workspace keeps its own", async () => {
  expect(await rows(month, "SELECT count(*) AS n FROM key_verifications_v1")).toEqual([{ n: 6 }]);
  // 45, 31 and 30.5 days old: older than the cut (30 days back, at noon, 2026-05-21 12:00).
  expect(await engine.enforceRetention()).toEqual({ verifications: 3 });

  const times = db
    .prepare<[string], number>("SELECT time FROM key_verifications WHERE workspace_id = ? ORDER BY time")
    .pluck();
  expect(times.all(month)).toEqual([29.5, 10, 0.5].map((age) => NOW - age * DAY));
  expect(times.all(year)).toHaveLength(6);

  // A query without a lower bound sees only what is kept.
  expect(await rows(month, "SELECT count(*) AS n FROM key_verifications_v1")).toEqual([{ n: 3 }]);
  expect(await rows(year, "SELECT count(*) AS n FROM key_verifications_v1")).toEqual([{ n: 6 }]);
  // A bucket goes once all of it is older than the cut: the hour of 2026-05-21 00:00 goes, its day (the cut's) stays
  // whole, and so does May (the cut's month, holding every deleted row).
  expect(await rows(month, "SELECT sum(count) AS n FROM key_verifications_per_minute_v1")).toEqual([{ n: 3 }]);
  expect(await rows(month, "SELECT sum(count) AS n FROM key_verifications_per_hour_v1")).toEqual([{ n: 3 }]);
  expect(await rows(month, "SELECT sum(count) AS n FROM key_verifications_per_day_v1")).toEqual([{ n: 4 }]);
  expect(await rows(month, "SELECT sum(count) AS n FROM key_verifications_per_month_v1")).toEqual([{ n: 6 }]);
  expect(await rows(year, "SELECT sum(count) AS n FROM key_verifications_per_day_v1")).toEqual([{ n: 6 }]);

  const sums = new BetterSqlite3(join(dir, SUMS_FILE), { readonly: true });
  try {
    const counted = sums
      .prepare<[string], number>("SELECT sum(count) FROM key_verifications_per_hour WHERE workspace_id = ?")
      .pluck();
    expect(counted.get(month)).toBe(3);
    expect(counted.get(year)).toBe(6);
  } finally {
    sums.close();
  }
  // Nothing more to delete: a second sweep deletes nothing.
  expect(await engine.enforceRetention()).toEqual({ verifications: 0 });
});

test("the newest verification stays whatever its age, so the next one's seq follows it and is copied", async () => {
  const lone = createWorkspace(db, "Idle for months");
  const newest = db.prepare<[], number>("SELECT max(seq) FROM key_verifications").pluck();
  db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES ('req_lone', ?, ?, 'api_l', 'key_lone', '', 'VALID', 'local', '[]', 0)`,
  ).run(NOW - 90 * DAY, lone);
  const last = newest.get();
  await engine.enforceRetention();
  expect(newest.get()).toBe(last);
  db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES ('req_after', ?, ?, 'api_l', 'key_lone', '', 'VALID', 'local', '[]', 0)`,
  ).run(NOW, lone);
  expect(newest.get()).toBe((last ?? 0) + 1);
  expect(await rows(lone, "SELECT request_id FROM key_verifications_v1 ORDER BY time")).toEqual([
    { request_id: "req_lone" },
    { request_id: "req_after" },
  ]);
});
