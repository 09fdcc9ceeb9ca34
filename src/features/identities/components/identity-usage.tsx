import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { Loading } from "@/components/offline-notice";
import { OutcomeBadge } from "@/components/outcome-badge";
import { SafeName } from "@/components/safe-name";
import { UsagePanel } from "@/components/usage-panel";
import type { KeyRefusals, UsageRow } from "@/lib/analytics-rows";
import { revealBidiControls } from "@/lib/bidi";
import { USAGE_WINDOWS, type UsageWindow } from "@/lib/analytics-sql";
import type { Key } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { formatPastTime, formatUtcTime } from "@/lib/format-time";
import type { LogLink } from "@/lib/log-link";
import { ANALYTICS_OUTCOMES } from "@/lib/verification-outcomes";
import { useMediaQuery } from "@/lib/hooks/use-media-query";
import { PHONE } from "./identity-keys";

/** Every refusal, for a link to the Logs page narrowed to them. */
export const REFUSED_OUTCOMES = ANALYTICS_OUTCOMES.filter((outcome) => outcome !== "VALID");

interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  dataUpdatedAt: number;
  refetch: () => unknown;
}

export interface IdentityUsageProps {
  externalId: string;
  window: UsageWindow;
  onWindow: (window: UsageWindow) => void;
  usage: QueryState<UsageRow[]>;
  refusals: QueryState<KeyRefusals[]>;
  /** Its keys as found, by id: their names. */
  keys: ReadonlyMap<string, Key>;
  now: number;
  keyHref: (keyId: string) => string;
  logsHref: (link: LogLink) => string;
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
}

/**
 * An identity's verifications over a window the user picks, by outcome (the shared chart, its legend and its numbers
 * as a table), and its refusals by key and outcome, each a link to the Logs page narrowed to them.
 */
export function IdentityUsage(props: IdentityUsageProps) {
  const { externalId, window, onWindow, usage, renderAnalyticsError, logsHref } = props;
  return (
    <div className="usage">
      <UsagePanel
        window={window}
        onWindow={onWindow}
        usage={usage}
        loading="Loading its verifications…"
        renderAnalyticsError={renderAnalyticsError}
        more={
          <Link to={logsHref({ range: window, externalId })}>
            Every verification of <SafeName>{externalId}</SafeName> in Logs
          </Link>
        }
      />
      <h3>Refused, by key and outcome</h3>
      <RefusalsByKey {...props} />
    </div>
  );
}

function RefusalsByKey({
  externalId,
  window,
  refusals,
  keys,
  now,
  keyHref,
  logsHref,
  renderAnalyticsError,
}: IdentityUsageProps) {
  const phone = useMediaQuery(PHONE);
  const nameOf = (keyId: string) => {
    const name = keys.get(keyId)?.name;
    return name !== undefined && name.trim() !== "" ? name : keyId;
  };
  const inLogs = (row: KeyRefusals, name: string) => (
    <Link
      to={logsHref({ range: window, externalId, keyIds: [row.keyId], outcomes: [row.outcome] })}
      aria-label={`${row.outcome} refusals of ${revealBidiControls(name)} in Logs`}
    >
      In Logs
    </Link>
  );
  if (refusals.isError && refusals.data === undefined)
    return renderAnalyticsError(refusals.error, () => void refusals.refetch());
  if (refusals.data === undefined)
    return (
      <p role="status" className="usage__loading">
        <Loading>Loading its refusals…</Loading>
      </p>
    );
  if (refusals.data.length === 0)
    return <p className="usage__empty">No refused verifications in the last {USAGE_WINDOWS[window].label}.</p>;
  return (
    <>
      <p>
        <Link to={logsHref({ range: window, externalId, outcomes: REFUSED_OUTCOMES })}>
          Every refusal of <SafeName>{externalId}</SafeName> in Logs
        </Link>
      </p>
      {phone ? (
        <ul className="identity-cards" aria-label={`Refused verifications by key and outcome, most first`}>
          {refusals.data.map((row) => {
            const name = nameOf(row.keyId);
            return (
              <li key={`${row.keyId} ${row.outcome}`} className="identity-cards__card">
                <Link to={keyHref(row.keyId)}>
                  <SafeName>{name}</SafeName>
                </Link>
                <p>
                  <OutcomeBadge outcome={row.outcome} /> {formatCount(row.total)}, the latest{" "}
                  <span title={formatUtcTime(row.latest) ?? undefined}>{formatPastTime(row.latest, now)}</span>
                </p>
                {inLogs(row, name)}
              </li>
            );
          })}
        </ul>
      ) : (
        <div className="identity-keys__scroll">
          <table className="identity-table">
            <caption className="visually-hidden">
              Refused verifications of the last {USAGE_WINDOWS[window].label} by key and outcome, most first
            </caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="identity-table__number">
                  Refused
                </th>
                <th scope="col">Latest</th>
                <th scope="col">
                  <span className="visually-hidden">In Logs</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {refusals.data.map((row) => {
                const name = nameOf(row.keyId);
                return (
                  <tr key={`${row.keyId} ${row.outcome}`}>
                    <th scope="row">
                      <Link to={keyHref(row.keyId)}>
                        <SafeName>{name}</SafeName>
                      </Link>
                    </th>
                    <td>
                      <OutcomeBadge outcome={row.outcome} />
                    </td>
                    <td className="identity-table__number">{formatCount(row.total)}</td>
                    <td title={formatUtcTime(row.latest) ?? undefined}>{formatPastTime(row.latest, now)}</td>
                    <td>{inLogs(row, name)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
