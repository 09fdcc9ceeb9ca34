import { describe, expect, test } from "vitest";
import { createKeyRateLimiter, type RateLimitCheck } from "../../../server/keys/key-rate-limiter";

/** The limiter of keys.verifyKey and ratelimit.limit: the real service's sliding window, counted in memory. */

const MINUTE = 60_000;
const START = 1_000 * MINUTE;
const check = (limit: number, cost = 1, id = "counter"): RateLimitCheck => ({ id, limit, durationMs: MINUTE, cost });

describe("the sliding window", () => {
  test("a window lets exactly the limit through; remaining and reset are the real service's", () => {
    const limiter = createKeyRateLimiter();
    const outcomes = Array.from({ length: 4 }, (_, index) => limiter.take([check(3)], START + index)[0]);
    expect(outcomes).toEqual([
      { exceeded: false, remaining: 2, reset: START + MINUTE },
      { exceeded: false, remaining: 1, reset: START + MINUTE },
      { exceeded: false, remaining: 0, reset: START + MINUTE },
      { exceeded: true, remaining: 0, reset: START + MINUTE },
    ]);
  });

  test("the previous window counts for what the current one has not slid past", () => {
    const limiter = createKeyRateLimiter();
    for (let index = 0; index < 10; index += 1) limiter.take([check(10)], START + index);
    // A quarter into the next window, three quarters of the previous 10 still count: 7 + 1 ≤ 10, three pass.
    const quarter = START + MINUTE + MINUTE / 4;
    const passed = Array.from({ length: 5 }, () => limiter.take([check(10)], quarter)[0]?.exceeded === false);
    expect(passed).toEqual([true, true, true, false, false]);
    // Two windows on, nothing of either counts.
    expect(limiter.take([check(10, 10)], START + 3 * MINUTE)[0]).toMatchObject({ exceeded: false, remaining: 0 });
  });

  test("a cost counts as that many requests, and a cost above the limit is refused at once", () => {
    const limiter = createKeyRateLimiter();
    expect(limiter.take([check(100, 5)], START)[0]?.remaining).toBe(95);
    expect(limiter.take([check(100, 101)], START)[0]).toMatchObject({ exceeded: true, remaining: 0 });
    expect(limiter.take([check(100, 0)], START)[0]?.remaining).toBe(95);
  });

  test("a limit of 0 refuses every request that costs anything", () => {
    const limiter = createKeyRateLimiter();
    expect(limiter.take([check(0)], START)[0]).toMatchObject({ exceeded: true, remaining: 0 });
  });
});

describe("a batch", () => {
  test("is all or nothing: a refused batch spends nothing, and tells each check's own fate", () => {
    const limiter = createKeyRateLimiter();
    limiter.take([check(1, 1, "tight")], START);
    const outcomes = limiter.take([check(10, 1, "loose"), check(1, 1, "tight")], START + 1);
    expect(outcomes).toEqual([
      // Nothing was spent on it: all ten are left, as the real service answers a passing check of a refused batch.
      { exceeded: false, remaining: 10, reset: START + MINUTE },
      { exceeded: true, remaining: 0, reset: START + MINUTE },
    ]);
    expect(limiter.take([check(10, 1, "loose")], START + 2)[0]?.remaining).toBe(9);
  });

  test("that names one counter twice sees its own first spend", () => {
    const limiter = createKeyRateLimiter();
    expect(limiter.take([check(1), check(1)], START).map((outcome) => outcome.exceeded)).toEqual([true, true]);
    expect(limiter.take([check(2), check(2)], START).map((outcome) => outcome.exceeded)).toEqual([false, false]);
  });
});

describe("counters this process has not seen", () => {
  test("begin from what was spent before, in the current and the previous window", () => {
    const asked: number[] = [];
    const limiter = createKeyRateLimiter({
      spentBefore: (_check, windowStart) => {
        asked.push(windowStart);
        return { current: 4, previous: 8 };
      },
    });
    // Half through: 4 + 8 × 0.5 + 1 = 9 ≤ 10, then 10, then 11.
    const half = START + MINUTE / 2;
    expect(limiter.take([check(10)], half)[0]?.remaining).toBe(1);
    expect(limiter.take([check(10)], half)[0]?.remaining).toBe(0);
    expect(limiter.take([check(10)], half)[0]?.exceeded).toBe(true);
    expect(asked).toEqual([START]);
  });

  test("when the counters are full, finished ones go first and a dropped counter begins again from what was spent", () => {
    const spent = new Map<string, number>();
    const limiter = createKeyRateLimiter({
      maxCounters: 10,
      spentBefore: (c) => ({ current: spent.get(c.id) ?? 0, previous: 0 }),
    });
    const take = (id: string, at: number) => {
      const outcome = limiter.take([check(2, 1, id)], at)[0];
      if (outcome?.exceeded === false) spent.set(id, (spent.get(id) ?? 0) + 1);
      return outcome?.exceeded;
    };
    expect([take("kept", START), take("kept", START)]).toEqual([false, false]);
    for (let index = 0; index < 30; index += 1) take(`other ${index}`, START + 1);
    expect(take("kept", START + 2)).toBe(true);
  });
});
