import { useMemo, useState } from "react";
import { outcomeColorVar } from "@/components/outcome-badge";
import { StackedBarsChart } from "@/components/stacked-bars-chart";
import { formatCount } from "@/lib/format-number";
import { describeBucket, formatUtcRange } from "@/lib/time-range";
import type { HistorySeries } from "../history-series";

/** "Nov 27, 10:00:00 – 10:59:59 UTC: 120 decisions, 20 blocked". */
function describeBucketAt(series: HistorySeries, index: number, now: number): string {
  const start = series.buckets[index] ?? 0;
  const passed = series.passed[index] ?? 0;
  const blocked = series.blocked[index] ?? 0;
  const total = passed + blocked;
  return `${formatUtcRange(start, start + series.bucketMs - 1, now)}: ${formatCount(total)} ${total === 1 ? "decision" : "decisions"}, ${formatCount(blocked)} blocked`;
}

/**
 * A namespace's decisions per bucket, passed below and blocked above (the outcome palette's VALID and RATE_LIMITED,
 * as the verifications' charts colour them), with every number in a table beside it. Loaded with its chart library
 * after the page's first data.
 */
export function HistoryChart({ series, now }: { series: HistorySeries; now: number }) {
  const [pointed, setPointed] = useState<number | null>(null);
  const stacks = useMemo(
    () => [
      { key: "passed", colorVar: outcomeColorVar("VALID"), counts: series.passed },
      { key: "blocked", colorVar: outcomeColorVar("RATE_LIMITED"), counts: series.blocked },
    ],
    [series],
  );
  return (
    <div className="history-chart">
      <ul className="history-chart__legend" aria-label="Legend">
        <li>
          <span className="history-chart__swatch" style={{ background: `var(${outcomeColorVar("VALID")})` }} />
          Passed
        </li>
        <li>
          <span className="history-chart__swatch" style={{ background: `var(${outcomeColorVar("RATE_LIMITED")})` }} />
          Blocked
        </li>
      </ul>
      <StackedBarsChart
        className="history-chart__canvas"
        buckets={series.buckets}
        bucketMs={series.bucketMs}
        stacks={stacks}
        height={200}
        label={`Decisions per ${describeBucket(series.bucketMs)}: ${formatCount(series.totalPassed)} passed, ${formatCount(series.totalBlocked)} blocked`}
        onPoint={setPointed}
      />
      <p className="history-chart__readout" aria-live="polite">
        {pointed === null
          ? `Bars of ${describeBucket(series.bucketMs)}, in UTC.`
          : describeBucketAt(series, pointed, now)}
      </p>
      <details className="history-chart__table">
        <summary>The numbers as a table</summary>
        <div className="history-chart__table-scroll">
          <table>
            <caption className="visually-hidden">Decisions per bucket, UTC</caption>
            <thead>
              <tr>
                <th scope="col">From (UTC)</th>
                <th scope="col">Passed</th>
                <th scope="col">Blocked</th>
              </tr>
            </thead>
            <tbody>
              {series.buckets.map((start, index) => (
                <tr key={start}>
                  <th scope="row">{new Date(start).toISOString().slice(0, 16).replace("T", " ")}</th>
                  <td>{formatCount(series.passed[index] ?? 0)}</td>
                  <td>{formatCount(series.blocked[index] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
