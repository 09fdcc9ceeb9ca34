import * as v from "valibot";
import { afterAll, beforeAll, expect, test } from "vitest";
import { seedRatelimitDecisions } from "../analytics-data";
import { callApi } from "../http";
import { startInProcessWithAnalytics } from "../in-process";
import examples from "./analytics-ratelimits-docs-examples.json";

/**
 * Every SQL example of the real service's analytics.getRatelimits page (docs/product/platform/analytics/
 * get-ratelimits.mdx of its repository, at fc99b6b925): its SQL code blocks and the queries of its curl blocks, one
 * each, 10 of its 11 code blocks (`block`: the block's place on the page; the other is a JSON answer), run unchanged against the reference server on decisions
 * seeded in the namespace the examples name (rlns_1234). Two are WHERE clauses (`kind: "filter"`), run under a
 * `SELECT count(*)`. See docs/real-route-tests.md.
 */

/** The one example refused, by its block, and why: the real service refuses it too. */
const REFUSED = new Map([
  [4, "avgMerge and quantilesTDigestMerge: the real service's function allow-list has no -Merge combinator"],
]);

const NAMESPACE = "rlns_1234";
const OTHER_NAMESPACE = "rlns_5678";
const CUSTOMERS = ["customer_123", "customer_456", "customer_789"];
const MINUTE = 60_000;
const DECISIONS = 3_000;
const STEP_MS = 10 * MINUTE;

const Data = v.object({ data: v.array(v.record(v.string(), v.unknown())) });

let server: Awaited<ReturnType<typeof startInProcessWithAnalytics>>;
let rootKey: string;
let now: number;

beforeAll(async () => {
  server = await startInProcessWithAnalytics();
  const db = server.admin.db;
  const workspaceId = server.admin.workspaceId;
  // Five minutes back: no decision lies on a bound the examples count from the query's own now().
  now = Date.now() - 5 * MINUTE;
  const insert = db.prepare(
    "INSERT INTO ratelimit_namespaces (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)",
  );
  for (const id of [NAMESPACE, OTHER_NAMESPACE]) insert.run(id, workspaceId, `docs.${id}`, now);
  // A decision every 10 minutes over about three weeks: three customers and two others, every fourth blocked.
  seedRatelimitDecisions(db, {
    workspaceId,
    namespaceId: NAMESPACE,
    count: DECISIONS,
    now,
    stepMs: STEP_MS,
    identifiers: [...CUSTOMERS, "customer_999", "anonymous"],
    prefix: "docs",
  });
  seedRatelimitDecisions(db, { workspaceId, namespaceId: OTHER_NAMESPACE, count: 40, now, prefix: "other" });
  rootKey = server.admin.createRootKey({ permissions: ["ratelimit.*.read_analytics"] }).secret;
});

afterAll(async () => {
  await server.closeAll();
});

async function run(sql: string): Promise<{ status: number; text: string; rows: Record<string, unknown>[] }> {
  const answer = await callApi(server, {
    path: "/v2/analytics.getRatelimits",
    body: JSON.stringify({ query: sql }),
    key: rootKey,
  });
  return {
    status: answer.status,
    text: answer.text,
    rows: answer.status === 200 ? v.parse(Data, answer.json).data : [],
  };
}

/** The seeded decisions of the namespace newer than `sinceMs`, optionally of some identifiers only. */
function seededSince(sinceMs: number, identifiers?: readonly string[]): number {
  return server.admin.db
    .prepare<[string, number], { identifier: string }>(
      "SELECT identifier FROM ratelimit_decisions WHERE namespace_id = ? AND time >= ?",
    )
    .all(NAMESPACE, sinceMs)
    .filter((row) => identifiers === undefined || identifiers.includes(row.identifier)).length;
}

const sumOf = (rows: Record<string, unknown>[], column: string) =>
  rows.reduce((total, row) => total + Number(row[column]), 0);

test("the page's examples are its 10 SQL statements and filters, one a code block", () => {
  expect(examples).toHaveLength(10);
  expect(new Set(examples.map((example) => example.block)).size).toBe(10);
});

test.each(examples.map((example) => [example.block, example] as const))(
  "block %i runs as the real service runs it",
  async (block, example) => {
    const sql = example.kind === "filter" ? `SELECT count(*) AS n FROM ratelimits_v1 AS r ${example.sql}` : example.sql;
    const answer = await run(sql);
    const refusal = REFUSED.get(block);
    if (refusal !== undefined) {
      expect(answer.status, refusal).toBe(400);
      expect(answer.text).toContain("invalid_analytics_function");
      return;
    }
    expect(answer.status, answer.text).toBe(200);
    const { rows } = answer;
    if (example.kind === "filter") {
      expect(rows).toEqual([{ n: example.sql.includes(OTHER_NAMESPACE) ? DECISIONS + 40 : DECISIONS }]);
    } else if (example.sql.includes("LIMIT 10")) {
      // The latest ten decisions, newest first.
      expect(rows).toHaveLength(10);
      expect(rows[0]).toEqual({ identifier: CUSTOMERS[0], passed: false, tokens: 1 });
    } else if (example.sql.includes("WITH FILL")) {
      // A row for every minute of the six hours, none missing, summing the decisions in them.
      expect(rows).toHaveLength(360);
      const minutes = rows.map((row) => Date.parse(`${String(row.time).replace(" ", "T")}Z`));
      expect(minutes.slice(1).every((minute, index) => minute - (minutes[index] ?? 0) === MINUTE)).toBe(true);
      const from = minutes[0] ?? 0;
      expect(sumOf(rows, "total_requests")).toBe(seededSince(from) - seededSince((minutes.at(-1) ?? 0) + MINUTE));
      expect(sumOf(rows, "passed_requests") + sumOf(rows, "blocked_requests")).toBe(sumOf(rows, "total_requests"));
    } else if (example.sql.includes("ratelimits_per_day_v1")) {
      // The three customers' days, summed: every one of their decisions of the last 30 days.
      expect(rows.length).toBeGreaterThanOrEqual(20);
      expect(sumOf(rows, "total_requests")).toBe(seededSince(0, CUSTOMERS));
      expect(sumOf(rows, "passed_tokens") + sumOf(rows, "blocked_tokens")).toBe(sumOf(rows, "total_tokens"));
    } else {
      // The identifier breakdown of the last 7 days: each identifier once, busiest first.
      expect(rows.map((row) => row.identifier).sort()).toEqual([...CUSTOMERS, "anonymous", "customer_999"].sort());
      expect(sumOf(rows, "total_requests")).toBe(seededSince(now - 7 * 24 * 60 * MINUTE + 1));
      const totals = rows.map((row) => Number(row.total_requests));
      expect(totals).toEqual([...totals].sort((a, b) => b - a));
      for (const row of rows) {
        expect(Number(row.passed_requests) + Number(row.blocked_requests)).toBe(Number(row.total_requests));
        expect(typeof row.last_request_time).toBe("number");
      }
    }
  },
);
