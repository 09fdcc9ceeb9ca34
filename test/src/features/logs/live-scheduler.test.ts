import { describe, expect, test } from "vitest";
import {
  LIVE_POLICY,
  LiveScheduler,
  type LiveClock,
  type LiveState,
  type PollResult,
} from "@/features/logs/live-scheduler";

const HOUR = 3_600_000;

/** A clock of the test's own: timers run when the test moves time, each poll's answer settled before the next. */
class FakeClock implements LiveClock {
  time = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 0;
  now = () => this.time;
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  };
  /** Runs every timer due until `until`, in order. */
  async advanceTo(until: number): Promise<void> {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const timer = this.timers[0];
      if (timer === undefined || timer.at > until) break;
      this.timers.shift();
      this.time = timer.at;
      timer.callback();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.time = until;
  }
}

function live(answer: (polls: number, at: number) => PollResult) {
  const clock = new FakeClock();
  const starts: number[] = [];
  const states: LiveState[] = [];
  const scheduler = new LiveScheduler(
    () => {
      starts.push(clock.time);
      return Promise.resolve(answer(starts.length, clock.time));
    },
    (state) => states.push(state),
    clock,
  );
  return { clock, starts, states, scheduler };
}

describe("Live's schedule", () => {
  test("asks at once, then every 9 s while verifications arrive: 400 queries in an hour, never more", async () => {
    const { clock, starts, scheduler } = live(() => ({ kind: "rows", arrived: 3 }));
    scheduler.start();
    await clock.advanceTo(HOUR - 1);
    expect(starts[0]).toBe(0);
    expect(starts[1]).toBe(LIVE_POLICY.baseMs);
    expect(starts.length).toBe(400);
    expect(scheduler.spentInLastHour()).toBe(400);
  });

  test("'Check now' many times still starts at most 400 queries in any hour", async () => {
    const { clock, starts, scheduler } = live(() => ({ kind: "rows", arrived: 1 }));
    scheduler.start();
    for (let second = 0; second < 2 * 3600; second++) {
      await clock.advanceTo(second * 1000);
      scheduler.checkNow();
    }
    for (const [index, start] of starts.entries()) {
      const inTheHour = starts.filter((other) => other > start - HOUR && other <= start).length;
      expect(inTheHour, `query ${index} at ${start}`).toBeLessThanOrEqual(400);
    }
    expect(starts.length).toBeGreaterThan(400);
  });

  test("asks less often while nothing arrives, and at the usual pace again once something does", async () => {
    let arriving = false;
    const { clock, starts, scheduler, states } = live(() => ({ kind: "rows", arrived: arriving ? 1 : 0 }));
    scheduler.start();
    await clock.advanceTo(10 * 60_000);
    const gaps = starts.slice(1).map((start, index) => start - (starts[index] ?? 0));
    // Six empty answers in a row, then the wait doubles, up to 30 s.
    expect(gaps.slice(0, 7)).toEqual([9_000, 9_000, 9_000, 9_000, 9_000, 18_000, 30_000]);
    expect(gaps.at(-1)).toBe(LIVE_POLICY.maxMs);
    expect(states.at(-1)).toMatchObject({ phase: "waiting", quiet: true, intervalMs: LIVE_POLICY.maxMs });
    arriving = true;
    scheduler.checkNow();
    const from = clock.time;
    await clock.advanceTo(from + 30_000);
    expect(starts.filter((start) => start >= from).slice(0, 3)).toEqual([from, from + 9_000, from + 18_000]);
  });

  test("asks nothing while the tab is hidden, and asks once it shows again", async () => {
    const { clock, starts, scheduler, states } = live(() => ({ kind: "rows", arrived: 1 }));
    scheduler.start();
    await clock.advanceTo(20_000);
    const before = starts.length;
    scheduler.setVisible(false);
    expect(states.at(-1)).toEqual({ phase: "hidden" });
    await clock.advanceTo(20 * 60_000);
    expect(starts.length).toBe(before);
    scheduler.setVisible(true);
    await clock.advanceTo(20 * 60_000);
    expect(starts.length).toBe(before + 1);
    expect(starts.at(-1)).toBe(20 * 60_000);
  });

  test("the quota's refusal stops it, saying when it may resume; a fatal failure stops it too", async () => {
    const { clock, starts, scheduler, states } = live((polls) =>
      polls < 3 ? { kind: "rows", arrived: 1 } : { kind: "quota", resumeAt: 1_234_567 },
    );
    scheduler.start();
    await clock.advanceTo(HOUR);
    expect(starts.length).toBe(3);
    expect(states.at(-1)).toEqual({ phase: "quota", resumeAt: 1_234_567 });
    const fatal = live(() => ({ kind: "failed", fatal: true }));
    fatal.scheduler.start();
    await fatal.clock.advanceTo(HOUR);
    expect(fatal.starts.length).toBe(1);
    expect(fatal.states.at(-1)).toEqual({ phase: "failed", fatal: true, nextAt: null });
  });

  test("a failure that may pass is tried again later and later", async () => {
    const { clock, starts, scheduler } = live(() => ({ kind: "failed", fatal: false }));
    scheduler.start();
    await clock.advanceTo(60_000);
    expect(starts).toEqual([0, 18_000, 18_000 + 30_000]);
  });

  test("stopping cancels the next query", async () => {
    const { clock, starts, scheduler, states } = live(() => ({ kind: "rows", arrived: 0 }));
    scheduler.start();
    await clock.advanceTo(1_000);
    scheduler.stop();
    await clock.advanceTo(HOUR);
    expect(starts).toEqual([0]);
    expect(states.at(-1)).toEqual({ phase: "off" });
  });
});
