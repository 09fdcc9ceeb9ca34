import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedVerifications } from "../analytics-data";
import { setAnalyticsQueriesPerHour, setAnalyticsRetentionDays } from "../../../server/db/workspaces";
import { startInProcessWithAnalytics } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of analytics.getVerifications (svc/api/routes/v2_analytics_get_verifications),
 * replayed over HTTP, each named as its real test. Served differently on purpose: docs/real-route-tests.md.
 */

let server: Awaited<ReturnType<typeof startInProcessWithAnalytics>>;
let h: RealHarness;
let analyst: string;

const Rows = v.object({ data: v.array(v.record(v.string(), v.unknown())) });
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startInProcessWithAnalytics();
  h = realHarness(server);
  analyst = h.rootKey(["api.*.read_analytics"]);
  // Five verifications of the last seconds, one a week old, and another workspace's, as the real tests write them.
  seedVerifications(server.admin.db, {
    workspaceId: h.workspaceId,
    count: 5,
    now: Date.now(),
    prefix: "recent",
    keys: 1,
  });
  seedVerifications(server.admin.db, {
    workspaceId: h.workspaceId,
    count: 1,
    now: Date.now() - 7 * DAY,
    prefix: "week",
    keys: 1,
  });
  const other = h.workspace();
  seedVerifications(server.admin.db, { workspaceId: other, count: 5, prefix: "other" });
});

afterAll(async () => {
  await server.closeAll();
});

const query = (sql: string, key = analyst) => h.call("analytics.getVerifications", { query: sql }, { key });

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const answer = await query(sql);
  expect(answer.status, answer.text).toBe(200);
  return v.parse(Rows, answer.json).data;
}

/** The demo workspace holds its own verifications too: counts are read relative to its rows without them. */
async function count(where: string): Promise<number> {
  const [row] = await rows(`SELECT COUNT(*) as count FROM key_verifications_v1 ${where}`);
  return Number(row?.count);
}

describe("200", () => {
  test("Test200_Success", async () => {
    expect(await rows("SELECT COUNT(*) as count FROM key_verifications_v1")).toHaveLength(1);
  });

  test("Test200_QueryWithin30DaysRetention", async () => {
    expect(
      (await query("SELECT COUNT(*) as count FROM key_verifications_v1 WHERE time >= now() - INTERVAL 7 DAY")).status,
    ).toBe(200);
  });

  test("Test200_QueryAtExact30DayRetentionLimit", async () => {
    expect(
      (await query("SELECT COUNT(*) as count FROM key_verifications_v1 WHERE time >= now() - INTERVAL 30 DAY")).status,
    ).toBe(200);
  });

  test("Test200_RLSWorkspaceIsolation: only the workspace's own rows, and time (ms) against now() compared as ClickHouse does", async () => {
    // ClickHouse compares the Int64 milliseconds with the DateTime's seconds: every row of the workspace passes.
    expect(await count("WHERE time >= now() - INTERVAL 1 DAY")).toBe(await count(""));
    expect(await count("WHERE key_id LIKE 'key_ws_%'")).toBe(6);
  });

  test("Test200_QueryWithoutTimeFilter_AutoAddsFilter", async () => {
    expect((await query("SELECT COUNT(*) as count FROM key_verifications_v1")).status).toBe(200);
  });

  test("source on the aggregated tables (the docs' gateway example runs)", async () => {
    expect(
      await rows(
        "SELECT app_id, SUM(count) AS n FROM key_verifications_per_day_v1 WHERE source = 'gateway' GROUP BY app_id",
      ),
    ).toEqual([]);
  });

  test("groupArray(DISTINCT …) (the docs' error types example runs)", async () => {
    const [row] = await rows(
      "SELECT groupArray(DISTINCT outcome) AS outcomes FROM key_verifications_per_day_v1 WHERE time >= now() - INTERVAL 7 DAY",
    );
    expect(row?.outcomes).toEqual(expect.arrayContaining(["VALID"]));
  });
});

