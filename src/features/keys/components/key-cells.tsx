import type { MouseEvent } from "react";
import { CopyButton } from "@/components/copy-button";
import { SafeName } from "@/components/safe-name";
import { formatIsoTime, formatPastTime, formatUtcTime } from "@/lib/format-time";
import type { ColumnId } from "../columns/column-specs";
import type { Key } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { describeRefill } from "@/lib/key-facts";
import type { KeyUsage } from "../utils/usage";
import { keyStatusBadges } from "./key-status-badge";
import { relativeTime } from "./relative-time";
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
  /** Follows the name's link inside the app (`KeyPageLinks`). */
  followLink: ((event: MouseEvent<HTMLAnchorElement>) => void) | undefined;
}

function muted(text = "—") {
  return <span className="keys-table__muted">{text}</span>;
}

/**
 * A cell's content. A plain function, not a component: a row draws its cells whenever it draws, and a boundary
 * per cell (and per time, badge list, credits) only added fibers to the first render of every row.
 */
export function keyCell({ column, keyData, now, usage, compact, followLink }: CellProps) {
  switch (column) {
    case "name": {
      const name = keyData.name ?? "";
      return (
        <a className="keys-table__name" href={keyPagePath(keyData.keyId)} onClick={followLink}>
          {name === "" ? <span className="keys-table__muted">Unnamed</span> : <SafeName withTitle>{name}</SafeName>}
        </a>
      );
    }
    case "keyId":
      return (
        <>
          <code className="keys-table__id" title={keyData.keyId}>
            {keyData.keyId}
          </code>
          {/* In a column the icon alone leaves the id room; a card's line has room for the word. */}
          <CopyButton
            value={keyData.keyId}
            label={`Copy key id ${keyData.keyId}`}
            subject={`key id ${keyData.keyId}`}
            text={compact ? "Copy" : ""}
            className="keys-table__copy"
          />
        </>
      );
    case "start":
      return keyData.start === undefined ? muted() : <code className="keys-table__start">{keyData.start}…</code>;
    case "status":
      return keyStatusBadges(keyData, now, usage?.totals);
    case "lastUsed":
      return keyData.lastUsedAt === undefined ? muted("Never") : exactTime(keyData.lastUsedAt, now);
    case "usage":
      return usage === undefined ? (
        <span className="usage-bar usage-bar--pending" aria-hidden="true" />
      ) : (
        <UsageBar usage={usage} />
      );
    case "credits":
      return creditsText(keyData);
    case "externalId":
      return keyData.identity === undefined ? (
        muted()
      ) : (
        <code className="keys-table__external">
          <SafeName withTitle>{keyData.identity.externalId}</SafeName>
        </code>
      );
    case "createdAt":
      return keyData.createdAt === undefined ? muted() : relativeTime(keyData.createdAt, now, true);
    case "expires":
      return keyData.expires === undefined
        ? muted(compact ? "No expiry" : "Never")
        : relativeTime(keyData.expires, now, false);
  }
}

/** When the key was last used: "3 hours ago" for the eye, the exact instant on hover and for screen readers. */
function exactTime(time: number, now: number) {
  const iso = formatIsoTime(time);
  if (iso === null) return muted();
  const exact = formatUtcTime(time) ?? iso;
  return (
    <span className="keys-table__time">
      <time dateTime={iso} title={exact}>
        {formatPastTime(time, now)}
      </time>
      <span className="visually-hidden"> ({exact})</span>
    </span>
  );
}

function creditsText(keyData: Key) {
  const credits = keyData.credits;
  if (credits === undefined) return muted();
  if (credits.remaining === null) return muted("Unlimited");
  const refill = credits.refill;
  const title = refill === undefined ? undefined : `Credits ${describeRefill(refill)}`;
  return (
    <span className="keys-table__credits" title={title}>
      {formatCount(credits.remaining)}
      {refill !== undefined && <span className="visually-hidden">, {title}</span>}
    </span>
  );
}
