import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { seedTwoWorkspaces, seedVerifications } from "./analytics-data";

/**
 * The analytics engine's clock can be pinned (AnalyticsEngineOptions.now), so that tests computing days and hours
 * agree with what a query's now() gives whatever the time they run at. Everything that reads the time reads it.
 */

// A tenth of a second before midnight, long enough ago that the host's clock would give other days and hours.
const PINNED = Date.UTC(2026, 2, 31, 23, 59, 59, 900);
const HOUR = 60 * 60 * 1000;

let db: Database;
let own: string;
let withRollup: AnalyticsEngine;
let duckOnly: AnalyticsEngine;

beforeAll(async () => {
  ({ db, own } = seedTwoWorkspaces("clock", 0));
  // One verification half an hour before the pinned instant, one in the hour before that.
  seedVerifications(db, { workspaceId: own, count: 1, keys: 1, now: PINNED - HOUR / 2, prefix: "recent" });
  seedVerifications(db, { workspaceId: own, count: 1, keys: 1, now: PINNED - HOUR - HOUR / 2, prefix: "earlier" });
  const limits = { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 };
  withRollup = await createAnalyticsEngine(db, limits, { rollup: true, now: () => PINNED });
  duckOnly = await createAnalyticsEngine(db, limits, { rollup: false, now: () => PINNED });
});

afterAll(async () => {
  await withRollup.close();
  await duckOnly.close();
  db.close();
});

async function rows(engine: AnalyticsEngine, sql: string): Promise<unknown> {
  const outcome = await engine.query(own, sql);
  if (outcome.kind !== "rows") throw new Error(`expected rows for ${sql}, got ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json);
}

describe("a pinned clock", () => {
  test("now(), now64() and today() in a query are the pinned instant", async () => {
    expect(
      await rows(
        duckOnly,
        "SELECT toUnixTimestamp64Milli(now()) AS ms, toUnixTimestamp64Milli(now64()) AS ms64, today() AS day",
      ),
    ).toEqual([{ ms: PINNED, ms64: PINNED, day: "2026-03-31" }]);
  });

  test("the retention is counted back from it", async () => {
    // 20 days before the pinned instant is far more than 30 days before the host's.
    const within = "SELECT sum(count) AS n FROM key_verifications_per_day_v1 WHERE time >= toDate('2026-03-11')";
    expect(await rows(duckOnly, within)).toEqual([{ n: 2 }]);
    const past = await duckOnly.query(
      own,
      "SELECT count(*) AS n FROM key_verifications_per_day_v1 WHERE time >= toDate('2026-02-20')",
    );
    expect(past).toMatchObject({ kind: "refused", refusal: "retention" });
  });

  test("SQLite's sums read it as DuckDB does: the last hour holds the one verification from half an hour before", async () => {
    const sql = `SELECT key_id, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = 'key_${own}_0' AND time >= now() - INTERVAL 1 HOUR GROUP BY key_id`;
    const expected = [{ key_id: `key_${own}_0`, n: 1 }];
    expect(await rows(withRollup, sql)).toEqual(expected);
    expect(await rows(duckOnly, sql)).toEqual(expected);
  });
});
