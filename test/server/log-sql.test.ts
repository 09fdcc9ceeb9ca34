import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { openDatabase } from "../../server/db/open";
import { parseBucketRows, parseLiveRows, parseLogRows, parseTopRows, type LogRow } from "../../src/lib/analytics-rows";
import { cursorPage, type VerificationCursor } from "../../src/lib/analytics-sql";
import { GRAIN_MS, type Grain } from "../../src/lib/analytics-grain";
import {
  LOG_COLUMNS,
  logChartQuery,
  logLiveQuery,
  logPageQuery,
  logRowQuery,
  logTopRefusedQuery,
  rangeParts,
  TOP_REFUSED,
  type LogFilter,
} from "../../src/lib/log-sql";

/**
 * The Logs page's SQL, run unchanged by the reference server's engine and parsed by the dashboard's parsers, against
 * the same rows counted by hand: every filter, range and grain gives what a plain reading of the rows gives, the
 * aggregated tables and the single verifications agreeing to the verification.
 */
const WORKSPACE = "ws_Logs1";
const OTHER_WORKSPACE = "ws_Other1";
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The engine's clock, pinned: a query's `now()` and the retention read it. */
const NOW = Date.UTC(2026, 10, 27, 14, 37, 12, 345);
const KEYS = ["key_Ant1", "key_Bee2", "key_Cat3", "key_Dog4", "key_Emu5"];
const IDENTITIES = ["", "", "org_acme", "o'brien", "app_ios"];
const REGIONS = ["us-east-1", "eu-west-1", "ap-southeast-1"];
const TAG_SETS = [[], ["path=/api/users", "method=GET"], ["path=/api/orders"], ["plan=free_tier", "path=/api/users"]];
const OUTCOMES = ["VALID", "VALID", "VALID", "RATE_LIMITED", "USAGE_EXCEEDED", "EXPIRED", "INSUFFICIENT_PERMISSIONS"];
/** A burst refused in one millisecond: the cursor's request-id tiebreak keeps it apart. */
const BURST_TIME = NOW - 2 * HOUR - 17;
const BURST = 130;

const rows: LogRow[] = [];
let sqlite: Database.Database;
let engine: AnalyticsEngine;

/** A small deterministic generator (mulberry32): the same rows on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(items: readonly T[], next: () => number): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("empty");
  return item;
}

beforeAll(async () => {
  // On disk: the engine's thread opens the database from its file.
  sqlite = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-log-sql-")));
  const insert = sqlite.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const next = random(38);
  const add = (row: LogRow, workspace = WORKSPACE) => {
    insert.run(
      row.requestId,
      row.time,
      workspace,
      row.keySpaceId,
      row.keyId,
      row.externalId,
      row.outcome,
      row.region,
      JSON.stringify(row.tags),
      row.spentCredits,
    );
    if (workspace === WORKSPACE) rows.push(row);
  };
  const row = (index: number, time: number, outcome = pick(OUTCOMES, next)): LogRow => ({
    requestId: `req_${String(index).padStart(5, "0")}x`,
    time,
    outcome,
    keyId: pick(KEYS, next),
    keySpaceId: next() < 0.5 ? "api_One1" : "api_Two2",
    externalId: pick(IDENTITIES, next),
    tags: [...pick(TAG_SETS, next)],
    region: pick(REGIONS, next),
    spentCredits: outcome === "VALID" ? 1 : 0,
    source: "api",
    appId: "",
  });
  sqlite.transaction(() => {
    for (let index = 0; index < 3000; index++) add(row(index, NOW - Math.floor(next() * 4 * DAY)));
    for (let index = 0; index < BURST; index++) add(row(10_000 + index, BURST_TIME, "RATE_LIMITED"));
    // Older than the retention, and another workspace's: in no answer.
    add(row(20_000, NOW - 40 * DAY));
    for (let index = 0; index < 50; index++) add(row(30_000 + index, NOW - HOUR), OTHER_WORKSPACE);
  })();
  engine = await createAnalyticsEngine(sqlite, DEFAULT_ANALYTICS_LIMITS, { rollup: true, now: () => NOW });
});

afterAll(async () => {
  await engine.close();
  sqlite.close();
});

async function run(sql: string): Promise<unknown[]> {
  expect(sql).not.toMatch(/SELECT \*/i);
  const outcome = await engine.query(WORKSPACE, sql);
  if (outcome.kind !== "rows") throw new Error(`refused: ${JSON.stringify(outcome)}\n${sql}`);
  return JSON.parse(outcome.json) as unknown[];
}

