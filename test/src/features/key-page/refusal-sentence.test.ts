import { describe, expect, test } from "vitest";
import { nextRefill, formatRateLimit } from "@/lib/key-limits";
import { refusalVerdict, verdictTurnsAt } from "@/features/key-page/refusal-sentence";
import { emptyCounts, usageSeries } from "@/lib/usage-series";

const NOW = Date.UTC(2026, 10, 23, 10, 30); // Mon Nov 23 2026, 10:30 UTC
const DAY = 86_400_000;

function counts(values: Partial<ReturnType<typeof emptyCounts>>) {
  return { ...emptyCounts(), ...values };
}

describe("why a key is refused, in one sentence", () => {
  test("an expired key names when it expired and how many verifications it cost", () => {
    const verdict = refusalVerdict({ expires: NOW - 3 * DAY }, counts({ EXPIRED: 42, VALID: 8 }), NOW);
    expect(verdict).toEqual({
      tone: "refused",
      text: "Refused because it expired 3 days ago (Nov 20): 42 of 50 verifications in the last 24 h were EXPIRED.",
    });
  });

  test("a key that only verified fine says how often", () => {
    expect(refusalVerdict({ enabled: true }, counts({ VALID: 120 }), NOW)).toEqual({
      tone: "ok",
      text: "Verified fine 120 times in the last 24 h.",
    });
  });

  test("a disabled key says so, also when nobody tried it", () => {
    expect(refusalVerdict({ enabled: false }, counts({}), NOW).text).toBe(
      "Refused because it is disabled; nobody tried it in the last 24 h.",
    );
  });

  test("a key out of credits says when they refill", () => {
    const verdict = refusalVerdict(
      { credits: { remaining: 0, refill: { interval: "monthly", amount: 1000, refillDay: 1 } } },
      counts({ USAGE_EXCEEDED: 7, VALID: 3 }),
      NOW,
    );
    expect(verdict.text).toBe(
      "Refused because it is out of credits until they refill next week (Dec 1): 7 of 10 verifications in the last 24 h were USAGE_EXCEEDED.",
    );
  });

  test("rate-limited refusals name the key's rate limit", () => {
    const verdict = refusalVerdict(
      { ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }] },
      counts({ VALID: 90, RATE_LIMITED: 12 }),
      NOW,
    );
    expect(verdict).toEqual({
      tone: "warning",
      text: "Refused at times because callers went over its rate limit “requests” (10 per 1 minute): 12 of 102 verifications in the last 24 h were refused as RATE_LIMITED.",
    });
  });

  test("FORBIDDEN refusals name the API's IP whitelist, their only cause", () => {
    expect(refusalVerdict({ enabled: true }, counts({ VALID: 6, FORBIDDEN: 4 }), NOW).text).toBe(
      "Refused at times because callers came from an address its API's IP whitelist does not list: 4 of 10 verifications in the last 24 h were refused as FORBIDDEN.",
    );
  });

  test("rate-limited refusals also say when the window that refused last resets, ahead or passed", () => {
    const key = { ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }] };
    const refusedAt = NOW - 20_000; // 10:29:40, in the window that ends at 10:30:00
    const ahead = refusalVerdict(key, counts({ RATE_LIMITED: 12 }), NOW - 30_000, (outcome) =>
      outcome === "RATE_LIMITED" ? refusedAt : undefined,
    );
    expect(ahead.text).toBe(
      "Refused mostly because callers went over its rate limit “requests” (10 per 1 minute): 12 of 12 verifications in the last 24 h were refused as RATE_LIMITED; the window that refused last resets at 2026-11-23 10:30:00 UTC (in under a minute).",
    );
    const passed = refusalVerdict(key, counts({ RATE_LIMITED: 12 }), NOW + 5_000, () => refusedAt);
    expect(passed.text).toMatch(/; the window that refused last reset at 2026-11-23 10:30:00 UTC, passed\.$/);
    // Changed after the refusal (its limit raised): the limit named is the key's as it is now, so that is said.
    const raised = refusalVerdict(
      { ...key, updatedAt: refusedAt + 10_000 },
      counts({ RATE_LIMITED: 12 }),
      NOW - 5_000,
      () => refusedAt,
    );
    expect(raised.text).toMatch(
      /resets at 2026-11-23 10:30:00 UTC \(in under a minute\); the key was changed since, just now\.$/,
    );
  });

  test("the verdict turns by itself at the key's expiry or the refusing window's reset, whichever comes first", () => {
    const key = {
      ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }],
      expires: NOW + DAY,
    };
    const refusedAt = NOW - 20_000; // in the window that ends at 10:30:00
    expect(verdictTurnsAt(key, NOW - 30_000, () => refusedAt)).toBe(NOW);
    // The reset passed: the expiry is next.
    expect(verdictTurnsAt(key, NOW, () => refusedAt)).toBe(NOW + DAY);
    expect(verdictTurnsAt({ expires: NOW - DAY }, NOW)).toBeUndefined();
  });

  test("a key both disabled and expired is refused as the server records it: disabled first", () => {
    const verdict = refusalVerdict({ enabled: false, expires: NOW - DAY }, counts({ DISABLED: 2 }), NOW);
    expect(verdict.text).toBe(
      "Refused because it is disabled and it expired yesterday (Nov 22): 2 of 2 verifications in the last 24 h were DISABLED.",
    );
  });

  test("when the fields and the recorded outcomes disagree, the sentence says both", () => {
    const verdict = refusalVerdict(
      { credits: { remaining: 0 }, ratelimits: [{ name: "hourly", limit: 1, duration: 3_600_000, autoApply: true }] },
      counts({ VALID: 1, RATE_LIMITED: 2 }),
      NOW,
    );
    expect(verdict).toEqual({
      tone: "refused",
      text: "Refused because it is out of credits and none are refilled; yet none of the last 24 h's verifications was USAGE_EXCEEDED: 2 of 3 were RATE_LIMITED, because callers went over its rate limit “hourly” (1 per 1 hour).",
    });
  });

  test("without analytics, the fields still answer", () => {
    expect(refusalVerdict({ expires: NOW - DAY }, null, NOW).text).toBe(
      "Refused because it expired yesterday (Nov 22).",
    );
    expect(refusalVerdict({}, null, NOW).tone).toBe("quiet");
  });

  test("an unused key says when it was last used", () => {
    expect(refusalVerdict({ lastUsedAt: NOW - 2 * DAY }, counts({}), NOW).text).toBe(
      "Not verified in the last 24 h; last used 2 days ago (Nov 21).",
    );
  });

  test("a use or a change later than the page's clock (it ticks once a minute) is said as the past, not the future", () => {
    expect(refusalVerdict({ lastUsedAt: NOW + 20_000 }, counts({}), NOW).text).toBe(
      "Not verified in the last 24 h; last used just now (Nov 23).",
    );
    const key = {
      ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }],
      updatedAt: NOW + 20_000,
    };
    expect(refusalVerdict(key, counts({ RATE_LIMITED: 12 }), NOW, () => NOW - 20_000).text).toMatch(
      /; the key was changed since, just now\.$/,
    );
  });
});

