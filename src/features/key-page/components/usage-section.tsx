import { useMemo, useState, type ReactNode } from "react";
import { Loading } from "@/components/offline-notice";
import { USAGE_WINDOWS, type UsageWindow } from "@/lib/analytics-sql";
import type { Connection } from "@/lib/api/transport";
import { useKeyUsage } from "../api/key-analytics";
import { usageSeries } from "@/lib/usage-series";
import { usageSummary } from "@/lib/usage-summary";
import { UsageChart } from "@/components/usage-chart";
import { UsageLegend } from "@/components/usage-legend";
import { UsageTable } from "@/components/usage-table";

const WINDOWS = Object.keys(USAGE_WINDOWS) as UsageWindow[];

/** A key's verifications by outcome over a window the user picks: a chart, its legend and its numbers as a table. */
export function UsageSection({
  connection,
  keyId,
  renderAnalyticsError,
}: {
  connection: Connection;
  keyId: string;
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
}) {
  const [span, setSpan] = useState<UsageWindow>("24h");
  const query = useKeyUsage(connection, keyId, span);
  const series = useMemo(
    () => (query.data === undefined ? null : usageSeries(query.data, span, query.dataUpdatedAt)),
    [query.data, query.dataUpdatedAt, span],
  );

  return (
    <div className="usage">
      <div className="usage__windows" role="group" aria-label="Time window">
        {WINDOWS.map((choice) => (
          <button
            key={choice}
            type="button"
            className="button button--small"
            aria-pressed={choice === span}
            onClick={() => setSpan(choice)}
          >
            {USAGE_WINDOWS[choice].label}
          </button>
        ))}
      </div>
      {series !== null ? (
        <>
          <UsageChart series={series} label={usageSummary(series)} />
          <UsageLegend series={series} />
          <p className="usage__zone">Hours and days in UTC, as every time in Keyscope.</p>
          <details className="usage__table">
            <summary>The numbers as a table</summary>
            <UsageTable series={series} />
          </details>
        </>
      ) : query.isError ? (
        renderAnalyticsError(query.error, () => void query.refetch())
      ) : (
        <p role="status" className="usage__loading">
          <Loading>Loading usage…</Loading>
        </p>
      )}
    </div>
  );
}
