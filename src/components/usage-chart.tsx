import "./usage.css";
import { useMemo } from "react";
import { outcomeColorVar } from "./outcome-badge";
import { StackedBarsChart } from "./stacked-bars-chart";
import { USAGE_WINDOWS } from "../lib/analytics-sql";
import type { UsageSeries } from "../lib/usage-series";

/**
 * A key's verifications per hour or day as bars stacked by outcome (the shared uPlot chart). `label` is the chart's
 * accessible name; the numbers are also in a table beside it.
 */
export function UsageChart({ series, label }: { series: UsageSeries; label: string }) {
  const stacks = useMemo(
    () =>
      (series.outcomes.length > 0 ? series.outcomes : (["VALID"] as const)).map((outcome) => ({
        key: outcome,
        colorVar: outcomeColorVar(outcome),
        counts: series.counts[outcome],
      })),
    [series],
  );
  return (
    <StackedBarsChart
      className="usage-chart"
      buckets={series.buckets}
      bucketMs={USAGE_WINDOWS[series.window].bucketMs}
      stacks={stacks}
      label={label}
    />
  );
}
