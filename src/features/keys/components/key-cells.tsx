import { Link } from "react-router-dom";
import { CopyButton } from "../../../components/copy-button";
import { SafeName } from "../../../components/safe-name";
import { formatIsoTime, formatRelativeTime, formatUtcTime } from "../../../lib/format-time";
import type { ColumnId } from "../columns/column-specs";
import type { Key } from "../../../lib/contract";
import { formatCount } from "../../../lib/format-number";
import { describeRefill } from "../../../lib/key-facts";
import type { KeyUsage } from "../utils/usage";
import { KeyStatusBadges } from "./key-status-badge";
import { RelativeTime } from "./relative-time";
import { UsageBar } from "./usage-bar";

/** Where a key's own page lives; a real link, so it opens in a new tab too. */
export function keyPagePath(keyId: string): string {
  return `/keys/${encodeURIComponent(keyId)}`;
}

export interface CellProps {
  column: ColumnId;
  keyData: Key;
  now: number;
  /** This key's usage once the analytics answer is in; undefined while it loads or when it failed. */
  usage: KeyUsage | undefined;
  compact: boolean;
}

function Muted({ children = "—" }: { children?: string }) {
  return <span className="keys-table__muted">{children}</span>;
}

export function KeyCell({ column, keyData, now, usage, compact }: CellProps) {
  switch (column) {
    case "name": {
      const name = keyData.name ?? "";
      return (
        <Link className="keys-table__name" to={keyPagePath(keyData.keyId)}>
          {name === "" ? <span className="keys-table__muted">Unnamed</span> : <SafeName withTitle>{name}</SafeName>}
        </Link>
      );
    }
    case "keyId":
      return (
        <>
          <code className="keys-table__id" title={keyData.keyId}>
            {keyData.keyId}
          </code>
          {/* In a column the icon alone leaves the id room; a card's line has room for the word. */}
          <CopyButton value={keyData.keyId} label={`Copy key id ${keyData.keyId}`} text={compact ? "Copy" : ""} className="keys-table__copy" />
        </>
      );
    case "start":
      return keyData.start === undefined ? <Muted /> : <code className="keys-table__start">{keyData.start}…</code>;
    case "status":
      return <KeyStatusBadges keyData={keyData} now={now} usage={usage?.totals} />;
    case "lastUsed":
      return keyData.lastUsedAt === undefined ? <Muted>Never</Muted> : <ExactTime time={keyData.lastUsedAt} now={now} />;
    case "usage":
      return usage === undefined ? <span className="usage-bar usage-bar--pending" aria-hidden="true" /> : <UsageBar usage={usage} />;
    case "credits":
      return <Credits keyData={keyData} />;
    case "externalId":
      return keyData.identity === undefined ? (
        <Muted />
      ) : (
        <code className="keys-table__external">
          <SafeName withTitle>{keyData.identity.externalId}</SafeName>
        </code>
      );
    case "createdAt":
      return keyData.createdAt === undefined ? <Muted /> : <RelativeTime time={keyData.createdAt} now={now} />;
    case "expires":
      return keyData.expires === undefined ? <Muted>{compact ? "No expiry" : "Never"}</Muted> : <RelativeTime time={keyData.expires} now={now} />;
  }
}

/** "3 hours ago" for the eye, the exact instant on hover and for screen readers. */
function ExactTime({ time, now }: { time: number; now: number }) {
  const iso = formatIsoTime(time);
  if (iso === null) return <Muted />;
  const exact = formatUtcTime(time) ?? iso;
  return (
    <span className="keys-table__time">
      <time dateTime={iso} title={exact}>
        {formatRelativeTime(time, now)}
      </time>
      <span className="visually-hidden"> ({exact})</span>
    </span>
  );
}

function Credits({ keyData }: { keyData: Key }) {
  const credits = keyData.credits;
  if (credits === undefined) return <Muted />;
  if (credits.remaining === null) return <Muted>Unlimited</Muted>;
  const refill = credits.refill;
  const title = refill === undefined ? undefined : `Credits ${describeRefill(refill)}`;
  return (
    <span className="keys-table__credits" title={title}>
      {formatCount(credits.remaining)}
      {refill !== undefined && <span className="visually-hidden">, {title}</span>}
    </span>
  );
}
