/** One rate limit to check for a verification. */
export interface RateLimitCheck {
  /** Identifies the counter: the key's rate limit id. */
  id: string;
  limit: number;
  durationMs: number;
  cost: number;
}

export interface RateLimitOutcome {
  exceeded: boolean;
  remaining: number;
  /** Unix ms when the window resets. */
  reset: number;
}

export interface KeyRateLimiter {
  /**
   * Checks every limit at `now`; when none is exceeded, spends `cost` on each. Outcomes in the checks' order.
   * All or nothing: a refused verification spends no tokens.
   */
  take(checks: readonly RateLimitCheck[], now: number): RateLimitOutcome[];
}

interface Window {
  start: number;
  used: number;
}

const MAX_COUNTERS = 100_000;

/**
 * Fixed windows aligned to multiples of the duration, in memory: one process's view (the server's, or an admin
 * `traffic` run's), like the root keys' limiter. `now` is a parameter so `traffic` can replay past days.
 */
export function createKeyRateLimiter(): KeyRateLimiter {
  const windows = new Map<string, Window>();

  function windowOf(check: RateLimitCheck, now: number): Window {
    const start = now - (now % check.durationMs);
    const counterKey = `${check.id}/${check.durationMs}`;
    let window = windows.get(counterKey);
    if (window?.start !== start) {
      if (window === undefined && windows.size >= MAX_COUNTERS) windows.clear();
      window = { start, used: 0 };
      windows.set(counterKey, window);
    }
    return window;
  }

  return {
    take(checks, now) {
      const current = checks.map((check) => windowOf(check, now));
      const exceeded = checks.some((check, index) => (current[index]?.used ?? 0) + check.cost > check.limit);
      return checks.map((check, index) => {
        const window = current[index] ?? { start: now, used: 0 };
        const over = window.used + check.cost > check.limit;
        if (!exceeded) window.used += check.cost;
        return {
          exceeded: over,
          remaining: Math.max(0, check.limit - window.used),
          reset: window.start + check.durationMs,
        };
      });
    },
  };
}