describe("200: analytics narrowed to some APIs (api.<apiId>.read_analytics)", () => {
  // A workspace of its own with two APIs: 3 verifications of the first, 5 of the second; and another workspace's API.
  let workspace: string;
  let api1: string;
  let api2: string;
  let otherWorkspaceApi: string;
  let narrowed: string;

  beforeAll(() => {
    workspace = h.workspace();
    api1 = h.api(workspace);
    api2 = h.api(workspace);
    const now = Date.now();
    seedVerifications(server.admin.db, {
      workspaceId: workspace,
      count: 3,
      now,
      prefix: `${api1}_`,
      keySpaceId: api1,
      keys: 2,
    });
    seedVerifications(server.admin.db, {
      workspaceId: workspace,
      count: 5,
      now,
      prefix: `${api2}_`,
      keySpaceId: api2,
      keys: 2,
    });
    const other = h.workspace();
    otherWorkspaceApi = h.api(other);
    seedVerifications(server.admin.db, {
      workspaceId: other,
      count: 4,
      now,
      prefix: `${otherWorkspaceApi}_`,
      keySpaceId: otherWorkspaceApi,
      keys: 2,
    });
    narrowed = h.rootKey([`api.${api1}.read_analytics`], workspace);
  });

  const rowsAs = async (key: string, sql: string) => {
    const answer = await query(sql, key);
    expect(answer.status, answer.text).toBe(200);
    return v.parse(Rows, answer.json).data;
  };

  test("Test200_PermissionFiltersByApiId", async () => {
    expect(await rowsAs(narrowed, "SELECT COUNT(*) as count FROM key_verifications_v1")).toEqual([{ count: 3 }]);
  });

  test("Test200_PermissionFiltersByKeySpaceId", async () => {
    expect(
      await rowsAs(narrowed, "SELECT key_space_id, COUNT(*) as count FROM key_verifications_v1 GROUP BY key_space_id"),
    ).toEqual([{ key_space_id: api1, count: 3 }]);
  });

  test("Test200_InaccessibleKeySpacesReturnNoData", async () => {
    const wildcard = h.rootKey(["api.*.read_analytics"], workspace);
    const sql = (keySpaceId: string) =>
      `SELECT key_space_id FROM key_verifications_v1 WHERE key_space_id = '${keySpaceId}'`;
    expect(await rowsAs(wildcard, sql(api2))).toHaveLength(5);
    for (const keySpaceId of [api2, "ks_nonexistent123"]) expect(await rowsAs(narrowed, sql(keySpaceId))).toEqual([]);
  });

  test("Test200_UnresolvableAnalyticsPermissionReturnsNoData", async () => {
    const unresolvable = h.rootKey(["api.api_9ZxY8kz7NwVhR4vZ3G9fUnknown.read_analytics"], workspace);
    expect(await rowsAs(unresolvable, "SELECT key_space_id FROM key_verifications_v1")).toEqual([]);
  });

  test("this server's own check: another workspace's API, or a deleted one, names no rows", async () => {
    expect(
      await rowsAs(
        h.rootKey([`api.${otherWorkspaceApi}.read_analytics`], workspace),
        "SELECT key_space_id FROM key_verifications_v1",
      ),
    ).toEqual([]);
    const own = h.workspace();
    const deleted = h.api(own);
    seedVerifications(server.admin.db, { workspaceId: own, count: 2, prefix: `${deleted}_`, keySpaceId: deleted });
    server.admin.db.prepare("UPDATE apis SET deleted_at = ? WHERE id = ?").run(Date.now(), deleted);
    expect(
      await rowsAs(h.rootKey(["api.*.read_analytics"], own), "SELECT key_space_id FROM key_verifications_v1"),
    ).toHaveLength(2);
    expect(
      await rowsAs(h.rootKey([`api.${deleted}.read_analytics`], own), "SELECT key_space_id FROM key_verifications_v1"),
    ).toEqual([]);
  });

  test("this server's own check: two APIs' permissions read both, and nothing else", async () => {
    const both = h.rootKey([`api.${api1}.read_analytics`, `api.${api2}.read_analytics`], workspace);
    expect(await rowsAs(both, "SELECT COUNT(*) as count FROM key_verifications_v1")).toEqual([{ count: 8 }]);
  });

  // Every way a query could reach rows: each must count the first API's 3 verifications (or their sums), never more.
  test.each([
    ["a CTE", "WITH v AS (SELECT * FROM key_verifications_v1) SELECT COUNT(*) AS n FROM v"],
    [
      "a subquery",
      "SELECT COUNT(*) AS n FROM (SELECT key_space_id FROM key_verifications_v1 WHERE key_space_id IN (SELECT key_space_id FROM key_verifications_v1))",
    ],
    [
      "a scalar subquery in the WHERE",
      "SELECT COUNT(*) AS n FROM key_verifications_v1 WHERE key_space_id <> (SELECT 'x')",
    ],
    [
      "a UNION",
      "SELECT COUNT(*) AS n FROM (SELECT request_id FROM key_verifications_v1 UNION ALL SELECT request_id FROM key_verifications_v1 WHERE false)",
    ],
    ["the per-minute rollup", "SELECT SUM(count) AS n FROM key_verifications_per_minute_v1"],
    ["the per-hour rollup", "SELECT SUM(count) AS n FROM key_verifications_per_hour_v1"],
    ["the per-day rollup", "SELECT SUM(count) AS n FROM key_verifications_per_day_v1"],
    ["the per-month rollup", "SELECT SUM(count) AS n FROM key_verifications_per_month_v1"],
    [
      "a join of two tables",
      "SELECT COUNT(DISTINCT r.request_id) AS n FROM key_verifications_v1 r JOIN key_verifications_per_hour_v1 h ON r.key_id = h.key_id",
    ],
    [
      "an OR that names the other key space",
      `SELECT COUNT(*) AS n FROM key_verifications_v1 WHERE key_space_id = 'x' OR true`,
    ],
  ])("only the permitted API's rows through %s", async (_, sql) => {
    expect((await rowsAs(narrowed, sql)).map((row) => Number(row.n))).toEqual([3]);
  });

  test("only the permitted API's rows through the per-hour sums by key (the keys page's query, answered from SQLite unnarrowed)", async () => {
    // The two APIs' keys share their ids here: only the key-space filter keeps them apart.
    const sql = `SELECT key_id, SUM(count) AS n FROM key_verifications_per_hour_v1 WHERE time >= now() - INTERVAL 36 HOUR AND key_id IN ('key_${workspace}_0', 'key_${workspace}_1') GROUP BY key_id ORDER BY key_id`;
    expect((await rowsAs(narrowed, sql)).map((row) => Number(row.n))).toEqual([2, 1]);
    expect((await rowsAs(h.rootKey(["api.*.read_analytics"], workspace), sql)).map((row) => Number(row.n))).toEqual([
      5, 3,
    ]);
  });

  test("this server's own check: URN-form permissions read no analytics, not even the admin grant (the real handler reads none)", async () => {
    expect(errorOf(await query("SELECT 1 AS n", h.rootKey([h.urn("**", "*", workspace)], workspace))).status).toBe(403);
  });
});

