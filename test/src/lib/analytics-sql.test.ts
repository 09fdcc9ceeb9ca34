import { describe, expect, test } from "vitest";
import { parseUsageRows, parseVerificationRows, toEpochMs, WrongShapeError } from "@/lib/analytics-rows";
import { isRequestId, refusalsQuery, sqlString, usageQuery, verificationByRequestIdQuery } from "@/lib/analytics-sql";

describe("analytics SQL", () => {
  test("usage reads the per-hour table for 24 h and 7 days and the per-day table for 30 days", () => {
    expect(usageQuery("key_3ZbK9", "24h")).toBe(
      "SELECT time, outcome, sum(count) AS total FROM key_verifications_per_hour_v1 WHERE key_id = 'key_3ZbK9' AND time >= now() - INTERVAL 24 HOUR GROUP BY time, outcome ORDER BY time",
    );
    expect(usageQuery("key_3ZbK9", "7d")).toContain("key_verifications_per_hour_v1");
    expect(usageQuery("key_3ZbK9", "30d")).toContain(
      "FROM key_verifications_per_day_v1 WHERE key_id = 'key_3ZbK9' AND time >= now() - INTERVAL 30 DAY",
    );
  });

  test("an id that is not a key id never reaches the SQL", () => {
    expect(() => usageQuery("key_x' OR 1=1 --", "24h")).toThrow(/not a key id/);
    expect(() => refusalsQuery("key_0OIl", {})).toThrow(/not a key id/);
  });

  test("refusals are newest first with the request id breaking ties, one more than a page, after the last one shown, filtered by tag with the quote doubled", () => {
    const tag = sqlString("path=/o'brien");
    expect(tag).toEqual({ ok: true, literal: "'path=/o''brien'" });
    const after = { time: 1_764_000_000_123, requestId: "req_4VmxDkT9" };
    expect(refusalsQuery("key_3ZbK9", { after, tagLiteral: tag.ok ? tag.literal : "" })).toBe(
      "SELECT request_id, time, outcome, region, tags FROM key_verifications_v1 WHERE key_id = 'key_3ZbK9' AND outcome != 'VALID' AND has(tags, 'path=/o''brien') " +
        "AND time <= 1764000000123 AND (time < 1764000000123 OR request_id < 'req_4VmxDkT9') ORDER BY time DESC, request_id DESC LIMIT 51",
    );
  });

  test("a cursor the SQL could not hold as given never reaches it", () => {
    expect(() => refusalsQuery("key_3ZbK9", { after: { time: 1.5, requestId: "req_1" } })).toThrow(/not a time/);
    expect(() => refusalsQuery("key_3ZbK9", { after: { time: 1, requestId: "req_\\'); DROP" } })).toThrow(
      /not a request id/,
    );
    expect(refusalsQuery("key_3ZbK9", { after: { time: 1, requestId: "req_o'x" } })).toContain(
      "request_id < 'req_o''x'",
    );
  });

  test("a tag the two dialects would read differently is refused with a reason", () => {
    expect(sqlString("a\\'); DROP")).toEqual({ ok: false, reason: "A tag with a backslash cannot be searched for." });
    expect(sqlString("a\nb").ok).toBe(false);
  });

  test("a request id must look like one before it is put in SQL", () => {
    expect(isRequestId("req_4VmxDkT9")).toBe(true);
    for (const bad of ["req_", "req_0abc", "req_abc'--", "key_abc", " req_abc", "req_abc\n"])
      expect(isRequestId(bad)).toBe(false);
    expect(verificationByRequestIdQuery("req_4VmxDkT9")).toBe(
      "SELECT request_id, time, key_id, outcome, region, tags FROM key_verifications_v1 WHERE request_id = 'req_4VmxDkT9' LIMIT 1",
    );
    expect(() => verificationByRequestIdQuery("req_x' OR '1'='1")).toThrow();
  });
});

describe("analytics rows", () => {
  test("ClickHouse's quoted 64-bit integers and DateTime text read as numbers", () => {
    expect(parseUsageRows([{ time: "2026-11-23 10:00:00", outcome: "VALID", total: "42" }])).toEqual([
      { time: Date.UTC(2026, 10, 23, 10), outcome: "VALID", total: 42 },
    ]);
    expect(toEpochMs("2026-11-23")).toBe(Date.UTC(2026, 10, 23));
    expect(toEpochMs("2026-11-23T10:00:00.000Z")).toBe(Date.UTC(2026, 10, 23, 10));
    expect(toEpochMs("1795000000000")).toBe(1795000000000);
    expect(toEpochMs("2026-11-23 10:00:00+00")).toBe(Date.UTC(2026, 10, 23, 10));
    expect(toEpochMs("2026-11-23 12:00:00+0200")).toBe(Date.UTC(2026, 10, 23, 10));
  });

  test("a row of the wrong shape makes the whole answer a WrongShapeError naming the field", () => {
    expect(() => parseUsageRows([{ time: "soon", outcome: "VALID", total: 1 }])).toThrow(WrongShapeError);
    expect(() => parseUsageRows([{ time: 1, outcome: "MAYBE", total: 1 }])).toThrow(/Row 1, field “outcome”/);
    expect(() => parseUsageRows([{ time: 1, outcome: "VALID", total: -1 }])).toThrow(WrongShapeError);
    expect(() => parseUsageRows(["nope"])).toThrow(WrongShapeError);
  });

  test("verifications keep their tags and, when selected, their key", () => {
    expect(
      parseVerificationRows([
        { request_id: "req_1", time: "1795000000000", outcome: "EXPIRED", region: "eu", tags: ["a"], key_id: "key_1" },
      ]),
    ).toEqual([
      { requestId: "req_1", time: 1795000000000, outcome: "EXPIRED", region: "eu", tags: ["a"], keyId: "key_1" },
    ]);
  });
});