describe("the next refill", () => {
  test("daily credits refill at the next midnight UTC", () => {
    expect(nextRefill({ remaining: 0, refill: { interval: "daily", amount: 10 } }, NOW)).toBe(Date.UTC(2026, 10, 24));
  });

  test("monthly credits refill on the refill day, this month if it is still to come", () => {
    const refill = (refillDay: number) =>
      nextRefill({ remaining: 0, refill: { interval: "monthly", amount: 10, refillDay } }, NOW);
    expect(refill(28)).toBe(Date.UTC(2026, 10, 28));
    expect(refill(1)).toBe(Date.UTC(2026, 11, 1));
    expect(refill(23)).toBe(Date.UTC(2026, 11, 23));
  });

  test("a refill day beyond the month's end is its last day", () => {
    const jan31 = Date.UTC(2027, 0, 31, 12);
    expect(nextRefill({ remaining: 0, refill: { interval: "monthly", amount: 10, refillDay: 31 } }, jan31)).toBe(
      Date.UTC(2027, 1, 28),
    );
  });

  test("no refill, no date", () => {
    expect(nextRefill({ remaining: 5 }, NOW)).toBeNull();
    expect(nextRefill(undefined, NOW)).toBeNull();
  });

  test("rate limits read as a person says them", () => {
    expect(formatRateLimit({ name: "a", limit: 1000, duration: 3_600_000 })).toBe("1,000 per 1 hour");
    expect(formatRateLimit({ name: "a", limit: 5, duration: 90_000 })).toBe("5 per 90 seconds");
  });
});

describe("usage on a grid", () => {
  test("24 hourly buckets end with the current hour; gaps are zero and old rows are left out", () => {
    const hour = 3_600_000;
    const current = Math.floor(NOW / hour) * hour;
    const series = usageSeries(
      [
        { time: current, outcome: "VALID", total: 5 },
        { time: current - 2 * hour, outcome: "EXPIRED", total: 3 },
        { time: current - 30 * hour, outcome: "VALID", total: 99 },
      ],
      "24h",
      NOW,
    );
    expect(series.buckets).toHaveLength(24);
    expect(series.buckets.at(-1)).toBe(current);
    expect(series.counts.VALID.at(-1)).toBe(5);
    expect(series.counts.EXPIRED.at(-3)).toBe(3);
    expect(series.outcomes).toEqual(["VALID", "EXPIRED"]);
    expect(series.total).toBe(8);
  });

  test("30 daily buckets end today", () => {
    const series = usageSeries([{ time: Date.UTC(2026, 9, 25), outcome: "VALID", total: 1 }], "30d", NOW);
    expect(series.buckets[0]).toBe(Date.UTC(2026, 9, 25));
    expect(series.buckets.at(-1)).toBe(Date.UTC(2026, 10, 23));
    expect(series.total).toBe(1);
  });
});