function matches(filter: Omit<LogFilter, "from" | "to">, row: LogRow): boolean {
  if (filter.outcomes.length > 0 && !filter.outcomes.includes(row.outcome)) return false;
  if (filter.keyIds.length > 0 && !filter.keyIds.includes(row.keyId)) return false;
  if (filter.externalId !== undefined && row.externalId !== filter.externalId) return false;
  if (filter.keySpaceId !== undefined && row.keySpaceId !== filter.keySpaceId) return false;
  if (filter.region !== undefined && row.region !== filter.region) return false;
  const tag = filter.tag;
  if (tag !== undefined) {
    const like = new RegExp(
      tag.value
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replaceAll("%", ".*")
        .replaceAll("_", "."),
      "s",
    );
    if (!row.tags.some((item) => (tag.match === "is" ? item === tag.value : like.test(item)))) return false;
  }
  return true;
}

function byNewest(a: LogRow, b: LogRow): number {
  return b.time - a.time || (a.requestId < b.requestId ? 1 : a.requestId > b.requestId ? -1 : 0);
}

function expected(filter: LogFilter): LogRow[] {
  return rows.filter((row) => row.time >= filter.from && row.time <= filter.to && matches(filter, row)).sort(byNewest);
}

const filterArbitrary = fc.record({
  outcomes: fc.subarray(["VALID", "RATE_LIMITED", "USAGE_EXCEEDED", "EXPIRED", "INSUFFICIENT_PERMISSIONS"], {
    maxLength: 2,
  }),
  keyIds: fc.subarray(KEYS, { maxLength: 2 }),
  externalId: fc.option(fc.constantFrom("org_acme", "o'brien", "nobody"), { nil: undefined }),
  keySpaceId: fc.option(fc.constantFrom("api_One1"), { nil: undefined }),
  region: fc.option(fc.constantFrom(...REGIONS), { nil: undefined }),
  tag: fc.option(
    fc.oneof(
      fc.record({ match: fc.constant("is" as const), value: fc.constantFrom("path=/api/users", "plan=free_tier") }),
      fc.record({ match: fc.constant("contains" as const), value: fc.constantFrom("users", "free_t", "/api/") }),
    ),
    { nil: undefined },
  ),
  // Any stretch of the last three days, to the millisecond.
  from: fc.integer({ min: NOW - 3 * DAY, max: NOW }),
  length: fc.integer({ min: 0, max: 3 * DAY }),
});

type Drawn = typeof filterArbitrary extends fc.Arbitrary<infer T> ? T : never;

function toFilter(drawn: Drawn): LogFilter {
  const { length, ...rest } = drawn;
  return { ...rest, to: Math.min(NOW, drawn.from + length) };
}