describe("the ClickHouse the docs' examples use", () => {
  test("arrayJoin in a grouped SELECT makes a row per element before grouping", async () => {
    // Of the six seeded rows, i = 0, 2, 4 (recent) and 0 (week old) carry ["path=/api/users", "region=<i % 3>"].
    const tags = await rows(
      "SELECT arrayJoin(tags) AS tag, COUNT(*) AS n FROM key_verifications_v1 WHERE key_id LIKE 'key_ws_%' GROUP BY tag ORDER BY tag",
    );
    expect(tags).toEqual([
      { tag: "path=/api/users", n: 4 },
      { tag: "region=0", n: 2 },
      { tag: "region=1", n: 1 },
      { tag: "region=2", n: 1 },
    ]);
  });

  test("Test200_QueryWithCustomRetention90Days", async () => {
    const workspace = h.workspace();
    setAnalyticsRetentionDays(server.admin.db, workspace, 90);
    const answer = await query(
      "SELECT COUNT(*) as count FROM key_verifications_v1 WHERE time >= now() - INTERVAL 60 DAY",
      h.rootKey(["api.*.read_analytics"], workspace),
    );
    expect(answer.status, answer.text).toBe(200);
  });

  test("a number against an aggregated table's Date is compared as its day number, as ClickHouse does", async () => {
    // 1704067200000 read as a day number lies far in the future: every day is before it (an upper bound, so no retention check).
    const all = await rows("SELECT SUM(count) AS n FROM key_verifications_per_day_v1");
    expect(await rows("SELECT SUM(count) AS n FROM key_verifications_per_day_v1 WHERE time < 1704067200000")).toEqual(
      all,
    );
    expect(await rows("SELECT COUNT(*) AS n FROM key_verifications_per_day_v1 WHERE time <= 20000")).toEqual([
      { n: 0 },
    ]);
  });
});

