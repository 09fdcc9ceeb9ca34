import "./usage.css";
import { USAGE_WINDOWS } from "../lib/analytics-sql";
import { formatCount } from "../lib/format-number";
import type { UsageSeries } from "../lib/usage-series";
import { bucketLabel } from "../lib/usage-summary";

/** The chart's numbers as a table: an hour or day a row (those without any left out), an outcome a column. */
export function UsageTable({ series }: { series: UsageSeries }) {
  const rows = series.buckets
    .map((time, index) => ({ time, counts: series.outcomes.map((outcome) => series.counts[outcome][index] ?? 0) }))
    .filter((row) => row.counts.some((count) => count > 0));
  const per = series.window === "30d" ? "Day" : "Hour";
  return (
    <div className="usage__table-scroll">
      <table>
        <caption>
          Verifications per {per.toLowerCase()} by outcome, last {USAGE_WINDOWS[series.window].label} (UTC);{" "}
          {per.toLowerCase()}s without any are left out.
        </caption>
        <thead>
          <tr>
            <th scope="col">{per}</th>
            {series.outcomes.map((outcome) => (
              <th scope="col" key={outcome}>
                {outcome}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.time}>
              <th scope="row">{bucketLabel(series, row.time)}</th>
              {row.counts.map((count, index) => (
                <td key={series.outcomes[index]}>{formatCount(count)}</td>
              ))}
              <td>{formatCount(row.counts.reduce((sum, count) => sum + count, 0))}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">All</th>
            {series.outcomes.map((outcome) => (
              <td key={outcome}>{formatCount(series.totals[outcome])}</td>
            ))}
            <td>{formatCount(series.total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
