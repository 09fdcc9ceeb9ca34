import { USAGE_WINDOWS, type UsageWindow } from "./analytics-sql";
import { ANALYTICS_OUTCOMES, type AnalyticsOutcome } from "./verification-outcomes";
import type { UsageRow } from "./analytics-rows";
import type { OutcomeCounts } from "./key-refusal";

export interface UsageSeries {
  window: UsageWindow;
  /** The start of every bucket (ms), oldest first, with no gaps. */
  buckets: number[];
  /** Per outcome, one count per bucket. */
  counts: Record<AnalyticsOutcome, number[]>;
  /** The outcomes that occur, in the catalog's order. */
  outcomes: AnalyticsOutcome[];
  totals: OutcomeCounts;
  total: number;
}

export function emptyCounts(): OutcomeCounts {
  return Object.fromEntries(ANALYTICS_OUTCOMES.map((outcome) => [outcome, 0])) as OutcomeCounts;
}

/**
 * The rows laid on the window's grid of hours or days ending with the current one (UTC); buckets without rows
 * count zero, rows outside the window are left out.
 */
export function usageSeries(rows: readonly UsageRow[], window: UsageWindow, now: number): UsageSeries {
  const { bucketMs, buckets: size } = USAGE_WINDOWS[window];
  const last = Math.floor(now / bucketMs) * bucketMs;
  const first = last - (size - 1) * bucketMs;
  const buckets = Array.from({ length: size }, (_, index) => first + index * bucketMs);
  const counts = Object.fromEntries(ANALYTICS_OUTCOMES.map((outcome) => [outcome, buckets.map(() => 0)])) as Record<
    AnalyticsOutcome,
    number[]
  >;
  const totals = emptyCounts();
  for (const row of rows) {
    const index = Math.floor((row.time - first) / bucketMs);
    if (index < 0 || index >= size) continue;
    counts[row.outcome][index] = (counts[row.outcome][index] ?? 0) + row.total;
    totals[row.outcome] += row.total;
  }
  const outcomes = ANALYTICS_OUTCOMES.filter((outcome) => totals[outcome] > 0);
  const total = outcomes.reduce((sum, outcome) => sum + totals[outcome], 0);
  return { window, buckets, counts, outcomes, totals, total };
}
