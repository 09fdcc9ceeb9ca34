import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import {
  GET_VERIFICATIONS_PATH,
  ERROR_KINDS,
  LIVENESS_PATH,
  MAX_ANALYTICS_QUERY_LENGTH,
  type ErrorCode,
} from "../../src/lib/contract";
import {
  createAnalyticsEngine,
  DEFAULT_ANALYTICS_LIMITS,
  type AnalyticsEngine,
  type AnalyticsLimits,
} from "../../server/analytics/engine";
import { createApp } from "../../server/app";
import { createKeyStore } from "../../server/db/key-store";
import { createRootKey } from "../../server/db/root-keys";
import { createWorkspace } from "../../server/db/workspaces";
import { hashSecret, secretStart } from "../../server/keys/secrets";
import { openDatabase } from "../../server/db/open";
import { createRateLimiter, type RateLimit } from "../../server/auth/rate-limit";
import { seedVerifications } from "./analytics-data";

/** In-process: the app with a real engine over a real SQLite file, with limits small enough to reach in a test. */

const READ_ANALYTICS = ["api.*.read_analytics"];
const HOUR = 60 * 60 * 1000;

interface Answer {
  status: number;
  headers: Headers;
  json: unknown;
}

const Rows = v.object({ meta: v.object({ requestId: v.string() }), data: v.array(v.record(v.string(), v.unknown())) });
const ErrorAnswer = v.object({
  meta: v.object({ requestId: v.string() }),
  error: v.object({
    detail: v.string(),
    status: v.number(),
    title: v.string(),
    type: v.string(),
    errors: v.optional(v.array(v.object({ location: v.string(), message: v.string() }))),
  }),
});

function rowsOf(answer: Answer): Record<string, unknown>[] {
  if (answer.status !== 200) throw new Error(`expected rows, got ${answer.status}: ${JSON.stringify(answer.json)}`);
  return v.parse(Rows, answer.json).data;
}

function expectError(answer: Answer, code: ErrorCode) {
  const kind = ERROR_KINDS[code];
  const envelope = v.parse(ErrorAnswer, answer.json);
  expect({ status: answer.status, type: envelope.error.type }).toEqual({
    status: kind.status,
    type: expect.stringMatching(new RegExp(`/errors/${code.split(":").slice(1).join("/")}$`)) as unknown,
  });
  if (kind.status === 400) expect(envelope.error.errors).toBeInstanceOf(Array);
  return envelope.error;
}

interface Harness {
  db: Database;
  engine: AnalyticsEngine;
  call(key: string, body: unknown, path?: string): Promise<Answer>;
  close(): Promise<void>;
}

