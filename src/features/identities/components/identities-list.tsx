import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import { SafeName } from "@/components/safe-name";
import type { KeyIdentity } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { useMediaQuery } from "@/lib/hooks/use-media-query";
import { useRovingRows } from "@/lib/hooks/use-roving-rows";
import { formatRateLimit } from "@/lib/key-limits";

/** Row heights: one line a row on a wide screen, a card of three lines on a phone. */
const ROW_HEIGHT = 52;
const CARD_HEIGHT = 92;
const OVERSCAN = 8;
/** The next page is asked this many rows before the end. */
const LOAD_AHEAD = 20;

export interface IdentitiesListProps {
  identities: readonly KeyIdentity[];
  identityHref: (identityId: string) => string;
  /** Called while the person scrolls within reach of the last row. */
  onNearEnd: () => void;
}

/** "requests: 100 per 1 minute", each of its shared limits. */
export function limitsSummary(identity: KeyIdentity): string {
  const limits = identity.ratelimits ?? [];
  if (limits.length === 0) return "No shared rate limits";
  return limits.map((limit) => `${limit.name}: ${formatRateLimit(limit)}`).join(", ");
}

function metaSummary(identity: KeyIdentity): string {
  const fields = Object.keys(identity.meta ?? {}).length;
  return fields === 0 ? "No meta" : `Meta: ${formatCount(fields)} ${fields === 1 ? "field" : "fields"}`;
}

/**
 * The identities, virtualized: only the rows in view (and a few each way) are in the page, so a workspace of a
 * hundred thousand identities scrolls as one of ten. One row at a time is in the tab order: the arrow keys, Home, End
 * and the page keys move between rows, Enter opens one.
 */
export function IdentitiesList({ identities, identityHref, onNearEnd }: IdentitiesListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const phone = useMediaQuery("(max-width: 640px)");
  const rowHeight = phone ? CARD_HEIGHT : ROW_HEIGHT;
  // The virtualizer re-renders this component itself on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: identities.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => identities[index]?.id ?? index,
    overscan: OVERSCAN,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);

  const { tabbableIndex, onKeyDown, setActiveKey } = useRovingRows({
    keys: identities.map((identity) => identity.id),
    virtualizer,
    scrollRef,
    rowHeight,
    loadAhead: LOAD_AHEAD,
    onNearEnd,
  });
  const items = virtualizer.getVirtualItems();

  return (
    <div className="identities-list" ref={scrollRef}>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the arrow keys move between the rows' links (a roving tab stop) */}
      <ul
        className="identities-list__rows"
        aria-label="Identities"
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
      >
        {items.map(({ index, start }) => {
          const identity = identities[index];
          if (identity === undefined) return null;
          return (
            <li
              key={identity.id}
              className="identities-list__row"
              data-item-key={identity.id}
              aria-setsize={identities.length}
              aria-posinset={index + 1}
              style={{ transform: `translateY(${start}px)`, height: rowHeight }}
            >
              <Link
                to={identityHref(identity.id)}
                className="identities-list__name"
                tabIndex={index === tabbableIndex ? 0 : -1}
                data-roving
                onFocus={() => setActiveKey(identity.id)}
              >
                <SafeName>{identity.externalId}</SafeName>
              </Link>
              <code className="identities-list__id">
                <SafeName>{identity.id}</SafeName>
              </code>
              <SafeName className="identities-list__limits">{limitsSummary(identity)}</SafeName>
              <span className="identities-list__meta">{metaSummary(identity)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
