import "./usage.css";
import { formatCount } from "../lib/format-number";
import { USAGE_WINDOWS } from "../lib/analytics-sql";
import type { UsageSeries } from "../lib/usage-series";
import { outcomeColorVar } from "./outcome-badge";

/** The chart's outcomes with their colours and totals; none verified, said so. */
export function UsageLegend({ series }: { series: UsageSeries }) {
  if (series.total === 0)
    return <p className="usage__empty">No verifications in the last {USAGE_WINDOWS[series.window].label}.</p>;
  return (
    <ul className="usage__legend" aria-label="Outcomes">
      {series.outcomes.map((outcome) => (
        <li key={outcome}>
          <span
            className="usage__swatch"
            style={{ background: `var(${outcomeColorVar(outcome)})` }}
            aria-hidden="true"
          />
          {outcome} <span className="usage__legend-count">{formatCount(series.totals[outcome])}</span>
        </li>
      ))}
    </ul>
  );
}
