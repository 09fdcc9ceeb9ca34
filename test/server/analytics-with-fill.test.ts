import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { splitWithFill } from "../../server/analytics/with-fill";
import { createWorkspace } from "../../server/db/workspaces";
import { openDatabase } from "../../server/db/open";

/** ClickHouse's ORDER BY … WITH FILL on the reference server's engine (server/analytics/with-fill.ts). */

const DAY = 24 * 60 * 60 * 1000;

let db: Database;
let engine: AnalyticsEngine;
let own: string;
let other: string;
let empty: string;

/**
 * The engine's clock, pinned to a tenth of a second before the last midnight (UTC): the days computed here and the
 * ones the queries' now() gives are the same whenever the test runs, and a clock read anywhere but the pinned one
 * would see another day.
 */
const NOW = Math.floor(Date.now() / DAY) * DAY - 100;

/** Noon (UTC) of the day `daysAgo` days before the engine's today. */
function noon(daysAgo: number): number {
  return Math.floor(NOW / DAY) * DAY - daysAgo * DAY + DAY / 2;
}

/** The UTC date `daysAgo` days before today, as the engine's JSON writes a Date. */
function day(daysAgo: number): string {
  return new Date(noon(daysAgo)).toISOString().slice(0, 10);
}

function insert(workspaceId: string, time: number, outcome: string, id: string): void {
  db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, ?, ?, '', ?, 'local', '[]', 0)`,
  ).run(id, time, workspaceId, `ks_${workspaceId}`, `key_${workspaceId}`, outcome);
}

beforeAll(async () => {
  db = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-with-fill-")));
  own = createWorkspace(db, "Own");
  other = createWorkspace(db, "Other");
  empty = createWorkspace(db, "Empty");
  // Own: two verifications 2 days ago (one VALID, one RATE_LIMITED), one VALID 5 days ago. Other: 3 days ago.
  insert(own, noon(2), "VALID", "own1");
  insert(own, noon(2) + 60_000, "RATE_LIMITED", "own2");
  insert(own, noon(5), "VALID", "own3");
  insert(other, noon(3), "VALID", "other1");
  engine = await createAnalyticsEngine(
    db,
    { ...DEFAULT_ANALYTICS_LIMITS, threads: 1, timeoutMs: 10_000 },
    { rollup: true, now: () => NOW },
  );
});

afterAll(async () => {
  await engine.close();
  db.close();
});

async function rows(workspaceId: string, sql: string): Promise<unknown[]> {
  const outcome = await engine.query(workspaceId, sql);
  if (outcome.kind !== "rows") throw new Error(`expected rows, got ${JSON.stringify(outcome)}`);
  const parsed: unknown = JSON.parse(outcome.json);
  if (!Array.isArray(parsed)) throw new Error("rows are not an array");
  return parsed.map((row: unknown) => row);
}

async function refusal(sql: string): Promise<string> {
  const outcome = await engine.query(own, sql);
  if (outcome.kind !== "refused") throw new Error(`expected a refusal, got ${JSON.stringify(outcome)}`);
  return outcome.message;
}

const DAILY = `SELECT time, SUM(count) AS total
FROM key_verifications_per_day_v1
WHERE time >= toDate(now() - INTERVAL 7 DAY) AND time <= toDate(now())
GROUP BY time`;

describe("WITH FILL over days", () => {
  test("the docs' daily example: one row a day from FROM up to TO (not included), 0 where the workspace has none", async () => {
    const sql = `${DAILY}\nORDER BY time ASC\n  WITH FILL\n  FROM toDate(now() - INTERVAL 7 DAY)\n  TO toDate(now())\n  STEP INTERVAL 1 DAY`;
    const totals: Record<number, number> = { 5: 1, 2: 2 };
    // Day 3 holds the other workspace's verification only: filled with 0 here.
    expect(await rows(own, sql)).toEqual(
      [7, 6, 5, 4, 3, 2, 1].map((ago) => ({ time: day(ago), total: totals[ago] ?? 0 })),
    );
  });

  test("every other column of a filled row is its type's default: 0 for numbers, '' for strings", async () => {
    const sql = `SELECT time, sumIf(count, outcome = 'VALID') AS valid, sumIf(count, outcome = 'RATE_LIMITED') AS rate_limited,
      min(outcome) AS first_outcome, count(*) AS groups
    FROM key_verifications_per_day_v1 WHERE time >= toDate(now() - INTERVAL 6 DAY)
    GROUP BY time ORDER BY time WITH FILL FROM toDate(now() - INTERVAL 6 DAY) TO toDate(now() - INTERVAL 1 DAY) STEP INTERVAL 1 DAY`;
    expect(await rows(own, sql)).toEqual([
      { time: day(6), valid: 0, rate_limited: 0, first_outcome: "", groups: 0 },
      { time: day(5), valid: 1, rate_limited: 0, first_outcome: "VALID", groups: 1 },
      { time: day(4), valid: 0, rate_limited: 0, first_outcome: "", groups: 0 },
      { time: day(3), valid: 0, rate_limited: 0, first_outcome: "", groups: 0 },
      { time: day(2), valid: 1, rate_limited: 1, first_outcome: "RATE_LIMITED", groups: 2 },
    ]);
  });

  test("without FROM and TO, the fill runs between the data's first and last value", async () => {
    const sql = `${DAILY} ORDER BY time WITH FILL STEP INTERVAL 1 DAY`;
    expect(await rows(own, sql)).toEqual([
      { time: day(5), total: 1 },
      { time: day(4), total: 0 },
      { time: day(3), total: 0 },
      { time: day(2), total: 2 },
    ]);
    // No STEP: a day for a Date.
    expect(await rows(own, `${DAILY} ORDER BY time WITH FILL`)).toEqual(await rows(own, sql));
  });

  test("a number as the STEP of a Date column counts days; toIntervalDay works as the INTERVAL", async () => {
    const sql = `${DAILY} ORDER BY time WITH FILL FROM toDate(now() - INTERVAL 6 DAY) TO toDate(now()) STEP 2`;
    expect(await rows(own, sql)).toEqual([
      { time: day(6), total: 0 },
      { time: day(5), total: 1 },
      { time: day(4), total: 0 },
      { time: day(2), total: 2 },
    ]);
    const interval = `${DAILY} ORDER BY time WITH FILL FROM toDate(now() - INTERVAL 6 DAY) TO toDate(now()) STEP toIntervalDay(2)`;
    expect(await rows(own, interval)).toEqual(await rows(own, sql));
  });

  test("DESC: FROM is the newest day, the step negative, and the rows come newest first", async () => {
    const sql = `${DAILY} ORDER BY time DESC WITH FILL FROM toDate(now()) TO toDate(now() - INTERVAL 4 DAY) STEP -1`;
    expect(await rows(own, sql)).toEqual([
      { time: day(0), total: 0 },
      { time: day(1), total: 0 },
      { time: day(2), total: 2 },
      { time: day(3), total: 0 },
      // Past TO, the data's own rows only.
      { time: day(5), total: 1 },
    ]);
    expect(await rows(own, sql.replace("STEP -1", "STEP toIntervalDay(-1)"))).toEqual(await rows(own, sql));
    expect(await refusal(`${DAILY} ORDER BY time DESC WITH FILL STEP INTERVAL 1 DAY`)).toContain(
      "cannot be positive for sorting in descending direction",
    );
    expect(await refusal(`${DAILY} ORDER BY time WITH FILL STEP -1`)).toContain(
      "cannot be negative for sorting in ascending direction",
    );
  });

  test("no rows: FROM and TO still give the filled rows; without them, nothing", async () => {
    const bounded = `${DAILY} ORDER BY time WITH FILL FROM toDate(now() - INTERVAL 3 DAY) TO toDate(now()) STEP INTERVAL 1 DAY`;
    expect(await rows(empty, bounded)).toEqual([3, 2, 1].map((ago) => ({ time: day(ago), total: 0 })));
    expect(await rows(empty, `${DAILY} ORDER BY time WITH FILL STEP INTERVAL 1 DAY`)).toEqual([]);
  });

  test("LIMIT counts the filled rows, as ClickHouse fills before it limits", async () => {
    const sql = `${DAILY} ORDER BY time WITH FILL FROM toDate(now() - INTERVAL 7 DAY) TO toDate(now()) STEP INTERVAL 1 DAY LIMIT 3`;
    expect(await rows(own, sql)).toEqual([7, 6, 5].map((ago) => ({ time: day(ago), total: ago === 5 ? 1 : 0 })));
  });
});

describe("WITH FILL over hours and numbers", () => {
  test("the docs' hourly example fills every hour between FROM and TO", async () => {
    const sql = `SELECT time, SUM(count) AS total FROM key_verifications_per_hour_v1
      WHERE time >= toStartOfHour(now() - INTERVAL 7 DAY) AND time <= toStartOfHour(now())
      GROUP BY time ORDER BY time ASC WITH FILL FROM toStartOfHour(now() - INTERVAL 7 DAY) TO toStartOfHour(now()) STEP INTERVAL 1 HOUR`;
    const result = await rows(own, sql);
    expect(result).toHaveLength(7 * 24);
    const nonZero = result.filter(
      (row) => typeof row === "object" && row !== null && "total" in row && row.total !== 0,
    );
    expect(nonZero).toEqual([
      { time: new Date(noon(5)).toISOString().replace("T", " ").slice(0, 19), total: 1 },
      { time: new Date(noon(2)).toISOString().replace("T", " ").slice(0, 19), total: 2 },
    ]);
  });

  test("STEP INTERVAL 1 MONTH fills the months, as the docs' monthly example asks", async () => {
    const sql = `SELECT time, SUM(count) AS total FROM key_verifications_per_month_v1 GROUP BY time
      ORDER BY time WITH FILL FROM toDate(toStartOfMonth(now() - INTERVAL 3 MONTH)) TO toDate(toStartOfMonth(now())) STEP INTERVAL 1 MONTH`;
    const now = new Date(NOW);
    const month = (year: number, monthIndex: number) =>
      new Date(Date.UTC(year, monthIndex, 1)).toISOString().slice(0, 10);
    const totals = new Map<string, number>(
      [1, 2, 3].map((ago) => [month(now.getUTCFullYear(), now.getUTCMonth() - ago), 0]),
    );
    for (const [time, count] of [
      [noon(2), 2],
      [noon(5), 1],
    ] as const) {
      const key = month(new Date(time).getUTCFullYear(), new Date(time).getUTCMonth());
      totals.set(key, (totals.get(key) ?? 0) + count);
    }
    const expected = [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([time, total]) => ({ time, total }));
    expect(await rows(own, sql)).toEqual(expected);
  });

  test("a fractional STEP, as in ClickHouse's own example (TO 5.51: 5.5 is the last step)", async () => {
    const sql =
      "SELECT CAST(1 AS FLOAT) AS n, 'a' AS s UNION ALL SELECT 4, 'b' UNION ALL SELECT 7, 'c' ORDER BY n WITH FILL FROM 0 TO 5.51 STEP 0.5";
    expect(
      (await rows(own, sql)).map((row) => (typeof row === "object" && row !== null && "n" in row ? row.n : undefined)),
    ).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 7]);
  });

  test("a number column fills by 1 without a STEP", async () => {
    expect(await rows(own, "SELECT 1 AS n, 'a' AS s UNION ALL SELECT 4, 'b' ORDER BY n WITH FILL")).toEqual([
      { n: 1, s: "a" },
      { n: 2, s: "" },
      { n: 3, s: "" },
      { n: 4, s: "b" },
    ]);
  });
});

describe("what WITH FILL keeps", () => {
  test("a FROM reaching back past the retention is allowed: it reads no data; a WHERE reaching back is still refused", async () => {
    const sql = `${DAILY} ORDER BY time WITH FILL FROM toDate(now() - INTERVAL 40 DAY) TO toDate(now() - INTERVAL 38 DAY)`;
    expect(await rows(own, sql)).toEqual([
      { time: day(40), total: 0 },
      { time: day(39), total: 0 },
      { time: day(5), total: 1 },
      { time: day(2), total: 2 },
    ]);
    const old = await engine.query(
      own,
      `SELECT time, SUM(count) AS total FROM key_verifications_per_day_v1 WHERE time >= toDate(now() - INTERVAL 60 DAY) GROUP BY time ORDER BY time WITH FILL`,
    );
    expect(outcomeRefusal(old)).toBe("retention");
  });

  test("the bounds are checked as queries: no table but the public ones, no way out of the clause", async () => {
    expect(await refusal(`${DAILY} ORDER BY time WITH FILL FROM (SELECT min(time) FROM store.per_day)`)).toContain(
      "not allowed",
    );
    expect(
      await refusal(`${DAILY} ORDER BY time WITH FILL FROM 1) AS lo, (SELECT 1 FROM store.per_day) AS x, (1`),
    ).toContain("unbalanced parentheses");
    expect(await refusal(`${DAILY} ORDER BY time WITH FILL FROM 1, (SELECT min(time) FROM store.per_day)`)).toContain(
      "not allowed",
    );
    const other_rows = await rows(
      own,
      `${DAILY} ORDER BY time WITH FILL FROM (SELECT min(time) FROM key_verifications_per_day_v1) TO toDate(now() - INTERVAL 1 DAY)`,
    );
    // The subquery reads the caller's rows only: the fill starts at its own first day, not the other workspace's.
    expect(other_rows[0]).toEqual({ time: day(5), total: 1 });
    expect(JSON.stringify(other_rows)).not.toContain(other);
  });

  test("WITH FILL elsewhere than the outer query's first ORDER BY column, and INTERPOLATE, are refused by name", async () => {
    expect(await refusal(`SELECT * FROM (${DAILY} ORDER BY time WITH FILL) AS t`)).toContain("not in a subquery");
    expect(await refusal(`${DAILY} ORDER BY total, time WITH FILL`)).toContain("first ORDER BY column");
    expect(await refusal(`${DAILY} ORDER BY time WITH FILL INTERPOLATE (total AS total)`)).toContain("INTERPOLATE");
    expect(await refusal(`${DAILY} ORDER BY time + 1 WITH FILL`)).toContain("column of the result");
  });

  test("DISTINCT stays with the data's rows", async () => {
    const sql =
      "SELECT DISTINCT time FROM key_verifications_per_day_v1 WHERE time >= toDate(now() - INTERVAL 6 DAY) ORDER BY time WITH FILL";
    expect(await rows(own, sql)).toEqual([5, 4, 3, 2].map((ago) => ({ time: day(ago) })));
  });

  test("a fill past the row limit is refused as too many rows, without making them all", async () => {
    const small = await createAnalyticsEngine(
      db,
      { ...DEFAULT_ANALYTICS_LIMITS, threads: 1, timeoutMs: 10_000, maxRows: 100 },
      { rollup: true, now: () => NOW },
    );
    try {
      const outcome = await small.query(own, "SELECT 1 AS n ORDER BY n WITH FILL TO 1000000000000");
      expect(outcome).toMatchObject({ kind: "limit", limit: "rows" });
      expect((await small.query(own, "SELECT 1 AS n ORDER BY n WITH FILL TO 100")).kind).toBe("rows");
      const seconds =
        "SELECT now() AS t ORDER BY t WITH FILL FROM toDateTime('2000-01-01 00:00:00') TO toDateTime('9000-01-01 00:00:00')";
      expect(await small.query(own, seconds)).toMatchObject({ kind: "limit", limit: "rows" });
    } finally {
      await small.close();
    }
  });

  test("WITH FILL in a string or a comment is text, not a clause", () => {
    expect(splitWithFill("SELECT 'ORDER BY x WITH FILL' AS s -- WITH FILL\n")).toEqual({ kind: "none" });
    expect(splitWithFill("SELECT a FROM t ORDER BY a DESC WITH FILL FROM f(1, 2) TO 3 STEP -1 LIMIT 5")).toEqual({
      kind: "fill",
      query: "SELECT a FROM t ORDER BY a DESC  LIMIT 5",
      clause: { from: "f(1, 2)", to: "3", step: "-1" },
    });
  });
});

function outcomeRefusal(outcome: Awaited<ReturnType<AnalyticsEngine["query"]>>): string | undefined {
  return outcome.kind === "refused" ? outcome.refusal : undefined;
}
