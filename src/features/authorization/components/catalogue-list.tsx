import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef, type ReactNode } from "react";
import { useRovingRows } from "@/lib/hooks/use-roving-rows";

/** Fixed, so the virtualizer never measures: thousands of rows cost what the visible ones cost. */
export const ROW_HEIGHT = 64;
const OVERSCAN = 10;
/** Start loading the next page this many rows before the end. */
const LOAD_AHEAD = 30;
/** The list's height before it is measured (and where nothing lays it out): its first rows are drawn at once. */
const INITIAL_HEIGHT = 640;

export interface CatalogueListProps<T> {
  /** The list's accessible name: "Roles". */
  label: string;
  items: readonly T[];
  keyOf: (item: T) => string;
  /** One row; its link takes `tabIndex` (one row at a time is in the tab order) and `data-roving`. */
  renderRow: (item: T, link: { tabIndex: number; "data-roving": true }) => ReactNode;
  /** More pages to come: the list's size is not known yet. */
  hasMore: boolean;
  /** Called while the person scrolls (or moves) within reach of the last row. */
  onNearEnd: () => void;
  /** Said below the last row: loading more, or the end. */
  footer?: ReactNode;
}

/**
 * A list of the catalogue, virtualized: only the rows in view (and a few each way) are in the page, the next page
 * asked for as the end comes near. Keyboard: one row's link at a time is in the tab order; the arrow keys, Home, End
 * and the page keys move between rows.
 */
export function CatalogueList<T>({
  label,
  items,
  keyOf,
  renderRow,
  hasMore,
  onNearEnd,
  footer,
}: CatalogueListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer re-renders this component itself on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    initialRect: { width: 0, height: INITIAL_HEIGHT },
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : keyOf(item);
    },
    overscan: OVERSCAN,
  });

  const keys = items.map(keyOf);
  const { tabbableIndex, onKeyDown } = useRovingRows({
    keys,
    virtualizer,
    scrollRef,
    rowHeight: ROW_HEIGHT,
    initialHeight: INITIAL_HEIGHT,
    loadAhead: LOAD_AHEAD,
    onNearEnd,
  });
  const virtualItems = virtualizer.getVirtualItems();

  return (
    // The arrow keys come from the focused row's link, inside; the list itself is not a control.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div ref={scrollRef} className="catalogue-list" onKeyDown={onKeyDown}>
      <ul aria-label={label} className="catalogue-list__rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualItems.map((virtualItem) => {
          const item = items[virtualItem.index];
          if (item === undefined) return null;
          return (
            <li
              key={virtualItem.key}
              data-item-key={keyOf(item)}
              className="catalogue-list__row"
              aria-posinset={virtualItem.index + 1}
              aria-setsize={hasMore ? -1 : items.length}
              style={{ transform: `translateY(${virtualItem.start}px)`, height: ROW_HEIGHT }}
            >
              {renderRow(item, { tabIndex: virtualItem.index === tabbableIndex ? 0 : -1, "data-roving": true })}
            </li>
          );
        })}
      </ul>
      {footer}
    </div>
  );
}
