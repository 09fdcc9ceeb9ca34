import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { AnalyticsOutcome } from "../../../lib/analytics-sql";
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
    const order = [...outcomes.keys()].reverse();
    const options: uPlot.Options = {
      width: Math.max(280, container.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
      scales: { x: { time: true }, y: { range: (_self, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        { stroke: color("--muted"), grid: { stroke: color("--border"), width: 1 }, ticks: { stroke: color("--border") } },
        { stroke: color("--muted"), grid: { stroke: color("--border"), width: 1 }, ticks: { stroke: color("--border") }, size: 48 },
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
    const data: uPlot.AlignedData = [series.buckets.map((time) => time / 1000), ...order.map((index) => running[index] ?? [])];
    const chart = new uPlot(options, data, container);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, container.clientWidth), height: HEIGHT }));
    resize.observe(container);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [series]);

  return <div ref={containerRef} className="usage-chart" role="img" aria-label={label} />;
}
