import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { Loading } from "@/components/offline-notice";
import { outcomeColorVar } from "@/components/outcome-badge";
import { SafeName } from "@/components/safe-name";
import type { TopRow } from "@/lib/analytics-rows";
import { formatCount } from "@/lib/format-number";
import type { KeyName } from "../api/key-names";
import type { LogSeries } from "../log-series";
import type { LogView } from "../log-view";
import { KeyLabel } from "./log-table";

export interface LogOverviewProps {
  /** The range's counts by outcome (the chart's); undefined while they load. */
  series: LogSeries | undefined;
  /** The keys and identities with the most refusals; undefined while they load. */
  top: readonly TopRow[] | undefined;
  names: ReadonlyMap<string, KeyName>;
  /** A link to the log narrowed to one outcome, key or identity (the range and the other filters kept). */
  narrowHref: (change: Partial<LogView>) => string;
  /** Live is on, or has listed verifications since the lists of keys and identities were counted. */
  liveSince: boolean;
  /** Why the lists could not be read, in place. */
  topError: ReactNode;
}

function percent(part: number, whole: number): string {
  if (whole === 0) return "0%";
  const share = (part / whole) * 100;
  return share > 0 && share < 1 ? "under 1%" : `${Math.round(share)}%`;
}

/**
 * The range at a glance: how many verifications and how many refused, by reason, and the ten keys and the ten
 * identities refused most, each a link to the log narrowed to it.
 */
export function LogOverview({ series, top, names, narrowHref, liveSince, topError }: LogOverviewProps) {
  const keys = top?.filter((row) => row.kind === "key") ?? [];
  const identities = top?.filter((row) => row.kind === "identity") ?? [];
  return (
    <div className="log-overview">
      <section className="log-overview__part" aria-labelledby="log-overview-outcomes">
        <h3 id="log-overview-outcomes">By outcome</h3>
        {series === undefined ? (
          <p role="status">
            <Loading>Counting…</Loading>
          </p>
        ) : series.total === 0 ? (
          <p className="log-overview__empty">No verifications.</p>
        ) : (
          <>
            <p className="log-overview__total" data-testid="log-total">
              <strong>{formatCount(series.total)}</strong> {series.total === 1 ? "verification" : "verifications"},{" "}
              <strong>{formatCount(series.refused)}</strong> refused ({percent(series.refused, series.total)})
            </p>
            <ul className="log-overview__outcomes">
              {series.outcomes.map((outcome) => (
                <li key={outcome}>
                  <span
                    className="log-overview__swatch"
                    style={{ background: `var(${outcomeColorVar(outcome)})` }}
                    aria-hidden="true"
                  />
                  <Link to={narrowHref({ outcomes: [outcome] })} aria-label={`Only ${outcome}`}>
                    {outcome}
                  </Link>{" "}
                  <span className="log-overview__count" data-outcome={outcome}>
                    {formatCount(series.totals.get(outcome) ?? 0)}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <TopList
        title="Keys refused most"
        rows={keys}
        loading={top === undefined && topError === null}
        error={topError}
        label={(row) => <KeyLabel keyId={row.id} name={names.get(row.id)} />}
        href={(row) => narrowHref({ keyIds: [row.id] })}
        empty="No key was refused."
        stale={liveSince}
      />
      <TopList
        title="Identities refused most"
        rows={identities}
        loading={top === undefined && topError === null}
        error={topError}
        label={(row) => <SafeName>{row.id}</SafeName>}
        href={(row) => narrowHref({ externalId: row.id })}
        empty="No identity was refused."
        stale={liveSince}
      />
    </div>
  );
}

function TopList({
  title,
  rows,
  loading,
  error,
  label,
  href,
  empty,
  stale,
}: {
  title: string;
  rows: readonly TopRow[];
  loading: boolean;
  error: ReactNode;
  label: (row: TopRow) => ReactNode;
  href: (row: TopRow) => string;
  empty: string;
  stale: boolean;
}) {
  return (
    <section className="log-overview__part" aria-label={title}>
      <h3>{title}</h3>
      {error !== null ? (
        error
      ) : loading ? (
        <p role="status">
          <Loading>Counting…</Loading>
        </p>
      ) : rows.length === 0 ? (
        <p className="log-overview__empty">{empty}</p>
      ) : (
        <>
          <ol className="log-overview__top">
            {rows.map((row) => (
              <li key={row.id}>
                <Link to={href(row)} className="log-overview__name">
                  {label(row)}
                </Link>
                <span className="log-overview__count">{formatCount(row.refusals)}</span>
              </li>
            ))}
          </ol>
          {/* The same words whatever Live adds: a line that grew would move the rows being read below. */}
          {stale && (
            <p className="log-overview__note">Counted when the view was read: Refresh counts what Live adds.</p>
          )}
        </>
      )}
    </section>
  );
}
