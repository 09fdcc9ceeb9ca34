import { describe, expect, test } from "vitest";
import { ratelimitRows } from "@/lib/ratelimit-rows";
import {
  creditsDraft,
  creditsUpdate,
  parseCredits,
  parseRatelimits,
} from "@/features/key-actions/components/key-form-fields";
import { namesChange } from "@/features/key-actions/key-access";

describe("credits: only the part that changed is sent", () => {
  const before = { remaining: 40, refill: { interval: "daily" as const, amount: 50 } };
  test("the same credits send nothing", () => expect(creditsUpdate(before, { ...before })).toBeUndefined());
  test("a new count alone", () => expect(creditsUpdate(before, { ...before, remaining: 7 })).toEqual({ remaining: 7 }));
  test("a new refill alone", () =>
    expect(creditsUpdate(before, { remaining: 40, refill: { interval: "daily", amount: 9 } })).toEqual({
      refill: { interval: "daily", amount: 9 },
    }));
  test("no refill any more is a null refill", () =>
    expect(creditsUpdate(before, { remaining: 40 })).toEqual({ refill: null }));
  test("unlimited is null", () => expect(creditsUpdate(before, undefined)).toBeNull());
  test("unlimited to unlimited sends nothing", () =>
    expect(creditsUpdate({ remaining: null }, undefined)).toBeUndefined());
  test("from unlimited, the count and its refill", () =>
    expect(
      creditsUpdate(undefined, { remaining: 5, refill: { interval: "monthly", amount: 5, refillDay: 3 } }),
    ).toEqual({ remaining: 5, refill: { interval: "monthly", amount: 5, refillDay: 3 } }));
  test("a key's credits read back into the same credits", () => {
    const monthly = { remaining: 10, refill: { interval: "monthly" as const, amount: 50, refillDay: 1 } };
    expect(parseCredits(creditsDraft(monthly, Date.UTC(2026, 10, 26)))).toEqual({ ok: true, value: monthly });
    expect(creditsDraft(undefined, Date.UTC(2026, 10, 26)).refillDay).toBe("26");
  });
});

describe("rate limits", () => {
  test("a key's limits read back as they were, whether every verification is checked against them or not", () => {
    const limits = [
      { name: "requests", limit: 10, duration: 60_000, autoApply: true },
      { name: "uploads", limit: 2, duration: 1_500, autoApply: false },
    ];
    expect(parseRatelimits(ratelimitRows(limits))).toEqual({ ok: true, value: limits });
  });
  test("a window shorter than a second, finer than a millisecond, or a name twice is said", () => {
    const row = { name: "requests", limit: "1", seconds: "0.5", autoApply: true };
    const problem = (rows: (typeof row)[]) => {
      const parsed = parseRatelimits(rows);
      return parsed.ok ? null : parsed.error;
    };
    expect(problem([row])).toContain("at least 1 second");
    expect(problem([{ ...row, seconds: "1.0005" }])).toContain("to the millisecond");
    expect(
      problem([
        { ...row, seconds: "1" },
        { ...row, seconds: "2" },
      ]),
    ).toContain("twice");
  });
});

describe("a key's own names: one request", () => {
  test("added, removed, both (set), neither", () => {
    expect(namesChange(["a"], ["a", "b"])).toEqual({ change: "add", names: ["b"] });
    expect(namesChange(["a", "b"], ["a"])).toEqual({ change: "remove", names: ["b"] });
    expect(namesChange(["a"], ["b"])).toEqual({ change: "set", names: ["b"] });
    expect(namesChange(["a", "b"], ["b", "a"])).toBeUndefined();
  });
});
