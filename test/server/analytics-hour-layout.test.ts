import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { rewriteLongInLists } from "../../server/analytics/in-list";
import { createWorkspace } from "../../server/db/workspaces";
import { seedTwoWorkspaces } from "./analytics-data";

/**
 * A query comparing key_id with = or IN, or a long IN list, must answer as the same query written otherwise, for the
 * caller's workspace only. (The per-hour table had a second copy sorted by key for such queries; kept up by every
 * catch-up, it cost a scan of the whole copy per batch, and is gone since the store persists: #41.)
 */

const HOUR = 60 * 60 * 1000;
const OUTCOMES = ["VALID", "RATE_LIMITED", "USAGE_EXCEEDED"] as const;

let db: Database;
let engine: AnalyticsEngine;
let own: string;
let other: string;

beforeAll(async () => {
  ({ db, own, other } = seedTwoWorkspaces("hour-layout", 300));
  engine = await createAnalyticsEngine(db, { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 });
});

afterAll(async () => {
  await engine.close();
  db.close();
});

async function rows(workspaceId: string, sql: string): Promise<Record<string, unknown>[]> {
  const outcome = await engine.query(workspaceId, sql);
  if (outcome.kind !== "rows") throw new Error(`expected rows, got ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json) as Record<string, unknown>[];
}

function sorted(list: Record<string, unknown>[]): string[] {
  return list.map((row) => JSON.stringify(row)).sort();
}

const keyList = (keys: readonly string[]) => keys.map((key) => `'${key}'`).join(", ");
/** The same rows with a key filter and without: `concat(key_id, '')` is no comparison of the column. */
const byKey = (keys: readonly string[]) =>
  `SELECT key_id, time, outcome, tags, count, spent_credits FROM key_verifications_per_hour_v1 WHERE key_id IN (${keyList(keys)})`;
const byTime = (keys: readonly string[]) =>
  `SELECT key_id, time, outcome, tags, count, spent_credits FROM key_verifications_per_hour_v1 WHERE concat(key_id, '') IN (${keyList(keys)})`;

describe("a long IN list, rewritten", () => {
  let parser: DuckDBConnection;
  let instance: DuckDBInstance;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(":memory:");
    parser = await instance.connect();
  });

  afterAll(() => {
    parser.closeSync();
    instance.closeSync();
  });

  async function tree(sql: string): Promise<unknown> {
    const text = (await parser.runAndReadAll("SELECT json_serialize_sql($sql::VARCHAR)", { sql })).value(0, 0);
    return JSON.parse(String(text));
  }

  test.each([
    [
      "16 key ids in WHERE",
      `SELECT * FROM t WHERE key_id IN (${keyList(Array.from({ length: 16 }, (_, index) => `k${index}`))})`,
      true,
    ],
    [
      "15 key ids",
      `SELECT * FROM t WHERE key_id IN (${keyList(Array.from({ length: 15 }, (_, index) => `k${index}`))})`,
      false,
    ],
    [
      "16 numbers",
      `SELECT * FROM t WHERE spent_credits IN (${Array.from({ length: 16 }, (_, index) => index).join(", ")})`,
      false,
    ],
    [
      "16 strings against time",
      `SELECT * FROM t WHERE time IN (${keyList(Array.from({ length: 16 }, () => "2026-01-01 00:00:00"))})`,
      false,
    ],
    [
      "16 key ids in the select list",
      `SELECT key_id IN (${keyList(Array.from({ length: 16 }, (_, index) => `k${index}`))}) AS x FROM t`,
      false,
    ],
  ])("a long IN list rewritten for %s: %s", async (_, sql, expected) => {
    const parsed = await tree(sql);
    rewriteLongInLists(parsed);
    expect(JSON.stringify(parsed).includes('"subquery_type":"ANY"')).toBe(expected);
  });
});

describe("a long IN list of strings", () => {
  // 20 names, 3 of them keys of this workspace: the list is long enough to be rewritten as a list constant.
  const names = (workspaceId: string) => [
    ...[0, 3, 5].map((index) => `key_${workspaceId}_${index}`),
    ...Array.from({ length: 17 }, (_, index) => `key_none_${index}`),
  ];

  test("selects the same rows as the same test written with OR, in every table", async () => {
    for (const table of ["key_verifications_v1", "key_verifications_per_hour_v1", "key_verifications_per_minute_v1"]) {
      const list = names(own);
      const inList = await rows(
        own,
        `SELECT key_id, count(*) AS n FROM ${table} WHERE key_id IN (${keyList(list)}) GROUP BY key_id`,
      );
      const ors = await rows(
        own,
        `SELECT key_id, count(*) AS n FROM ${table} WHERE ${list.map((key) => `key_id = '${key}'`).join(" OR ")} GROUP BY key_id`,
      );
      expect(sorted(inList)).toEqual(sorted(ors));
      expect(inList).toHaveLength(3);
    }
  });

  test("keeps SQL's NULL logic, in NOT and in subqueries, and an IN list in the select list and GROUP BY", async () => {
    const list = keyList(names(own));
    expect(
      await rows(
        own,
        `SELECT count(*) AS n FROM key_verifications_v1 WHERE NOT (CASE WHEN key_id <> '' THEN NULL ELSE key_id END IN (${list}))`,
      ),
    ).toEqual([{ n: 0 }]);
    const notIn = await rows(own, `SELECT count(*) AS n FROM key_verifications_v1 WHERE NOT (key_id IN (${list}))`);
    expect(notIn).toEqual([{ n: 300 - 43 - 43 - 43 }]);
    const nested = await rows(
      own,
      `SELECT count(*) AS n FROM key_verifications_v1 WHERE request_id IN (SELECT request_id FROM key_verifications_v1 WHERE key_id IN (${list}))`,
    );
    expect(nested).toEqual([{ n: 43 + 43 + 43 }]);
    const grouped = await rows(
      own,
      `SELECT key_id IN (${list}) AS listed, count(*) AS n FROM key_verifications_v1 GROUP BY key_id IN (${list}) ORDER BY listed`,
    );
    expect(grouped).toEqual([
      { listed: false, n: 300 - 129 },
      { listed: true, n: 129 },
    ]);
  });

  test("never shows another workspace's rows", async () => {
    expect(
      await rows(own, `SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id IN (${keyList(names(other))})`),
    ).toEqual([{ n: 0 }]);
  });
});

describe("the per-hour table, read with a key filter and without", () => {
  test("a key-filtered query that uses tags still gets one row per tag set", async () => {
    const tagged = await rows(
      own,
      `SELECT tags, sum(count) AS n FROM key_verifications_per_hour_v1 WHERE key_id = 'key_${own}_0' GROUP BY tags ORDER BY n`,
    );
    // Key 0 of 7 gets every 7th of 300 rows; even rows carry tags (two region tags cycling), odd ones none.
    expect(tagged.length).toBeGreaterThan(1);
    expect(tagged.some((row) => Array.isArray(row.tags) && row.tags.includes("path=/api/users"))).toBe(true);
    expect(tagged.reduce((sum, row) => sum + Number(row.n), 0)).toBe(43);
  });

  test("a key-filtered query shows only the caller's workspace, also for the other's keys", async () => {
    const ownKeys = [0, 1, 2].map((index) => `key_${own}_${index}`);
    const otherKeys = [0, 1, 2].map((index) => `key_${other}_${index}`);
    const seen = await rows(
      own,
      `SELECT DISTINCT workspace_id AS ws FROM key_verifications_per_hour_v1 WHERE key_id IN (${keyList([...ownKeys, ...otherKeys])})`,
    );
    expect(seen).toEqual([{ ws: own }]);
    expect(
      await rows(
        own,
        `SELECT count(*) AS n FROM key_verifications_per_hour_v1 WHERE key_id IN (${keyList(otherKeys)})`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      await rows(
        other,
        `SELECT DISTINCT workspace_id AS ws FROM key_verifications_per_hour_v1 WHERE key_id = '${ownKeys[0]}'`,
      ),
    ).toEqual([]);
  });

  test("on generated verifications added in batches, read either way it holds exactly the sums of the verifications", async () => {
    const verification = fc.record({
      key: fc.integer({ min: 0, max: 4 }),
      ago: fc.integer({ min: 0, max: 48 * 60 }),
      outcome: fc.constantFrom(...OUTCOMES),
      tags: fc.subarray(["plan=pro", "path=/a"]),
      credits: fc.integer({ min: 0, max: 3 }),
    });
    const now = Date.now();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(verification, { maxLength: 40 }), { minLength: 1, maxLength: 3 }),
        async (batches) => {
          run += 1;
          const workspace = createWorkspace(db, `generated ${run}`);
          const keys = [0, 1, 2, 3, 4].map((index) => `key_${workspace}_${index}`);
          const expected = new Map<string, { count: number; credits: number }>();
          const insert = db.prepare(
            `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
           VALUES (?, ?, ?, 'ks_generated', ?, '', ?, 'local', ?, ?)`,
          );
          let written = 0;
          for (const batch of batches) {
            for (const row of batch) {
              const time = now - row.ago * 60_000;
              insert.run(
                `req_${workspace}_${written}`,
                time,
                workspace,
                keys[row.key],
                row.outcome,
                JSON.stringify(row.tags),
                row.credits,
              );
              written += 1;
              const hour = new Date(Math.floor(time / HOUR) * HOUR).toISOString().slice(0, 19).replace("T", " ");
              const bucket = JSON.stringify([keys[row.key], hour, row.outcome, row.tags]);
              const sums = expected.get(bucket) ?? { count: 0, credits: 0 };
              expected.set(bucket, { count: sums.count + 1, credits: sums.credits + row.credits });
            }
            // Each batch is caught up on the next query.
            const fromKeyCopy = await rows(workspace, byKey(keys));
            const fromTimeCopy = await rows(workspace, byTime(keys));
            expect(sorted(fromKeyCopy)).toEqual(sorted(fromTimeCopy));
            const want = [...expected].map(([bucket, sums]) => {
              const [key_id, time, outcome, tags] = JSON.parse(bucket) as [string, string, string, string[]];
              return { key_id, time, outcome, tags, count: sums.count, spent_credits: sums.credits };
            });
            expect(sorted(fromKeyCopy)).toEqual(sorted(want));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
