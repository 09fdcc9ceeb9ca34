import { ApiError } from "../../lib/api-errors";

/** How many requests a bulk change keeps in flight: quick for 50 keys, gentle on a rate-limited root key. */
export const BULK_CONCURRENCY = 4;
/** How often one key is tried again after a 429 before it is reported as failed. */
const MAX_RATE_LIMIT_WAITS = 5;
/** A 429 without Retry-After waits this long. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 1_000;

export type BulkOutcome<T> =
  | { item: T; status: "succeeded" }
  | { item: T; status: "failed"; error: unknown }
  /** Not attempted: the run was cancelled, or halted, first. */
  | { item: T; status: "skipped" };

export interface BulkProgress {
  /** Items finished, succeeded or failed. */
  done: number;
  total: number;
  /** Until when every worker waits for the rate limit (ms since the epoch), or null. */
  waitingUntil: number | null;
}

export interface RunBulkOptions {
  concurrency?: number;
  /** Cancelling starts no new request; those in flight finish and are reported as they ended. */
  signal?: AbortSignal;
  /** A failure after which no new item starts (as if cancelled): the connection is gone, the rest would fail alike. */
  haltOn?: (error: unknown) => boolean;
  onProgress?: (progress: BulkProgress) => void;
  /** Resolves after `ms`, or early when `signal` aborts (tests give their own). */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  now?: () => number;
}

/**
 * Runs `task` once for each item, at most `concurrency` at a time, and reports every item's outcome, in the
 * items' order. A 429 pauses every worker until its Retry-After, then the same item is tried again; any other
 * failure is that item's outcome and the run goes on. Never rejects.
 */
export async function runBulk<T>(
  items: readonly T[],
  task: (item: T) => Promise<unknown>,
  options: RunBulkOptions = {},
): Promise<BulkOutcome<T>[]> {
  const { concurrency = BULK_CONCURRENCY, signal, haltOn, onProgress, sleep = sleepFor, now = Date.now } = options;
  const outcomes: (BulkOutcome<T> | undefined)[] = items.map(() => undefined);
  let next = 0;
  let done = 0;
  let waitingUntil: number | null = null;
  let halted = false;
  const stopped = () => halted || signal?.aborted === true;
  const report = () => onProgress?.({ done, total: items.length, waitingUntil });

  async function attempt(item: T): Promise<BulkOutcome<T>> {
    for (let waits = 0; ; waits += 1) {
      if (waitingUntil !== null && waitingUntil > now()) await sleep(waitingUntil - now(), signal);
      if (stopped()) return { item, status: "skipped" };
      try {
        await task(item);
        return { item, status: "succeeded" };
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 429) || waits >= MAX_RATE_LIMIT_WAITS) {
          if (haltOn?.(error) === true) halted = true;
          return { item, status: "failed", error };
        }
        const until = error.retryAt ?? now() + DEFAULT_RATE_LIMIT_WAIT_MS;
        waitingUntil = Math.max(waitingUntil ?? 0, until);
        report();
      }
    }
  }

  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index] as T;
      if (stopped()) {
        outcomes[index] = { item, status: "skipped" };
        continue;
      }
      const outcome = await attempt(item);
      outcomes[index] = outcome;
      if (outcome.status !== "skipped") {
        done += 1;
        if (waitingUntil !== null && waitingUntil <= now()) waitingUntil = null;
        report();
      }
    }
  }

  report();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return outcomes.map((outcome, index) => outcome ?? { item: items[index] as T, status: "skipped" });
}

function sleepFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
