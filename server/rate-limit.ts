export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /** Counts one request against the key; undefined when allowed, else the whole seconds (≥ 1) until a request frees up. */
  take(keyId: string, rateLimit: RateLimit): number | undefined;
}

interface Window {
  startedAt: number;
  used: number;
}

/** Fixed windows per root key, in memory: a window opens with a key's first request and resets after `windowMs`. */
export function createRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, Window>();
  return {
    take(keyId, { limit, windowMs }) {
      const at = now();
      let window = windows.get(keyId);
      if (window === undefined || at - window.startedAt >= windowMs) {
        window = { startedAt: at, used: 0 };
        windows.set(keyId, window);
      }
      if (window.used < limit) {
        window.used += 1;
        return undefined;
      }
      return Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000));
    },
  };
}
