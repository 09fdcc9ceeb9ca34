import { describe, expect, test } from "vitest";
import { historySeries } from "@/features/ratelimits/history-series";
import { appliedOverride, limitWords, windowParts, windowWords } from "@/features/ratelimits/override-words";

const override = (identifier: string, limit = 10, overrideId = identifier) => ({
  overrideId,
  identifier,
  limit,
  duration: 60_000,
});

describe("overrides in words", () => {
  test("a window by its largest whole unit; a limit of 0 is Blocked", () => {
    expect(windowWords(60_000)).toBe("minute");
    expect(windowWords(90_000)).toBe("90 seconds");
    expect(windowWords(7_200_000)).toBe("2 hours");
    expect(windowWords(86_400_000)).toBe("day");
    expect(windowWords(1_500)).toBe("1,500 ms");
    expect(windowParts(3_600_000)).toEqual({ count: 1, unit: "hour" });
    expect(limitWords(0, 60_000)).toBe("Blocked");
    expect(limitWords(1000, 3_600_000)).toBe("1,000 per hour");
  });

  test("the override that applies: exact first, then the most specific pattern, ties said", () => {
    const overrides = [
      override("*"),
      override("team_*"),
      override("team_acme"),
      override("*_acme"),
      override("te*m_*"),
    ];
    expect(appliedOverride("team_acme", overrides)?.override.identifier).toBe("team_acme");
    expect(appliedOverride("team_42", overrides)?.override.identifier).toBe("team_*");
    expect(appliedOverride("team_42", overrides)?.tiedWith).toEqual([]);
    expect(appliedOverride("org_acme", overrides)?.override.identifier).toBe("*_acme");
    expect(appliedOverride("user_1", overrides)?.override.identifier).toBe("*");
    expect(appliedOverride("user_1", [override("team_*")])).toBeUndefined();
    const tied = appliedOverride("ab", [override("a*"), override("*b")]);
    expect(tied?.override.identifier).toBe("a*");
    expect(tied?.tiedWith.map((other) => other.identifier)).toEqual(["*b"]);
  });

  test("the history's rows laid on the range's buckets: rows of one bucket add up, blocked is total less passed", () => {
    const hour = 3_600_000;
    const series = historySeries(
      [
        { bucket: 2 * hour, passed: 3, total: 5 },
        { bucket: 2 * hour, passed: 1, total: 1 },
        { bucket: 4 * hour, passed: 0, total: 2 },
        { bucket: 9 * hour, passed: 9, total: 9 },
      ],
      { from: hour, to: 4 * hour + 10, bucketMs: hour },
    );
    expect(series.buckets).toEqual([hour, 2 * hour, 3 * hour, 4 * hour]);
    expect(series.passed).toEqual([0, 4, 0, 0]);
    expect(series.blocked).toEqual([0, 2, 0, 2]);
    expect([series.totalPassed, series.totalBlocked]).toEqual([4, 4]);
  });
});