async function harness(limits: Partial<AnalyticsLimits> = {}, quota?: RateLimit): Promise<Harness> {
  // Every harness on a database of its own: the rate limiter attaches its file to the connection once.
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-analytics-"));
  const database = openDatabase(dataDir);
  seedWorkspaces(database);
  const engine = await createAnalyticsEngine(database, { ...DEFAULT_ANALYTICS_LIMITS, threads: 1, ...limits });
  const app = createApp({
    mode: { kind: "direct", store: createKeyStore(database), rateLimiter: createRateLimiter(database, dataDir) },
    distDir: dataDir,
    analytics: { engine, ...(quota !== undefined && { quota }) },
  });
  return {
    db: database,
    engine,
    async call(key, body, path = GET_VERIFICATIONS_PATH) {
      const response = await app.request(path, {
        method: path === LIVENESS_PATH ? "GET" : "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(path !== LIVENESS_PATH && { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
      return { status: response.status, headers: response.headers, json: await response.json() };
    },
    async close() {
      await engine.close();
      database.close();
    },
  };
}

let h: Harness;
let workspaceA: string;
let workspaceB: string;
let keyA: string;
let keyB: string;

const KEY_A = "ks_root_AnalyticsTestKeyA1111111111";
const KEY_B = "ks_root_AnalyticsTestKeyB1111111111";

/** A root key with a chosen secret, so that one key works in every harness's database. */
function insertRootKey(db: Database, workspaceId: string, secret: string): string {
  db.prepare(
    `INSERT INTO root_keys (id, workspace_id, name, start, hash, permissions, created_at) VALUES (?, ?, 'analytics', ?, ?, ?, ?)`,
  ).run(
    `key_${workspaceId.slice(3)}`,
    workspaceId,
    secretStart(secret),
    hashSecret(secret),
    JSON.stringify(READ_ANALYTICS),
    Date.now(),
  );
  return secret;
}

/** Two workspaces with their verifications and a reading root key each, the same in every harness's database. */
function seedWorkspaces(db: Database): void {
  const ids = new Map([
    ["A", "ws_AnalyticsTestA"],
    ["B", "ws_AnalyticsTestB"],
  ]);
  const insert = db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)");
  for (const [name, id] of ids) insert.run(id, name, Date.now());
  workspaceA = ids.get("A") ?? "";
  workspaceB = ids.get("B") ?? "";
  seedVerifications(db, { workspaceId: workspaceA, count: 2000, prefix: "a" });
  seedVerifications(db, { workspaceId: workspaceB, count: 500, prefix: "b" });
  keyA = insertRootKey(db, workspaceA, KEY_A);
  keyB = insertRootKey(db, workspaceB, KEY_B);
}

beforeAll(async () => {
  h = await harness({ memoryLimitBytes: 64 * 1024 ** 2, maxRows: 100_000 });
});

afterAll(async () => {
  await h.close();
});

const query = (key: string, sql: string) => h.call(key, { query: sql });

describe("the contract's examples run unchanged", () => {
  test("outcomes of the last 30 days from the per-day table", async () => {
    const rows = rowsOf(
      await query(
        keyA,
        "SELECT outcome, SUM(count) AS n FROM key_verifications_per_day_v1 WHERE time >= now() - INTERVAL 30 DAY GROUP BY outcome",
      ),
    );
    expect(rows.map((row) => [row.outcome, row.n]).sort()).toEqual([
      ["DISABLED", 500],
      ["RATE_LIMITED", 500],
      ["USAGE_EXCEEDED", 500],
      ["VALID", 500],
    ]);
  });

  test("verifications with a tag", async () => {
    expect(
      rowsOf(await query(keyA, "SELECT count(*) AS n FROM key_verifications_v1 WHERE has(tags, 'path=/api/users')")),
    ).toEqual([{ n: 1000 }]);
  });

  test("refusals of one key per hour", async () => {
    const rows = rowsOf(
      await query(
        keyA,
        `SELECT toStartOfHour(fromUnixTimestamp64Milli(time)) AS hour, countIf(outcome != 'VALID') AS refused FROM key_verifications_v1 WHERE key_id = 'key_${workspaceA}_3' GROUP BY hour ORDER BY hour`,
      ),
    );
    expect(rows.length).toBeGreaterThan(1);
    expect(
      rows.every((row) => typeof row.hour === "string" && /:00:00$/.test(row.hour) && typeof row.refused === "number"),
    ).toBe(true);
    const total = rows.reduce((sum, row) => sum + Number(row.refused), 0);
    // key 3 of 7 gets every 7th row; three in four outcomes are refusals.
    expect(total).toBe(
      rowsOf(
        await query(
          keyA,
          `SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id = 'key_${workspaceA}_3' AND outcome != 'VALID'`,
        ),
      )[0]?.n,
    );
  });
});

describe("the five tables", () => {
  test("the raw table has the contract's columns, time in Unix ms and tags as an array", async () => {
    const [row] = rowsOf(await query(keyA, "SELECT * FROM key_verifications_v1 ORDER BY time DESC LIMIT 1"));
    expect(row).toEqual({
      request_id: "req_a0",
      time: expect.any(Number) as unknown,
      workspace_id: workspaceA,
      key_space_id: `ks_${workspaceA}`,
      external_id: "user_1",
      key_id: `key_${workspaceA}_0`,
      outcome: "VALID",
      region: "local",
      source: "api",
      app_id: "",
      tags: ["path=/api/users", "region=0"],
      spent_credits: 1,
    });
  });

  test.each([
    ["minute", /^\d{4}-\d\d-\d\d \d\d:\d\d:00$/],
    ["hour", /^\d{4}-\d\d-\d\d \d\d:00:00$/],
    ["day", /^\d{4}-\d\d-\d\d$/],
    ["month", /^\d{4}-\d\d-01$/],
  ])("the per-%s table sums every verification into its bucket", async (unit, timeFormat) => {
    const table = `key_verifications_per_${unit}_v1`;
    const [totals] = rowsOf(
      await query(keyA, `SELECT sum(count) AS n, sum(spent_credits) AS credits, min(time) AS first FROM ${table}`),
    );
    expect(totals).toMatchObject({ n: 2000, credits: 500 });
    expect(String(totals?.first)).toMatch(timeFormat);
  });
});

describe("ClickHouse functions", () => {
  test("aggregates, arrays, dates and conversions of the documented list", async () => {
    const [row] = rowsOf(
      await query(
        keyA,
        `SELECT uniq(key_id) AS keys, uniqExact(outcome) AS outcomes, sumIf(spent_credits, outcome = 'VALID') AS spent,
                groupUniqArray(region) AS regions, "any"(region) AS region, quantile(spent_credits, 0.5) AS median,
                max(arrayFilter(t -> startsWith(t, 'region='), tags)) AS region_tags,
                countIf(hasAny(tags, ['region=1', 'region=2'])) AS tagged, countIf(hasAll(tags, [])) AS all_rows,
                toString(toInt64(toFloat64(toInt32('7')))) AS seven, formatDateTime(toDate('2026-01-02'), '%Y/%m/%d') AS day,
                toUnixTimestamp64Milli(toDateTime('2026-01-01 00:00:00')) AS ms,
                toStartOfMonth(toDateTime64('2026-03-15 10:00:00', 3)) AS month, toStartOfDay(now64()) <= now64() AS ordered,
                today() - toIntervalDay(1) < today() AS yesterday, lower(upper(substring(concat('ab', 'cd'), 2, 2))) AS bc,
                length(trim('  x ')) AS one, round(abs(-1.6)) + floor(1.5) + ceil(0.5) AS four, coalesce(NULL, 5) AS five,
                if(endsWith('abc', 'c'), 'yes', 'no') AS ends, JSONExtractString('{"a":"b"}', 'a') AS json
         FROM key_verifications_v1`,
      ),
    );
    expect(row).toMatchObject({
      keys: 7,
      outcomes: 4,
      spent: 500,
      regions: ["local"],
      region: "local",
      median: 0,
      tagged: 666,
      all_rows: 2000,
      seven: "7",
      day: "2026/01/02",
      ms: 1767225600000,
      month: "2026-03-01",
      ordered: true,
      yesterday: true,
      bc: "bc",
      one: 1,
      four: 4,
      five: 5,
      ends: "yes",
      json: "b",
    });
  });

  test("arrayJoin unnests tags in a subquery, and window functions run", async () => {
    const rows = rowsOf(
      await query(
        keyA,
        `SELECT tag, count(*) AS n, row_number() OVER (ORDER BY tag) AS position
         FROM (SELECT arrayJoin(tags) AS tag FROM key_verifications_v1) GROUP BY tag ORDER BY tag`,
      ),
    );
    expect(rows).toEqual([
      { tag: "path=/api/users", n: 1000, position: 1 },
      { tag: "region=0", n: 334, position: 2 },
      { tag: "region=1", n: 333, position: 3 },
      { tag: "region=2", n: 333, position: 4 },
    ]);
  });

  test("WITH, UNION ALL, EXCEPT and subqueries are allowed, and a CTE may shadow a table name", async () => {
    const rows = rowsOf(
      await query(
        keyA,
        `WITH key_verifications_v1 AS (SELECT key_id FROM key_verifications_per_day_v1), refused AS (SELECT key_id FROM key_verifications_v1)
         SELECT count(*) AS n FROM (SELECT key_id FROM refused UNION ALL SELECT key_id FROM key_verifications_v1 EXCEPT SELECT 'none')
         WHERE key_id IN (SELECT key_id FROM key_verifications_per_month_v1)`,
      ),
    );
    expect(rows).toEqual([{ n: 7 }]);
  });
});

describe("workspace isolation", () => {
  test.each([
    "key_verifications_v1",
    "key_verifications_per_minute_v1",
    "key_verifications_per_hour_v1",
    "key_verifications_per_day_v1",
    "key_verifications_per_month_v1",
  ])("%s holds only the caller's workspace", async (table) => {
    const ownA = rowsOf(await query(keyA, `SELECT DISTINCT workspace_id AS ws FROM ${table}`));
    const ownB = rowsOf(await query(keyB, `SELECT DISTINCT workspace_id AS ws FROM ${table}`));
    expect(ownA).toEqual([{ ws: workspaceA }]);
    expect(ownB).toEqual([{ ws: workspaceB }]);
  });

  test("asking for the other workspace by id finds nothing", async () => {
    expect(
      rowsOf(await query(keyA, `SELECT count(*) AS n FROM key_verifications_v1 WHERE workspace_id = '${workspaceB}'`)),
    ).toEqual([{ n: 0 }]);
    expect(rowsOf(await query(keyB, "SELECT count(*) AS n FROM key_verifications_v1"))).toEqual([{ n: 500 }]);
  });

  test("rows written to SQLite after the start (by any process) show up in the next query, in every table", async () => {
    const workspace = createWorkspace(h.db, "late");
    const key = createRootKey(h.db, { workspaceId: workspace, name: "late", permissions: READ_ANALYTICS }).secret;
    expect(rowsOf(await query(key, "SELECT count(*) AS n FROM key_verifications_v1"))).toEqual([{ n: 0 }]);
    seedVerifications(h.db, { workspaceId: workspace, count: 30, prefix: "late" });
    expect(rowsOf(await query(key, "SELECT count(*) AS n FROM key_verifications_v1"))).toEqual([{ n: 30 }]);
    seedVerifications(h.db, { workspaceId: workspace, count: 5, prefix: "later", now: Date.now() + 1000 });
    expect(rowsOf(await query(key, "SELECT sum(count) AS n FROM key_verifications_per_hour_v1"))).toEqual([{ n: 35 }]);
    expect(rowsOf(await query(key, "SELECT sum(count) AS n FROM key_verifications_per_minute_v1"))).toEqual([
      { n: 35 },
    ]);
    // The other workspaces' rollups are untouched by this one's catch-up.
    expect(rowsOf(await query(keyA, "SELECT sum(count) AS n FROM key_verifications_per_hour_v1"))).toEqual([
      { n: 2000 },
    ]);
  });

  test("text with quotes, commas, brackets, escapes and control characters is copied unchanged", async () => {
    const workspace = createWorkspace(h.db, "odd text");
    const key = createRootKey(h.db, { workspaceId: workspace, name: "odd", permissions: READ_ANALYTICS }).secret;
    const externalId = 'a,b "c" [d] \\e \u001f\u0000 NULL é';
    const tags = ["x,y", 'q"r', "[z]", "NULL", " ", "\u001f"];
    h.db
      .prepare(
        `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
         VALUES ('req_odd', ?, ?, 'ks_odd', 'key_odd', ?, 'VALID', 'local', ?, 3)`,
      )
      .run(Date.now(), workspace, externalId, JSON.stringify(tags));
    const rows = rowsOf(await query(key, "SELECT external_id, tags, spent_credits FROM key_verifications_v1"));
    expect(rows).toEqual([{ external_id: externalId, tags, spent_credits: 3 }]);
  });
});

describe("the request", () => {
  test.each([
    ["no query", {}, "body.query"],
    ["a query that is not a string", { query: 1 }, "body.query"],
    ["an unknown field", { query: "SELECT 1", limit: 5 }, "body.limit"],
    ["an array", [], "body"],
  ])("%s is invalid input naming the field", async (_, body, location) => {
    const error = expectError(await h.call(keyA, body), "err:svc:application:invalid_input");
    expect(error.errors?.[0]?.location).toBe(location);
  });

  test.each([
    ["an empty query", "", "No SQL statements found"],
    ["a blank query", " \n ", "No SQL statements found"],
    ["a query longer than the limit", `SELECT '${"x".repeat(MAX_ANALYTICS_QUERY_LENGTH)}'`, "maximum length"],
  ])("%s is an invalid analytics query, as on the real service", async (_, query, detail) => {
    const error = expectError(await h.call(keyA, { query }), "err:user:bad_request:invalid_analytics_query");
    expect(error.detail).toContain(detail);
  });

  test("a body that is not JSON is invalid input", async () => {
    expectError(await h.call(keyA, "{query"), "err:svc:application:invalid_input");
  });

  test("a root key without api.*.read_analytics gets a 403 naming the permission", async () => {
    const key = createRootKey(h.db, {
      workspaceId: workspaceA,
      name: "reader",
      permissions: ["api.*.read_key"],
    }).secret;
    const error = expectError(await query(key, "SELECT 1"), "err:svc:authorization:insufficient_permissions");
    expect(error.detail).toBe("Missing one of these permissions: api.*.read_analytics");
  });

  test("an unknown root key is refused before the query is looked at", async () => {
    expectError(await query("ks_root_unknown", "SELECT 1"), "err:svc:authentication:key_not_found");
  });

  test("a refused query names its reason in errors[] at body.query", async () => {
    const error = expectError(
      await query(keyA, "SELECT getenv('HOME')"),
      "err:user:bad_request:invalid_analytics_function",
    );
    expect(error.errors).toEqual([{ location: "body.query", message: error.detail }]);
    expect(error.detail).toContain("getenv");
  });

  test("an unknown column is an invalid query with the engine's reason", async () => {
    const error = expectError(
      await query(keyA, "SELECT nope FROM key_verifications_v1"),
      "err:user:bad_request:invalid_analytics_query",
    );
    expect(error.detail).toContain("nope");
  });
});

describe("results", () => {
  test("columns keep their order and names, counts past 2^53 are strings, times and dates are text", async () => {
    const outcome = await h.engine.query(
      workspaceA,
      `SELECT 'x' AS "2", 1 AS "1", 1 AS "__proto__", 9007199254740991 + 2 AS big, 9007199254740991 AS safe,
              toDateTime('2026-01-02 03:04:05') AS t, toDateTime('2026-01-02 03:04:05') AS t2, toDate('2026-01-02') AS d, NULL AS nothing`,
    );
    expect(outcome).toEqual({
      kind: "rows",
      rowCount: 1,
      json: '[{"2":"x","1":1,"__proto__":1,"big":"9007199254740993","safe":9007199254740991,"t":"2026-01-02 03:04:05","t2":"2026-01-02 03:04:05","d":"2026-01-02","nothing":null}]',
    });
  });

  test("a whole number past 2^53 - 1 in the query is refused, never rounded; as text cast to a number it is exact", async () => {
    for (const sql of [
      "SELECT 9007199254740993 AS n",
      "SELECT count(*) AS n FROM key_verifications_v1 WHERE spent_credits = 9007199254740993",
    ]) {
      const outcome = await h.engine.query(workspaceA, sql);
      expect(outcome).toMatchObject({ kind: "refused", refusal: "query" });
      expect(outcome.kind === "refused" && outcome.message).toContain("9007199254740993");
    }
    expect(
      await h.engine.query(
        workspaceA,
        "SELECT '9007199254740993'::HUGEINT AS n, '12345678901234567890' AS digits, 9007199254740991 AS safe",
      ),
    ).toEqual({
      kind: "rows",
      rowCount: 1,
      json: '[{"n":"9007199254740993","digits":"12345678901234567890","safe":9007199254740991}]',
    });
  });

  test("a whole number past 2^64 is refused with the number as written, not one of the halves DuckDB stores it in", async () => {
    for (const written of ["99999999999999999999999", "-99999999999999999999999"]) {
      const outcome = await h.engine.query(
        workspaceA,
        `SELECT count(*) AS n FROM key_verifications_v1 WHERE spent_credits > ${written}`,
      );
      expect(outcome).toMatchObject({ kind: "refused", refusal: "query" });
      expect(outcome.kind === "refused" && outcome.message).toContain(`The number ${written} is larger`);
    }
  });

  test("a query's own ORDER BY and LIMIT are kept", async () => {
    const rows = rowsOf(await query(keyA, "SELECT request_id FROM key_verifications_v1 ORDER BY time DESC LIMIT 3"));
    expect(rows).toEqual([{ request_id: "req_a0" }, { request_id: "req_a1" }, { request_id: "req_a2" }]);
    const offset = rowsOf(
      await query(keyA, "SELECT request_id FROM key_verifications_v1 ORDER BY time DESC LIMIT 2 OFFSET 1"),
    );
    expect(offset).toEqual([{ request_id: "req_a1" }, { request_id: "req_a2" }]);
  });

  // The limit is 100,000 rows here and workspace A has 2,000 verifications.
  const fifty = "(SELECT 1 FROM key_verifications_v1 LIMIT 50) AS b";
  const fiftyOne = "(SELECT 1 FROM key_verifications_v1 LIMIT 51) AS b";
  test.each([
    ["no LIMIT, exactly the limit", `SELECT a.request_id FROM key_verifications_v1 a, ${fifty}`, 100_000],
    ["no LIMIT, one chunk over", `SELECT a.request_id FROM key_verifications_v1 a, ${fiftyOne}`, undefined],
    ["a LIMIT at the limit", `SELECT a.request_id FROM key_verifications_v1 a, ${fiftyOne} LIMIT 100000`, 100_000],
    ["a LIMIT over the limit", `SELECT a.request_id FROM key_verifications_v1 a, ${fiftyOne} LIMIT 100001`, undefined],
    ["a LIMIT in percent", `SELECT a.request_id FROM key_verifications_v1 a, ${fiftyOne} LIMIT 99 PERCENT`, undefined],
    [
      "UNION ALL without LIMIT",
      `SELECT a.request_id FROM key_verifications_v1 a, ${fifty} UNION ALL SELECT 'one more'`,
      undefined,
    ],
    [
      "UNION ALL at the limit",
      `SELECT a.request_id FROM key_verifications_v1 a, ${fifty} UNION ALL SELECT 'one more' LIMIT 100000`,
      100_000,
    ],
  ])("%s: the whole result or the row limit's 422", async (_, sql, expected) => {
    const answer = await query(keyA, sql);
    if (expected === undefined) expectError(answer, "err:user:unprocessable_entity:query_rows_limit_exceeded");
    else expect(rowsOf(answer)).toHaveLength(expected);
  });
});

describe("limits", () => {
  test("more rows than the limit is a 422", async () => {
    const error = expectError(
      await query(keyA, "SELECT a.request_id FROM key_verifications_v1 a, key_verifications_v1 b"),
      "err:user:unprocessable_entity:query_rows_limit_exceeded",
    );
    expect(error.detail).toContain("100000");
  });

  test("more memory than the limit is a 422", async () => {
    expectError(
      await query(
        keyA,
        "SELECT count(DISTINCT concat(a.request_id, b.request_id, a.key_id)) AS n FROM key_verifications_v1 a, key_verifications_v1 b",
      ),
      "err:user:unprocessable_entity:query_memory_limit_exceeded",
    );
  });

  test("a runaway query is stopped at the time limit while other requests are answered", async () => {
    const slow = await harness({ timeoutMs: 1000 });
    try {
      const running = slow.call(keyA, {
        query: `SELECT count(*) AS n FROM key_verifications_v1 a, key_verifications_v1 b, key_verifications_v1 c
                WHERE concat(a.request_id, b.request_id, c.request_id) = 'x'`,
      });
      // vi.waitFor polls on timers: it gets its turn only because the query runs off the main thread.
      await vi.waitFor(() => expect(slow.engine.runningQueries).toBe(1), { timeout: 10_000 });
      expect((await slow.call(keyA, undefined, LIVENESS_PATH)).status).toBe(200);
      expect(rowsOf(await slow.call(keyA, { query: "SELECT 1 AS one" }))).toEqual([{ one: 1 }]);
      expect(slow.engine.runningQueries).toBeGreaterThanOrEqual(1);
      const error = expectError(await running, "err:user:unprocessable_entity:query_execution_timeout");
      expect(error.detail).toBe("The query ran longer than 1 s");
    } finally {
      await slow.close();
    }
  });

  test("the quota counts queries per workspace and answers 429 with Retry-After once used", async () => {
    const quota = await harness({}, { limit: 2, windowMs: HOUR });
    try {
      expect((await quota.call(keyA, { query: "SELECT 1" })).status).toBe(200);
      expect((await quota.call(keyA, { query: "SELECT nope" })).status).toBe(400);
      const refused = await quota.call(keyA, { query: "SELECT 1" });
      expectError(refused, "err:user:too_many_requests:query_quota_exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
      // Another workspace has a quota of its own.
      expect((await quota.call(keyB, { query: "SELECT 1" })).status).toBe(200);
    } finally {
      await quota.close();
    }
  });
});
