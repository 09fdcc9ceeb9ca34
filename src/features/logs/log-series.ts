import type { BucketRow, LogRow } from "@/lib/analytics-rows";
import { sortOutcomes } from "./log-view";
import { bucketStarts, type ResolvedRange } from "@/lib/time-range";

/** The range's verifications per bucket and outcome: what the chart draws and the overview counts. */
export interface LogSeries {
  /** The start of every bucket (ms), oldest first, with no gaps. */
  buckets: number[];
  bucketMs: number;
  /** The outcomes that occur, in the charts' order. */
  outcomes: string[];
  /** Per outcome, one count per bucket. */
  counts: ReadonlyMap<string, number[]>;
  totals: ReadonlyMap<string, number>;
  total: number;
  /** Every outcome but VALID. */
  refused: number;
}

/**
 * The chart query's rows (several rows of one bucket add up), and the verifications Live found after the range's end,
 * laid on the range's buckets; the grid reaches the newest of them.
 */
export function logSeries(
  rows: readonly BucketRow[],
  arrived: readonly LogRow[],
  range: Pick<ResolvedRange, "from" | "to" | "bucketMs">,
): LogSeries {
  const newest = arrived.reduce((latest, row) => Math.max(latest, row.time), range.to);
  const buckets = bucketStarts({ ...range, to: newest });
  const first = buckets[0] ?? 0;
  const counts = new Map<string, number[]>();
  const add = (time: number, outcome: string, count: number) => {
    const index = Math.floor((time - first) / range.bucketMs);
    if (index < 0 || index >= buckets.length) return;
    let series = counts.get(outcome);
    if (series === undefined) {
      series = buckets.map(() => 0);
      counts.set(outcome, series);
    }
    series[index] = (series[index] ?? 0) + count;
  };
  for (const row of rows) add(row.bucket, row.outcome, row.total);
  for (const row of arrived) add(row.time, row.outcome, 1);
  const totals = new Map([...counts].map(([outcome, series]) => [outcome, series.reduce((sum, n) => sum + n, 0)]));
  const outcomes = sortOutcomes([...totals].filter(([, total]) => total > 0).map(([outcome]) => outcome));
  const total = [...totals.values()].reduce((sum, n) => sum + n, 0);
  return {
    buckets,
    bucketMs: range.bucketMs,
    outcomes,
    counts,
    totals,
    total,
    refused: total - (totals.get("VALID") ?? 0),
  };
}
