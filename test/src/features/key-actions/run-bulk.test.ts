import { describe, expect, test } from "vitest";
import { runBulk } from "@/features/key-actions/run-bulk";
import { ApiError } from "@/lib/api-errors";

function rateLimited(retryAfterSeconds: number | null, receivedAt: number): ApiError {
  return new ApiError({
    status: 429,
    title: "Too Many Requests",
    detail: "Slow down",
    type: "https://unkey.com/docs/errors/unkey/application/too_many_requests",
    requestId: null,
    errors: [],
    retryAfterSeconds,
    keySent: true,
    url: "http://127.0.0.1/v2/keys.updateKey",
    receivedAt,
  });
}

describe("runBulk", () => {
  test("never more than the concurrency at once, and every item's outcome in the items' order", async () => {
    let inFlight = 0;
    let most = 0;
    const outcomes = await runBulk(
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
      async (n) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await Promise.resolve();
        inFlight -= 1;
        if (n === 5) throw new Error("five");
      },
      { concurrency: 3 },
    );
    expect(most).toBe(3);
    expect(outcomes.map((outcome) => `${outcome.item}:${outcome.status}`)).toEqual([
      "1:succeeded",
      "2:succeeded",
      "3:succeeded",
      "4:succeeded",
      "5:failed",
      "6:succeeded",
      "7:succeeded",
      "8:succeeded",
      "9:succeeded",
    ]);
  });

  test("a 429 waits until its Retry-After, then the same item is tried again, and no other starts before", async () => {
    let clock = 1_000_000;
    const sleeps: number[] = [];
    const calls: string[] = [];
    let refused = false;
    const outcomes = await runBulk(
      ["a", "b"],
      (item) => {
        calls.push(`${item}@${clock}`);
        if (item === "a" && !refused) {
          refused = true;
          return Promise.reject(rateLimited(3, clock));
        }
        return Promise.resolve();
      },
      {
        concurrency: 1,
        now: () => clock,
        sleep: (ms) => {
          sleeps.push(ms);
          clock += ms;
          return Promise.resolve();
        },
      },
    );
    expect(sleeps).toEqual([3000]);
    expect(calls).toEqual(["a@1000000", "a@1003000", "b@1003000"]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["succeeded", "succeeded"]);
  });

  test("a key rate limited again and again is reported failed with the 429, not retried forever", async () => {
    const outcomes = await runBulk(["a"], () => Promise.reject(rateLimited(1, 0)), {
      sleep: () => Promise.resolve(),
      now: () => 0,
    });
    expect(outcomes[0]?.status).toBe("failed");
  });
});

describe("runBulk halting", () => {
  test("a failure the caller halts on starts no new item: the one under way ends as it does, the rest are not tried", async () => {
    const started: number[] = [];
    let release = () => {};
    const first = new Promise<void>((resolve) => (release = resolve));
    const run = runBulk(
      [1, 2, 3, 4, 5],
      (n) => {
        started.push(n);
        if (n === 1) return first;
        return Promise.reject(new Error("offline"));
      },
      { concurrency: 2, haltOn: (error) => error instanceof Error && error.message === "offline" },
    );
    await expect.poll(() => started).toEqual([1, 2]);
    release();
    const outcomes = await run;
    expect(started).toEqual([1, 2]);
    expect(outcomes.map((outcome) => `${outcome.item}:${outcome.status}`)).toEqual([
      "1:succeeded",
      "2:failed",
      "3:skipped",
      "4:skipped",
      "5:skipped",
    ]);
  });
});
