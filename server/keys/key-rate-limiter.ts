/** One rate limit to check: a verified key's (or its identity's), or a `ratelimit.limit` identifier's in a namespace. */
export interface RateLimitCheck {
  /** Identifies the counter, with the duration: the key's rate limit id, or the namespace and identifier. */
  id: string;
  limit: number;
  durationMs: number;
  cost: number;
}

export interface RateLimitOutcome {
  exceeded: boolean;
  remaining: number;
  /** Unix ms when the current window ends. */
  reset: number;
}

export interface KeyRateLimiter {
  /**
   * Checks every limit at `now`; when none is exceeded, spends `cost` on each. Outcomes in the checks' order.
   * All or nothing: a refused batch spends no tokens.
   */
  take(checks: readonly RateLimitCheck[], now: number): RateLimitOutcome[];
}

/** What was spent on a counter in the window starting at `windowStart` and in the one before it. */
export interface SpentTokens {
  current: number;
  previous: number;
}

export interface KeyRateLimiterOptions {
  /**
   * Where a counter this process holds no count for begins: the tokens its recorded decisions spent (ratelimit.limit's
   * are on disk, so a restart, even after kill -9, goes on from them). Without it a new counter starts at zero.
   */
  spentBefore?: (check: RateLimitCheck, windowStart: number) => SpentTokens;
  /** How many counters are held before the finished ones are dropped (then all, when that frees too few). */
  maxCounters?: number;
}

interface Counter {
  durationMs: number;
  /** Which window `current` counts (windowOf). */
  sequence: number;
  current: number;
  previous: number;
}

const MAX_COUNTERS = 100_000;

/** Which window of `durationMs` holds `time`: the windows are the duration's multiples, numbered from the epoch. */
export function windowOf(time: number, durationMs: number): number {
  return Math.floor(time / durationMs);
}

/**
 * The real service's sliding window (its internal/services/ratelimit): a counter per window of `durationMs`, aligned to
 * its multiples, and a request is let through when what the current window spent, plus the previous window's share
 * that the current one has not yet slid past, plus the request's cost, is at most the limit. So a burst at a window's
 * end and another at the next one's start cannot both pass in full. In memory, one process's view (the server's, or an
 * admin `traffic` run's); `now` is a parameter so `traffic` can replay past days. Exact within the process: JavaScript
 * runs each `take` whole, so concurrent requests are counted one after another.
 */
export function createKeyRateLimiter(options: KeyRateLimiterOptions = {}): KeyRateLimiter {
  const { spentBefore, maxCounters = MAX_COUNTERS } = options;
  const counters = new Map<string, Counter>();

  /** Drops the counters both of whose windows are over at `now`; all of them when that frees less than a tenth. */
  function makeRoom(now: number): void {
    for (const [key, counter] of counters) {
      if (windowOf(now, counter.durationMs) - counter.sequence >= 2) counters.delete(key);
    }
    if (counters.size > maxCounters * 0.9) counters.clear();
  }

  function fresh(check: RateLimitCheck, sequence: number): Counter {
    const spent = spentBefore?.(check, sequence * check.durationMs) ?? { current: 0, previous: 0 };
    return { durationMs: check.durationMs, sequence, current: spent.current, previous: spent.previous };
  }

  function counterOf(check: RateLimitCheck, now: number): Counter {
    const sequence = windowOf(now, check.durationMs);
    const key = `${check.id}/${check.durationMs}`;
    let counter = counters.get(key);
    if (counter === undefined) {
      if (counters.size >= maxCounters) makeRoom(now);
      counter = fresh(check, sequence);
      counters.set(key, counter);
    } else if (counter.sequence === sequence - 1) {
      counter.previous = counter.current;
      counter.current = 0;
      counter.sequence = sequence;
    } else if (counter.sequence !== sequence) {
      // Two windows or more later, or earlier (a replay that starts over in the past): counted afresh.
      counter = fresh(check, sequence);
      counters.set(key, counter);
    }
    return counter;
  }

  return {
    take(checks, now) {
      const counted = checks.map((check) => ({ check, counter: counterOf(check, now), effective: 0 }));
      // Spent first, so a batch that names one counter twice sees its own first spend, as the real service's does.
      for (const { check, counter } of counted) counter.current += check.cost;
      for (const entry of counted) {
        const { check, counter } = entry;
        const slid = (now - counter.sequence * check.durationMs) / check.durationMs;
        entry.effective = counter.current + Math.floor(counter.previous * (1 - slid));
      }
      const refused = counted.some(({ check, effective }) => effective > check.limit);
      if (refused) for (const { check, counter } of counted) counter.current -= check.cost;
      return counted.map(({ check, counter, effective }) => {
        const exceeded = effective > check.limit;
        // A check of a refused batch that would have passed spent nothing: its cost is still there.
        const left = exceeded ? 0 : check.limit - effective + (refused ? check.cost : 0);
        return { exceeded, remaining: Math.max(0, left), reset: (counter.sequence + 1) * check.durationMs };
      });
    },
  };
}
