import type { Database } from "better-sqlite3";
import { newId } from "../db/ids";
import type { NamespaceRow } from "../db/ratelimits";
import { createNamespaceLimiter, decide, type LimitAsk } from "./limit";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Decisions per transaction: each shares one commit, small enough that a running server never waits long. */
const BATCH = 2_000;
const PROGRESS_EVERY = 1_000;

/** What a limit of the traffic asks unless an override says otherwise: 60 a minute. */
export const TRAFFIC_LIMIT = { limit: 60, duration: 60_000 } as const;
/** One request in this many starts a burst: the same identifier again and again within seconds, mostly refused. */
const BURST_EVERY = 40;
const BURST_LENGTH = 120;
const BURST_SPAN_MS = 20_000;

export interface RatelimitTrafficOptions {
  namespace: NamespaceRow;
  days: number;
  count: number;
  /** The identifiers limited, the first ones drawn most often (a long tail); `user_1`… by default. */
  identifiers?: readonly string[];
  now?: number;
  random?: () => number;
  onProgress?: (done: number, total: number) => void;
}

function defaultIdentifiers(): string[] {
  return Array.from({ length: 200 }, (_, index) => `user_${index + 1}`);
}

/**
 * Records `count` limit decisions in a namespace spread over the last `days` days, in time order, through
 * ratelimit.limit's own code (its overrides, its sliding window): identifiers drawn with a long tail, and now and then
 * a burst of one identifier that its limit refuses. Returns how many passed and how many were blocked.
 */
export function recordRatelimitTraffic(
  db: Database,
  options: RatelimitTrafficOptions,
): { passed: number; blocked: number } {
  const { namespace, days, count, now = Date.now(), random = Math.random, onProgress } = options;
  const identifiers = options.identifiers ?? defaultIdentifiers();
  const cumulative: number[] = [];
  let total = 0;
  for (let index = 0; index < identifiers.length; index += 1) cumulative.push((total += 1 / (index + 1)));
  const draw = (): string => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] ?? 0) < target) low = middle + 1;
      else high = middle;
    }
    return identifiers[low] ?? "";
  };

  // The calls, in time order: single ones spread over the days, and bursts.
  const calls: { time: number; identifier: string }[] = [];
  while (calls.length < count) {
    const time = now - Math.floor(random() * days * DAY_MS);
    const identifier = draw();
    if (random() * BURST_EVERY < 1) {
      const length = Math.min(BURST_LENGTH, count - calls.length);
      for (let index = 0; index < length; index += 1)
        calls.push({ time: Math.min(now, time + Math.floor((index * BURST_SPAN_MS) / length)), identifier });
    } else {
      calls.push({ time, identifier });
    }
  }
  calls.sort((a, b) => a.time - b.time);

  const limiter = createNamespaceLimiter((work) => work(db));
  let passed = 0;
  const run = db.transaction((from: number) => {
    for (let index = from; index < Math.min(count, from + BATCH); index += 1) {
      const call = calls[index];
      if (call === undefined) continue;
      const ask: LimitAsk = { namespace: namespace.id, identifier: call.identifier, ...TRAFFIC_LIMIT };
      const [decision] = decide([{ namespace, ask }], {
        db,
        limiter,
        caller: { workspaceId: namespace.workspaceId, permissions: "[]" },
        requestId: newId("req"),
        now: call.time,
      });
      if (decision?.passed === true) passed += 1;
      if ((index + 1) % PROGRESS_EVERY === 0) onProgress?.(index + 1, count);
    }
  });
  for (let from = 0; from < count; from += BATCH) run.immediate(from);
  onProgress?.(count, count);
  return { passed, blocked: count - passed };
}
