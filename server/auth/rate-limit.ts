import { join } from "node:path";
import type { Database } from "better-sqlite3";

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /** Counts one request against the key; undefined when allowed, else the whole seconds (≥ 1) until a request frees up. */
  take(keyId: string, rateLimit: RateLimit): number | undefined;
}

export const RATE_LIMIT_FILE_NAME = "rate-limits.sqlite";

interface WindowRow {
  started_at: number;
  used: number;
}

/**
 * Fixed windows per root key: a window opens with a key's first request and resets after `windowMs`. The
 * windows are kept in SQLite, so a restart does not hand out a fresh allowance and several server processes on
 * one data directory share one count. They live in a file of their own, attached to the server's connection:
 * they are counters rather than data (no migration, safe to delete), and their writes must not change the main
 * database's `data_version`, which every server reads to know when the admin CLI changed something.
 */
export function createRateLimiter(db: Database, dataDir: string, now: () => number = Date.now): RateLimiter {
  db.prepare("ATTACH DATABASE ? AS rate_limits").run(join(dataDir, RATE_LIMIT_FILE_NAME));
  db.pragma("rate_limits.journal_mode = WAL");
  db.exec(`CREATE TABLE IF NOT EXISTS rate_limits.windows (
    key_id TEXT PRIMARY KEY,
    started_at INTEGER NOT NULL,
    used INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID`);
  // One statement, so two processes counting at once cannot both read the same count. The SET expressions all
  // see the row as it was; a refused request leaves the count at limit + 1.
  const count = db.prepare<[{ keyId: string; at: number; windowMs: number; limit: number }], WindowRow>(
    `INSERT INTO rate_limits.windows (key_id, started_at, used) VALUES (@keyId, @at, 1)
     ON CONFLICT (key_id) DO UPDATE SET
       started_at = CASE WHEN @at - started_at >= @windowMs OR @at < started_at THEN @at ELSE started_at END,
       used = CASE WHEN @at - started_at >= @windowMs OR @at < started_at THEN 1 ELSE min(used + 1, @limit + 1) END
     RETURNING started_at, used`,
  );
  return {
    take(keyId, { limit, windowMs }) {
      const at = now();
      const window = count.get({ keyId, at, windowMs, limit });
      if (window === undefined || window.used <= limit) return undefined;
      return Math.max(1, Math.ceil((window.started_at + windowMs - at) / 1000));
    },
  };
}
