import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router-dom";
import { SafeName } from "@/components/safe-name";
import type { KeyIdentity } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { useMediaQuery } from "@/lib/hooks/use-media-query";
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

  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  const activeIndex = Math.max(
    0,
    identities.findIndex((identity) => identity.id === activeId),
  );
  const focusId = useRef<string | null>(null);
  useLayoutEffect(() => {
    const id = focusId.current;
    if (id === null) return;
    const link = scrollRef.current?.querySelector<HTMLElement>(`[data-identity-id="${CSS.escape(id)}"] a`);
    if (link) {
      link.focus({ preventScroll: true });
      focusId.current = null;
    }
  });
  function moveTo(index: number) {
    const clamped = Math.min(identities.length - 1, Math.max(0, index));
    const identity = identities[clamped];
    if (identity === undefined) return;
    setActiveId(identity.id);
    focusId.current = identity.id;
    virtualizer.scrollToIndex(clamped, { align: "auto" });
  }
  const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1);
  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const moves: Record<string, number> = {
      ArrowDown: activeIndex + 1,
      ArrowUp: activeIndex - 1,
      PageDown: activeIndex + pageRows,
      PageUp: activeIndex - pageRows,
      Home: 0,
      End: identities.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    moveTo(target);
  }

  const items = virtualizer.getVirtualItems();
  const tabbable = items.some((item) => item.index === activeIndex) ? activeIndex : (items[0]?.index ?? 0);
  const last = items.at(-1);
  useEffect(() => {
    if (last !== undefined && last.index >= identities.length - 1 - LOAD_AHEAD) onNearEnd();
  }, [last, identities.length, onNearEnd]);

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
              data-identity-id={identity.id}
              aria-setsize={identities.length}
              aria-posinset={index + 1}
              style={{ transform: `translateY(${start}px)`, height: rowHeight }}
            >
              <Link
                to={identityHref(identity.id)}
                className="identities-list__name"
                tabIndex={index === tabbable ? 0 : -1}
                onFocus={() => setActiveId(identity.id)}
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
