import type { RatelimitBucketRow } from "@/lib/analytics-rows";
import { bucketStarts, type ResolvedRange } from "@/lib/time-range";

/** A namespace's decisions per bucket over a range: what its chart draws and its totals say. */
export interface HistorySeries {
  /** The start of every bucket (ms), oldest first, with no gaps. */
  buckets: number[];
  bucketMs: number;
  passed: number[];
  blocked: number[];
  totalPassed: number;
  totalBlocked: number;
}

/** The chart query's rows (several rows of one bucket add up) laid on the range's buckets. */
export function historySeries(
  rows: readonly RatelimitBucketRow[],
  range: Pick<ResolvedRange, "from" | "to" | "bucketMs">,
): HistorySeries {
  const buckets = bucketStarts(range);
  const first = buckets[0] ?? 0;
  const passed = buckets.map(() => 0);
  const blocked = buckets.map(() => 0);
  for (const row of rows) {
    const index = Math.floor((row.bucket - first) / range.bucketMs);
    if (index < 0 || index >= buckets.length) continue;
    passed[index] = (passed[index] ?? 0) + row.passed;
    blocked[index] = (blocked[index] ?? 0) + Math.max(0, row.total - row.passed);
  }
  const sum = (counts: readonly number[]) => counts.reduce((total, count) => total + count, 0);
  return {
    buckets,
    bucketMs: range.bucketMs,
    passed,
    blocked,
    totalPassed: sum(passed),
    totalBlocked: sum(blocked),
  };
}