describe("the log's SQL on the reference engine", () => {
  test("a page is the newest rows of the filter, and paging by the cursor reads each row once, a burst in one millisecond included", async () => {
    const filter: LogFilter = { from: NOW - 3 * HOUR, to: NOW, outcomes: ["RATE_LIMITED"], keyIds: [] };
    const want = expected(filter);
    expect(want.length).toBeGreaterThan(BURST);
    const seen: string[] = [];
    let after: VerificationCursor | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = cursorPage(parseLogRows(await run(logPageQuery(filter, { after, size: 50 }))), 50);
      seen.push(...page.items.map((item) => item.requestId));
      after = page.next;
      if (after === undefined) break;
    }
    expect(seen).toEqual(want.map((row) => row.requestId));
    const first = parseLogRows(await run(logPageQuery(filter, { size: 5 })));
    expect(first[0]).toEqual(want[0]);
    expect(Object.keys((await run(logPageQuery(filter, { size: 1 })))[0] as object)).toEqual([...LOG_COLUMNS]);
  });

  test("any filter: the first page is exactly the rows a plain reading finds", async () => {
    await fc.assert(
      fc.asyncProperty(filterArbitrary, async (drawn) => {
        const filter = toFilter(drawn);
        const page = parseLogRows(await run(logPageQuery(filter, { size: 40 })));
        expect(page).toEqual(expected(filter).slice(0, 41));
      }),
      { numRuns: 40 },
    );
  });

  test("any filter, range and grain: the chart's counts per bucket and outcome are the rows', aggregated tables or not", async () => {
    await fc.assert(
      fc.asyncProperty(filterArbitrary, fc.constantFrom<Grain>("minute", "hour", "day"), async (drawn, grain) => {
        const filter = toFilter(drawn);
        const counted = new Map<string, number>();
        for (const row of parseBucketRows(await run(logChartQuery(filter, grain)))) {
          const key = `${row.bucket} ${row.outcome}`;
          counted.set(key, (counted.get(key) ?? 0) + row.total);
        }
        const want = new Map<string, number>();
        for (const row of expected(filter)) {
          const key = `${Math.floor(row.time / GRAIN_MS[grain]) * GRAIN_MS[grain]} ${row.outcome}`;
          want.set(key, (want.get(key) ?? 0) + 1);
        }
        expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(want));
      }),
      { numRuns: 60 },
    );
  });

  test("the aggregated table answers the whole grains of the range, single verifications its edges; a region reads single verifications", () => {
    const filter: LogFilter = { from: NOW - DAY - 5 * MINUTE, to: NOW, outcomes: [], keyIds: [] };
    expect(rangeParts(filter, "hour").map((part) => part.source)).toEqual(["raw", "hour", "raw"]);
    expect(rangeParts({ ...filter, from: Math.ceil(filter.from / HOUR) * HOUR }, "hour").map((p) => p.source)).toEqual([
      "hour",
      "raw",
    ]);
    expect(rangeParts({ ...filter, region: "eu-west-1" }, "hour").map((part) => part.source)).toEqual(["raw"]);
    expect(rangeParts({ ...filter, from: NOW - 10 * MINUTE }, "hour").map((part) => part.source)).toEqual(["raw"]);
    expect(logChartQuery(filter, "hour")).toContain("FROM key_verifications_per_hour_v1");
  });

  test("the keys and identities with the most refusals: ten of each, most first, ties by id", async () => {
    await fc.assert(
      fc.asyncProperty(filterArbitrary, fc.constantFrom<Grain>("minute", "hour", "day"), async (drawn, grain) => {
        const filter = toFilter(drawn);
        const top = parseTopRows(await run(logTopRefusedQuery(filter, grain)));
        const refused = expected(filter).filter((row) => row.outcome !== "VALID");
        const ranked = (of: (row: LogRow) => string) => {
          const counts = new Map<string, number>();
          for (const row of refused) if (of(row) !== "") counts.set(of(row), (counts.get(of(row)) ?? 0) + 1);
          return [...counts]
            .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1))
            .slice(0, TOP_REFUSED)
            .map(([id, refusals]) => ({ id, refusals }));
        };
        const of = (kind: string) =>
          top.filter((row) => row.kind === kind).map(({ id, refusals }) => ({ id, refusals }));
        expect(of("key")).toEqual(ranked((row) => row.keyId));
        expect(of("identity")).toEqual(ranked((row) => row.externalId));
      }),
      { numRuns: 30 },
    );
  });

  test("Live finds the rows newer than the newest shown, counts them all past its limit, and looks back for late ones", async () => {
    const filter = { from: NOW - 3 * HOUR, outcomes: [], keyIds: [] };
    const all = expected({ ...filter, to: NOW });
    const newest = all[40];
    if (newest === undefined) throw new Error("too few rows");
    const answer = parseLiveRows(await run(logLiveQuery(filter, newest, { lookbackMs: 0, limit: 10 })));
    expect(answer.newer).toBe(40);
    expect(answer.rows.map((row) => row.requestId)).toEqual(all.slice(0, 10).map((row) => row.requestId));
    const lookingBack = parseLiveRows(await run(logLiveQuery(filter, newest, { lookbackMs: HOUR, limit: 500 })));
    expect(lookingBack.newer).toBe(40);
    expect(lookingBack.rows).toEqual(all.filter((row) => row.time >= newest.time - HOUR));
  });

  test("a row by its request id, within the range", async () => {
    const target = rows[7];
    if (target === undefined) throw new Error("no rows");
    const filter: LogFilter = { from: NOW - 5 * DAY + HOUR, to: NOW, outcomes: [], keyIds: [] };
    expect(parseLogRows(await run(logRowQuery({ ...filter, from: NOW - 4 * DAY }, target.requestId)))).toEqual([
      target,
    ]);
    expect(await run(logRowQuery({ ...filter, from: target.time + 1 }, target.requestId))).toEqual([]);
  });

  test("a range further back than the retention is refused as such, by single verifications and by the aggregated tables", async () => {
    const filter: LogFilter = { from: NOW - 31 * DAY, to: NOW, outcomes: [], keyIds: [] };
    for (const sql of [
      logPageQuery(filter, { size: 10 }),
      logChartQuery({ ...filter, from: Math.ceil(filter.from / DAY) * DAY }, "day"),
      logTopRefusedQuery(filter, "hour"),
    ]) {
      const outcome = await engine.query(WORKSPACE, sql);
      expect(outcome).toMatchObject({ kind: "refused", refusal: "retention" });
    }
  });

  test("a value that is not checked never reaches the text", () => {
    const filter: LogFilter = { from: NOW - HOUR, to: NOW, outcomes: [], keyIds: [] };
    expect(() => logPageQuery({ ...filter, keyIds: ["key_1' OR 1=1"] }, { size: 1 })).toThrow();
    expect(() => logPageQuery({ ...filter, outcomes: ["VALID' OR '1"] }, { size: 1 })).toThrow();
    expect(() => logPageQuery({ ...filter, externalId: "a\\'b" }, { size: 1 })).toThrow();
    expect(() => logPageQuery({ ...filter, from: Number.NaN }, { size: 1 })).toThrow();
    expect(logPageQuery({ ...filter, externalId: "o'brien" }, { size: 1 })).toContain("external_id = 'o''brien'");
  });
});