describe("400", () => {
  test("Test400_EmptyQuery", async () => {
    const error = errorOf(await query(""));
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_analytics_query");
    expect(error.detail).not.toBe("");
  });

  test("Test400_InvalidSQLSyntax", async () => {
    const error = errorOf(await query("SELECT * FROM key_verifications_v1 WHERE invalid syntax here"));
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_analytics_query");
  });

  test("Test400_QueryLengthIsBoundedBeforeParsing", async () => {
    const error = errorOf(await query(`SELECT ${"1 + ".repeat(16 << 10)}1`));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("maximum length");
  });

  test("Test400_UnknownColumn", async () => {
    const error = errorOf(
      await query("SELECT nonexistent_column FROM key_verifications_v1 WHERE time >= now() - INTERVAL 7 DAY"),
    );
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_analytics_query");
    expect(error.detail).toContain("Unknown");
  });

  test("Test400_InvalidTable", async () => {
    const error = errorOf(await query("SELECT * FROM system.tables"));
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_analytics_table");
  });

  test.each([
    ["direct", "SELECT * FROM default.key_verifications_raw_v2"],
    ["nested", "SELECT * FROM (SELECT * FROM default.key_verifications_raw_v2)"],
  ])("Test400_PhysicalVerificationTables: %s", async (_, sql) => {
    const error = errorOf(await query(sql));
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_analytics_table");
    expect(error.detail).toContain("Access to table 'default.key_verifications_raw_v2' is not allowed");
  });

  test("Test400_NonSelectQuery", async () => {
    const error = errorOf(await query("DELETE FROM key_verifications_v1 WHERE time < now()"));
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_analytics_query_type");
  });

  test("Test400_QueryBeyond30Days", async () => {
    const error = errorOf(
      await query("SELECT COUNT(*) as count FROM key_verifications_v1 WHERE time >= now() - INTERVAL 60 DAY"),
    );
    expect(error.status).toBe(400);
    expect(error.type).toContain("query_range_exceeds_retention");
    expect(error.detail).toContain("30 days");
  });

  test("Test400_QueryBeyondCustomRetention90Days", async () => {
    const workspace = h.workspace();
    setAnalyticsRetentionDays(server.admin.db, workspace, 90);
    const error = errorOf(
      await query(
        "SELECT COUNT(*) as count FROM key_verifications_v1 WHERE time >= now() - INTERVAL 120 DAY",
        h.rootKey(["api.*.read_analytics"], workspace),
      ),
    );
    expect(error.status).toBe(400);
    expect(error.type).toContain("query_range_exceeds_retention");
    expect(error.detail).toContain("90 days");
  });

  test("this server's own check: one query text, checked once per retention, answers each workspace by its own", async () => {
    const sql = "SELECT COUNT(*) as count FROM key_verifications_v1 WHERE time >= now() - INTERVAL 45 DAY";
    const long = h.workspace();
    setAnalyticsRetentionDays(server.admin.db, long, 60);
    expect((await query(sql, h.rootKey(["api.*.read_analytics"], long))).status).toBe(200);
    expect(errorOf(await query(sql)).detail).toContain("30 days");
    // A retention changed while the server runs counts from the next query on.
    setAnalyticsRetentionDays(server.admin.db, long, 30);
    expect(errorOf(await query(sql, h.rootKey(["api.*.read_analytics"], long))).detail).toContain("30 days");
  });
});

describe("429", () => {
  test("Test429_QueryQuotaExceeded", async () => {
    const workspace = h.workspace();
    setAnalyticsQueriesPerHour(server.admin.db, workspace, 1);
    seedVerifications(server.admin.db, { workspaceId: workspace, count: 5, prefix: "quota", keys: 1 });
    const key = h.rootKey(["api.*.read_analytics"], workspace);
    expect((await query("SELECT COUNT(*) as count FROM key_verifications_v1", key)).status).toBe(200);
    const refused = await query("SELECT COUNT(*) as count FROM key_verifications_v1", key);
    expect(errorOf(refused)).toMatchObject({ status: 429 });
    expect(errorOf(refused).type).toContain("query_quota_exceeded");
    // The other workspaces keep the server's quota.
    expect((await query("SELECT COUNT(*) as count FROM key_verifications_v1")).status).toBe(200);
  });
});

describe("401 and 403", () => {
  test("Test401_NoAuthHeader (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("analytics.getVerifications", { query: "SELECT 1" }, "none")).status).toBe(401);
  });

  test("Test401_InvalidRootKey", async () => {
    expect(errorOf(await query("SELECT COUNT(*) FROM key_verifications_v1", "ks_root_invalid")).status).toBe(401);
  });

  test("Test403_NoAnalyticsPermission", async () => {
    expect(
      errorOf(await query("SELECT COUNT(*) FROM key_verifications_v1", h.rootKey(["api.*.read_key"]))).status,
    ).toBe(403);
  });
});
