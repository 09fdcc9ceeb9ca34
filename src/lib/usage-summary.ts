import { USAGE_WINDOWS } from "./analytics-sql";
import { formatCount } from "./format-number";
import { formatUtcDay, formatUtcHour } from "./format-time";
import type { UsageSeries } from "./usage-series";

/** "Nov 23, 10:00 UTC" for an hour, "Nov 23" for a day. */
export function bucketLabel(series: UsageSeries, time: number): string {
  return series.window === "30d" ? formatUtcDay(time) : `${formatUtcHour(time)} UTC`;
}

/** The chart's accessible name: what it shows and its numbers in one sentence. */
export function usageSummary(series: UsageSeries): string {
  const { label } = USAGE_WINDOWS[series.window];
  const per = series.window === "30d" ? "day" : "hour";
  if (series.total === 0) return `Verifications per ${per} over the last ${label}: none.`;
  const parts = series.outcomes.map((outcome) => `${formatCount(series.totals[outcome])} ${outcome}`).join(", ");
  let busiest = 0;
  let busiestCount = -1;
  for (const [index, time] of series.buckets.entries()) {
    const count = series.outcomes.reduce((sum, outcome) => sum + (series.counts[outcome][index] ?? 0), 0);
    if (count > busiestCount) {
      busiest = time;
      busiestCount = count;
    }
  }
  return (
    `Verifications per ${per} over the last ${label}, by outcome: ${formatCount(series.total)} in all (${parts}); ` +
    `the busiest ${per} was ${bucketLabel(series, busiest)} with ${formatCount(busiestCount)}.`
  );
}
