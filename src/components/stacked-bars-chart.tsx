import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { useMediaQuery } from "../lib/hooks/use-media-query";

/** One stack of the bars: its counts per bucket, and the CSS custom property holding its colour. */
export interface BarStack {
  key: string;
  colorVar: string;
  counts: readonly number[];
}

export interface StackedBarsChartProps {
  /** The start of every bucket (ms), oldest first, with no gaps. */
  buckets: readonly number[];
  bucketMs: number;
  /** Bottom first. */
  stacks: readonly BarStack[];
  /** The chart's accessible name: what it shows, in words (its numbers are also in a table beside it). */
  label: string;
  className?: string;
  height?: number;
  /** Dragging across the bars picks the buckets from `first` to `last` (indexes); without it, no dragging. */
  onPick?: ((first: number, last: number) => void) | undefined;
  /** The bucket under the pointer (null when it leaves). */
  onPoint?: ((index: number | null) => void) | undefined;
  /** Buckets drawn as picked (the keyboard's choice, say). */
  marked?: { first: number; last: number } | null | undefined;
}

const INCREMENTS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 1e7, 1e8];

/**
 * Counts per time bucket as bars stacked by kind, drawn by uPlot (small, canvas-based, loaded only with the pages that
 * chart). Stacking: each series is the running total up to its stack, drawn tallest first, so the smaller totals
 * cover the lower part of each bar. Times on the axis are UTC, as every time in Keyscope.
 */
export function StackedBarsChart({
  buckets,
  bucketMs,
  stacks,
  label,
  className,
  height = 220,
  onPick,
  onPoint,
  marked,
}: StackedBarsChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  // The canvas holds the colours it was drawn with: when the system's theme changes (theme.css follows it), draw again.
  const dark = useMediaQuery("(prefers-color-scheme: dark)");
  // Read at the moment of a drag or a move, so that new callbacks do not draw the chart again.
  const handlers = useRef({ onPick, onPoint });
  useEffect(() => {
    handlers.current = { onPick, onPoint };
  });
  const pickable = onPick !== undefined;

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return;
    // Each colour is read from the theme when the chart draws, not when it is made, so that a redraw after the
    // system's theme changes paints in the new palette.
    const color = (name: string) => () => getComputedStyle(container).getPropertyValue(name).trim() || "currentColor";
    const running: number[][] = [];
    for (const [index, stack] of stacks.entries()) {
      const below = running[index - 1];
      running.push(buckets.map((_, bucket) => (stack.counts[bucket] ?? 0) + (below?.[bucket] ?? 0)));
    }
    const bars = uPlot.paths.bars?.({ size: [0.8, 48], gap: 1 });
    const seconds = buckets.map((time) => time / 1000);
    const first = seconds[0] ?? 0;
    const last = seconds.at(-1) ?? first;
    const halfBucket = bucketMs / 2000;
    const order = [...stacks.keys()].reverse();
    const indexAt = (chart: uPlot, left: number) =>
      Math.min(buckets.length - 1, Math.max(0, Math.round((chart.posToVal(left, "x") - first) / (bucketMs / 1000))));
    const options: uPlot.Options = {
      width: Math.max(280, container.clientWidth),
      height,
      legend: { show: false },
      cursor: pickable
        ? { show: true, x: true, y: false, points: { show: false }, drag: { x: true, y: false, setScale: false } }
        : { show: false },
      select: { show: pickable, left: 0, top: 0, width: 0, height: 0 },
      tzDate: (value) => uPlot.tzDate(new Date(value * 1000), "Etc/UTC"),
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
          size: 56,
          // Counts: whole-number steps only.
          incrs: INCREMENTS,
        },
      ],
      series: [
        {},
        ...order.map((index) => {
          const stack = stacks[index];
          const fill = color(stack?.colorVar ?? "--muted");
          return {
            label: stack?.key ?? "",
            fill,
            stroke: fill,
            width: 0,
            points: { show: false },
            ...(bars && { paths: bars }),
          };
        }),
      ],
      hooks: {
        setSelect: [
          (chart) => {
            const { left, width } = chart.select;
            if (width <= 0) return;
            handlers.current.onPick?.(indexAt(chart, left), indexAt(chart, left + width));
          },
        ],
        setCursor: [
          (chart) => {
            const index = chart.cursor.idx;
            handlers.current.onPoint?.(index === null || index === undefined ? null : index);
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [seconds, ...order.map((index) => running[index] ?? [])];
    const chart = new uPlot(options, data, container);
    chartRef.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, container.clientWidth), height }));
    resize.observe(container);
    return () => {
      resize.disconnect();
      chartRef.current = null;
      chart.destroy();
    };
  }, [buckets, bucketMs, stacks, height, pickable]);

  // The theme changed: draw again now, and once more on the next frame in case the new palette was not yet applied.
  // Not on mount: the chart was just drawn in the palette of now.
  const drawnDark = useRef(dark);
  useEffect(() => {
    if (drawnDark.current === dark) return;
    drawnDark.current = dark;
    const chart = chartRef.current;
    if (chart === null) return;
    chart.redraw(true, true);
    const frame = requestAnimationFrame(() => chart.redraw(true, true));
    return () => cancelAnimationFrame(frame);
  }, [dark]);

  // The marked buckets as the chart's selection, without drawing the chart again.
  useEffect(() => {
    const chart = chartRef.current;
    if (chart === null || !pickable) return;
    if (marked === null || marked === undefined) {
      chart.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
      return;
    }
    const step = bucketMs / 2000;
    const from = (Math.min(marked.first, marked.last) * bucketMs + (buckets[0] ?? 0)) / 1000 - step;
    const to = (Math.max(marked.first, marked.last) * bucketMs + (buckets[0] ?? 0)) / 1000 + step;
    const left = chart.valToPos(from, "x");
    chart.setSelect(
      { left, top: 0, width: chart.valToPos(to, "x") - left, height: chart.bbox.height / devicePixelRatio },
      false,
    );
  }, [marked, buckets, bucketMs, pickable, stacks]);

  return <div ref={containerRef} className={className} role="img" aria-label={label} />;
}
