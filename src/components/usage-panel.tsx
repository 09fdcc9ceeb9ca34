import { useMemo, type ReactNode } from "react";
import { Loading } from "./offline-notice";
import { UsageChart } from "./usage-chart";
import { UsageLegend } from "./usage-legend";
import { UsageTable } from "./usage-table";
import type { UsageRow } from "../lib/analytics-rows";
import { USAGE_WINDOWS, type UsageWindow } from "../lib/analytics-sql";
import { usageSeries } from "../lib/usage-series";
import { usageSummary } from "../lib/usage-summary";

const WINDOWS = Object.keys(USAGE_WINDOWS) as UsageWindow[];

/** What the panel reads of a usage query (TanStack Query's result has it all). */
export interface UsageQueryState {
  data: UsageRow[] | undefined;
  dataUpdatedAt: number;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface UsagePanelProps {
  window: UsageWindow;
  onWindow: (window: UsageWindow) => void;
  usage: UsageQueryState;
  /** Said while the first answer comes ("Loading usage…"). */
  loading: string;
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
  /** After the line on time zones: a way to see more (a link to Logs). */
  more?: ReactNode;
}

/**
 * Verifications by outcome over a window the user picks: the window's buttons, the shared chart, its legend and its
 * numbers as a table; the analytics error in their place when the query fails. For a key's page and an identity's.
 */
export function UsagePanel({ window, onWindow, usage, loading, renderAnalyticsError, more }: UsagePanelProps) {
  const series = useMemo(
    () => (usage.data === undefined ? null : usageSeries(usage.data, window, usage.dataUpdatedAt)),
    [usage.data, usage.dataUpdatedAt, window],
  );
  return (
    <>
      <div className="usage__windows" role="group" aria-label="Time window">
        {WINDOWS.map((choice) => (
          <button
            key={choice}
            type="button"
            className="button button--small"
            aria-pressed={choice === window}
            onClick={() => onWindow(choice)}
          >
            {USAGE_WINDOWS[choice].label}
          </button>
        ))}
      </div>
      {series !== null ? (
        <>
          <UsageChart series={series} label={usageSummary(series)} />
          <UsageLegend series={series} />
          <p className="usage__zone">
            Hours and days in UTC, as every time in Keyscope.{more !== undefined && <> {more}</>}
          </p>
          <details className="usage__table">
            <summary>The numbers as a table</summary>
            <UsageTable series={series} />
          </details>
        </>
      ) : usage.isError ? (
        renderAnalyticsError(usage.error, () => void usage.refetch())
      ) : (
        <p role="status" className="usage__loading">
          <Loading>{loading}</Loading>
        </p>
      )}
    </>
  );
}
