import { describe, expect, test } from "vitest";
import { parseBlockedRows, parseRatelimitBucketRows } from "@/lib/analytics-rows";
import {
  isNamespaceId,
  namespaceOfOverridesQuery,
  ratelimitChartQuery,
  ratelimitTopBlockedQuery,
} from "@/lib/ratelimit-sql";

const HOUR = 3_600_000;
const FROM = Date.UTC(2026, 10, 27, 10, 30);
const range = { namespaceId: "rlns_Api1", from: FROM, to: FROM + 5 * HOUR };

describe("a namespace's history as SQL", () => {
  test("the chart reads the whole hours from the per-hour table and the edges from single decisions, all by the namespace's id", () => {
    const parts = ratelimitChartQuery(range, "hour").split(" UNION ALL ");
    expect(parts).toHaveLength(3);
    expect(parts[0]).toContain(
      `FROM ratelimits_v1 WHERE namespace_id = 'rlns_Api1' AND time >= ${FROM} AND time < ${FROM + HOUR / 2}`,
    );
    expect(parts[0]).toContain("countIf(passed) AS passed_count, count(*) AS total_count");
    expect(parts[1]).toContain("FROM ratelimits_per_hour_v1");
    expect(parts[1]).toContain("sum(passed) AS passed_count, sum(total) AS total_count");
    expect(parts[2]).toContain("FROM ratelimits_v1");
  });

  test("no aggregate's alias is the name of the column it sums, which ClickHouse would read inside the other expressions", () => {
    for (const query of [ratelimitChartQuery(range, "hour"), ratelimitTopBlockedQuery(range, "hour")]) {
      expect(query).not.toMatch(/\((passed|total)\) AS (passed|total)\b/);
    }
  });

  test("the identifiers blocked most come with their latest decision's limit and override, from one query", () => {
    const query = ratelimitTopBlockedQuery(range, "day");
    expect(query).toMatch(/^WITH decided AS \(SELECT identifier, count\(\*\) - countIf\(passed\) AS blocked_count/);
    expect(query).toContain("ORDER BY blocked DESC, identifier LIMIT 10");
    expect(query).toContain("max(d.limit) AS last_limit, max(d.override_id) AS last_override_id");
    expect(query).toContain(`d.namespace_id = 'rlns_Api1' AND d.time >= ${FROM}`);
  });

  test("a namespace id is put in a query only when it has an id's shape, and override ids only as escaped literals", () => {
    expect(isNamespaceId("rlns_Api1")).toBe(true);
    expect(isNamespaceId("api.requests")).toBe(false);
    expect(isNamespaceId("rlns_x' OR 1=1")).toBe(false);
    expect(() => ratelimitChartQuery({ ...range, namespaceId: "x' OR '1'='1" }, "hour")).toThrow();
    expect(namespaceOfOverridesQuery(["rlor_1", "o'brien"], FROM)).toBe(
      `SELECT namespace_id FROM ratelimits_v1 WHERE time >= ${FROM} AND override_id IN ('rlor_1', 'o''brien') LIMIT 1`,
    );
  });

  test("rows as ClickHouse writes them (text numbers, DateTime text) and as the reference engine may (numbers, ISO)", () => {
    expect(
      parseRatelimitBucketRows([
        { bucket: "2026-11-27 10:00:00", passed_count: "7", total_count: "9" },
        { bucket: "2026-11-27T11:00:00.000Z", passed_count: 1, total_count: 1 },
      ]),
    ).toEqual([
      { bucket: Date.UTC(2026, 10, 27, 10), passed: 7, total: 9 },
      { bucket: Date.UTC(2026, 10, 27, 11), passed: 1, total: 1 },
    ]);
    expect(
      parseBlockedRows([
        {
          identifier: "a",
          blocked: "2",
          passed: "0",
          last_time: "1764237600000",
          last_limit: "0",
          last_override_id: null,
        },
      ]),
    ).toEqual([
      { identifier: "a", blocked: 2, passed: 0, lastTime: 1_764_237_600_000, lastLimit: 0, lastOverrideId: "" },
    ]);
    expect(() => parseBlockedRows([{ identifier: "a", blocked: "-1" }])).toThrow(/Row 1/);
  });
});
