import type { Database } from "better-sqlite3";
import { catchUpAnalyticsNow } from "../analytics/catch-up-now";
import { createKeyStore } from "../db/key-store";
import { recordTraffic, type TrafficOptions } from "../keys/traffic";
import { recordRatelimitTraffic, type RatelimitTrafficOptions } from "../ratelimit/traffic";

/**
 * The admin CLI's bulk writes (`keys seed`, `traffic`), fast at millions of rows: the same code and statements as one
 * at a time, in large transactions, with a page cache that holds the indexes they read and write at random places (a
 * key's hash, its id): with SQLite's default 2 MB, a million keys spilled and wrote pages back again and again (a third
 * of the seed's time was the kernel's; 14.6 s of system time with 64 MiB, 4.8 s with 256 MiB, against about 19 s).
 * 64 MiB: a seed of 200,000 keys still spills before it commits, as a crash test relies on.
 */

const BULK_CACHE_KIB = 64 * 1024;

/** Runs `work` with a page cache of 64 MiB on `db`, then SQLite's default again. */
export function withBulkCache<T>(db: Database, work: () => T): T {
  const before = db.pragma("cache_size", { simple: true }) as number;
  db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  try {
    return work();
  } finally {
    db.pragma(`cache_size = ${before}`);
  }
}

export interface TrafficRun<Counts> {
  counts: Counts;
  /** What became of the copy into analytics: done here, or left to the running server. */
  analytics: string;
}

interface RunOutput {
  progress: boolean;
  stderr: (text: string) => void;
}

/** Copies what was just recorded into the analytics store (and sums), as the server would at its next start. */
function catchUpAnalytics(db: Database, { progress, stderr }: RunOutput, noun: string): string {
  // The progress bar's line ends before the copy's own progress line.
  if (progress) stderr("\n");
  const copied = catchUpAnalyticsNow(db, { progress });
  return copied.kind === "caught-up"
    ? "analytics: up to date"
    : `analytics: the running server copies the new ${noun} itself`;
}

/**
 * `traffic`: records the verifications as keys.verifyKey records them (recordTraffic), then copies them into the
 * analytics store and its per-hour sums as the server would at its next start, so that start answers analytics at once.
 * A running server holds the store and copies them itself, in the background.
 */
export function runTraffic(
  db: Database,
  options: TrafficOptions,
  output: RunOutput,
): TrafficRun<Record<string, number>> {
  const counts = withBulkCache(db, () => recordTraffic(db, createKeyStore(db), options));
  return { counts, analytics: catchUpAnalytics(db, output, "verifications") };
}

/** `traffic --namespace`: rate-limit decisions as ratelimit.limit makes them, then copied into analytics alike. */
export function runRatelimitTraffic(
  db: Database,
  options: RatelimitTrafficOptions,
  output: RunOutput,
): TrafficRun<{ passed: number; blocked: number }> {
  const counts = withBulkCache(db, () => recordRatelimitTraffic(db, options));
  return { counts, analytics: catchUpAnalytics(db, output, "decisions") };
}
