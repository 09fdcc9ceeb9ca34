import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { outcomeColorVar } from "@/components/outcome-badge";
import { StackedBarsChart } from "@/components/stacked-bars-chart";
import { formatCount } from "@/lib/format-number";
import type { LogSeries } from "../log-series";
import { describeBucket, formatUtcRange } from "@/lib/time-range";

export interface LogChartProps {
  series: LogSeries;
  now: number;
  /** Narrow the range to the buckets from `first` to `last` (their starts, ms). */
  onNarrow: (first: number, last: number) => void;
}

/** "Nov 27, 10:00:00 – 10:14:59 UTC: 120 verifications (VALID 100, RATE_LIMITED 20)". */
function describeBuckets(series: LogSeries, first: number, last: number, now: number): string {
  const from = Math.min(first, last);
  const to = Math.max(first, last);
  const start = series.buckets[from] ?? 0;
  const end = (series.buckets[to] ?? start) + series.bucketMs - 1;
  const byOutcome = series.outcomes
    .map((outcome) => {
      const counts = series.counts.get(outcome) ?? [];
      return [outcome, counts.slice(from, to + 1).reduce((sum, n) => sum + n, 0)] as const;
    })
    .filter(([, count]) => count > 0);
  const total = byOutcome.reduce((sum, [, count]) => sum + count, 0);
  const parts = byOutcome.map(([outcome, count]) => `${outcome} ${formatCount(count)}`).join(", ");
  return `${formatUtcRange(start, end, now)}: ${formatCount(total)} ${total === 1 ? "verification" : "verifications"}${parts === "" ? "" : ` (${parts})`}`;
}

/**
 * The range's verifications per bucket, stacked by outcome. Dragging across bars narrows the range to them; so does
 * the keyboard: the arrow keys pick a bar (Shift extends), Enter narrows, Escape lets go. What the picked or pointed
 * bars hold is said below the chart, and every number is in a table beside it.
 */
export function LogChart({ series, now, onNarrow }: LogChartProps) {
  const helpId = useId();
  const [pointed, setPointed] = useState<number | null>(null);
  const [marked, setMarked] = useState<{ first: number; last: number } | null>(null);
  const stacks = useMemo(
    () =>
      (series.outcomes.length > 0 ? series.outcomes : ["VALID"]).map((outcome) => ({
        key: outcome,
        colorVar: outcomeColorVar(outcome),
        counts: series.counts.get(outcome) ?? series.buckets.map(() => 0),
      })),
    [series],
  );
  const lastIndex = series.buckets.length - 1;
  const narrow = (first: number, last: number) => {
    const a = series.buckets[Math.min(first, last)];
    const b = series.buckets[Math.max(first, last)];
    if (a !== undefined && b !== undefined) onNarrow(a, b);
  };

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step !== 0 || event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const from = marked?.last ?? (step > 0 ? -1 : lastIndex + 1);
      const to =
        event.key === "Home" ? 0 : event.key === "End" ? lastIndex : Math.min(lastIndex, Math.max(0, from + step));
      setMarked(event.shiftKey && marked !== null ? { first: marked.first, last: to } : { first: to, last: to });
    } else if (event.key === "Enter" && marked !== null) {
      event.preventDefault();
      narrow(marked.first, marked.last);
    } else if (event.key === "Escape" && marked !== null) {
      event.preventDefault();
      setMarked(null);
    }
  }

  const readout =
    marked !== null
      ? `${describeBuckets(series, marked.first, marked.last, now)}. Enter narrows the range to ${marked.first === marked.last ? "it" : "them"}.`
      : pointed !== null
        ? describeBuckets(series, pointed, pointed, now)
        : `Bars of ${describeBucket(series.bucketMs)}, in UTC. Drag across bars, or pick them with the arrow keys, to narrow the range.`;

  return (
    <div className="log-chart">
      {/* eslint-disable jsx-a11y/no-noninteractive-element-interactions, jsx-a11y/no-noninteractive-tabindex -- an
          application: it takes the arrow keys to pick bars, as a screen reader passes them on to it */}
      <div
        className="log-chart__plot"
        tabIndex={0}
        role="application"
        aria-label="Verifications over time, by outcome"
        aria-describedby={helpId}
        onKeyDown={onKeyDown}
        onBlur={() => setMarked(null)}
      >
        <StackedBarsChart
          className="log-chart__canvas"
          buckets={series.buckets}
          bucketMs={series.bucketMs}
          stacks={stacks}
          label={`${formatCount(series.total)} verifications per ${describeBucket(series.bucketMs)}, stacked by outcome`}
          onPick={narrow}
          onPoint={setPointed}
          marked={marked}
        />
      </div>
      {/* eslint-enable jsx-a11y/no-noninteractive-element-interactions, jsx-a11y/no-noninteractive-tabindex */}
      <p id={helpId} className="log-chart__readout" aria-live="polite">
        {readout}
      </p>
      <details className="log-chart__table">
        <summary>The numbers as a table</summary>
        <div className="log-chart__table-scroll">
          <table>
            <caption className="visually-hidden">Verifications per bucket and outcome, UTC</caption>
            <thead>
              <tr>
                <th scope="col">From (UTC)</th>
                {series.outcomes.map((outcome) => (
                  <th scope="col" key={outcome}>
                    {outcome}
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {series.buckets.map((start, index) => {
                const counts = series.outcomes.map((outcome) => series.counts.get(outcome)?.[index] ?? 0);
                return (
                  <tr key={start}>
                    <th scope="row">{new Date(start).toISOString().slice(0, 16).replace("T", " ")}</th>
                    {counts.map((count, column) => (
                      <td key={series.outcomes[column]}>{formatCount(count)}</td>
                    ))}
                    <td>{formatCount(counts.reduce((sum, n) => sum + n, 0))}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
