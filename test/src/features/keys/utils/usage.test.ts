import { describe, expect, test } from "vitest";
import {
  parseHour,
  usageFromRows,
  usageSql,
  usageText,
  usageTotalsChunks,
  usageTotalsFromRows,
  usageTotalsSql,
  UsageShapeError,
} from "@/features/keys/utils/usage";

const NOW = Date.UTC(2026, 10, 23, 18, 30);

describe("usageSql", () => {
  test("one ClickHouse query over the hourly table for the given ids, sorted, deduplicated", () => {
    expect(usageSql(["key_B", "key_A", "key_B"])).toBe(
      "SELECT key_id, time, outcome, SUM(count) AS count FROM key_verifications_per_hour_v1 " +
        "WHERE time >= now() - INTERVAL 36 HOUR AND key_id IN ('key_A', 'key_B') GROUP BY key_id, time, outcome",
    );
  });
  test("an id that is not letters, digits and _ never reaches the SQL text", () => {
    expect(usageSql(["key_A", "key_x') OR 1=1 --"])).not.toContain("OR 1=1");
  });
});

describe("usageFromRows", () => {
  test("counts by hour and outcome, ClickHouse's DateTime text and string counts read too", () => {
    const usage = usageFromRows(
      [
        { key_id: "key_A", time: "2026-11-23 18:00:00", outcome: "VALID", count: "120" },
        { key_id: "key_A", time: "2026-11-23 17:00:00", outcome: "RATE_LIMITED", count: 3 },
        { key_id: "key_A", time: Date.UTC(2026, 10, 23, 17), outcome: "USAGE_EXCEEDED", count: 5 },
      ],
      ["key_A", "key_B"],
      NOW,
    );
    const a = usage.get("key_A");
    expect(a?.totals).toEqual({ valid: 120, rateLimited: 3, refused: 8 });
    expect(a?.hours.at(-1)).toEqual({ valid: 120, refused: 0 });
    expect(a?.hours.at(-2)).toEqual({ valid: 0, refused: 8 });
    expect(usage.get("key_B")?.totals).toEqual({ valid: 0, rateLimited: 0, refused: 0 });
    expect(usageText(a ?? { hours: [], totals: { valid: 0, rateLimited: 0, refused: 0 } })).toBe(
      "36 h: 120 valid, 8 refused",
    );
  });
  test("an answer of the wrong shape is an error, not wrong bars", () => {
    expect(() => usageFromRows([{ key: "key_A" }], ["key_A"], NOW)).toThrow(UsageShapeError);
  });
  test("hours as seconds, milliseconds or ISO", () => {
    expect(parseHour(1_700_000_000)).toBe(1_700_000_000_000);
    expect(parseHour("2026-11-23T18:00:00Z")).toBe(Date.UTC(2026, 10, 23, 18));
    expect(parseHour("not a time")).toBeNull();
  });
});

describe("usage totals, for sorting every loaded key by use", () => {
  test("one ClickHouse query per chunk: the window's verifications grouped by key over the hourly table", () => {
    expect(usageTotalsSql(["key_B", "key_A"])).toBe(
      "SELECT key_id, SUM(count) AS total FROM key_verifications_per_hour_v1 " +
        "WHERE time >= now() - INTERVAL 36 HOUR AND key_id IN ('key_B', 'key_A') GROUP BY key_id",
    );
  });

  test("chunks keep every query under the length limit, in the order given, and appending ids leaves full chunks as they were", () => {
    const ids = Array.from({ length: 5000 }, (_, index) => `key_${String(index).padStart(22, "x")}`);
    const chunks = usageTotalsChunks(ids);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.flat()).toEqual(ids);
    for (const chunk of chunks) expect(usageTotalsSql(chunk).length).toBeLessThanOrEqual(48 * 1024);
    const more = usageTotalsChunks([...ids, "key_appended"]);
    expect(more.slice(0, -1)).toEqual(chunks.slice(0, -1));
  });

  test("an unsafe or repeated id never reaches the SQL text", () => {
    expect(usageTotalsChunks(["key_A", "key_x') OR 1=1 --", "key_A"])).toEqual([["key_A"]]);
  });

  test("every asked key gets a total, 0 without a row; ClickHouse's string counts read too", () => {
    expect(
      usageTotalsFromRows(
        [
          { key_id: "key_A", total: "12" },
          { key_id: "key_other", total: 3 },
        ],
        ["key_A", "key_B"],
      ),
    ).toEqual(
      new Map([
        ["key_A", 12],
        ["key_B", 0],
      ]),
    );
  });

  test("a row of the wrong shape fails the whole answer", () => {
    expect(() => usageTotalsFromRows([{ key_id: "key_A", total: "lots" }], ["key_A"])).toThrow(UsageShapeError);
  });
});
