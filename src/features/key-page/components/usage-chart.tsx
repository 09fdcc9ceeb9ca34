import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { USAGE_WINDOWS } from "@/lib/analytics-sql";
import { useMediaQuery } from "@/lib/hooks/use-media-query";
import type { AnalyticsOutcome } from "@/lib/verification-outcomes";
import type { UsageSeries } from "../usage-series";

/** The CSS custom property holding an outcome's colour (key-page.css), so both themes and the legend agree. */
export function outcomeColorVar(outcome: AnalyticsOutcome): string {
  return `--outcome-${outcome.toLowerCase().replaceAll("_", "-")}`;
}

const HEIGHT = 220;

/**
 * Verifications per hour or day as bars stacked by outcome, drawn by uPlot (small, canvas-based, and loaded
 * only with this page). Stacking: each series is the running total up to its outcome, drawn tallest first,
 * so the smaller totals cover the lower part of each bar. `label` is the chart's accessible name; the numbers
 * are also in a table beside it.
 */
export function UsageChart({ series, label }: { series: UsageSeries; label: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  // The canvas holds the colours it was drawn with: when the system's theme changes (theme.css follows it), draw again.
  const dark = useMediaQuery("(prefers-color-scheme: dark)");

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return;
    const style = getComputedStyle(container);
    const color = (name: string) => style.getPropertyValue(name).trim() || "currentColor";
    const outcomes = series.outcomes.length > 0 ? series.outcomes : (["VALID"] as const);
    const running: number[][] = [];
    for (const [index, outcome] of outcomes.entries()) {
      const below = running[index - 1];
      running.push(series.counts[outcome].map((count, bucket) => count + (below?.[bucket] ?? 0)));
    }
    const bars = uPlot.paths.bars?.({ size: [0.8, 48], gap: 1 });
    const seconds = series.buckets.map((time) => time / 1000);
    const first = seconds[0] ?? 0;
    const last = seconds.at(-1) ?? first;
    const halfBucket = USAGE_WINDOWS[series.window].bucketMs / 2000;
    const order = [...outcomes.keys()].reverse();
    const options: uPlot.Options = {
      width: Math.max(280, container.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
      scales: {
        // Half a bucket of room at each end, so the first and last bars show whole.
        x: { time: true, range: () => [first - halfBucket, last + halfBucket] },
        y: { range: (_self, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [
        {
          stroke: color("--muted"),
          grid: { stroke: color("--border"), width: 1 },
          ticks: { stroke: color("--border") },
        },
        {
          stroke: color("--muted"),
          grid: { stroke: color("--border"), width: 1 },
          ticks: { stroke: color("--border") },
          size: 48,
          // Counts: whole-number steps only.
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 1e7, 1e8],
        },
      ],
      series: [
        {},
        ...order.map((index) => {
          const outcome = outcomes[index] ?? "VALID";
          return {
            label: outcome,
            fill: color(outcomeColorVar(outcome)),
            stroke: color(outcomeColorVar(outcome)),
            width: 0,
            points: { show: false },
            ...(bars && { paths: bars }),
          };
        }),
      ],
    };
    const data: uPlot.AlignedData = [seconds, ...order.map((index) => running[index] ?? [])];
    const chart = new uPlot(options, data, container);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(280, container.clientWidth), height: HEIGHT }),
    );
    resize.observe(container);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [series, dark]);

  return <div ref={containerRef} className="usage-chart" role="img" aria-label={label} />;
}
