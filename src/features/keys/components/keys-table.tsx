import { elementScroll, observeElementRect, useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useEffectEvent, useMemo, useRef, type CSSProperties } from "react";
import { COLUMN_SPECS, type ColumnId } from "../columns/column-specs";
import type { Key } from "../../../lib/contract";
import type { KeyUsage } from "../utils/usage";
import type { KeysTableModel } from "../hooks/use-keys-table";
import type { KeySelection } from "../hooks/use-key-selection";
import { HEADER_HEIGHT, ROW_HEIGHT, SELECT_COLUMN_WIDTH as SELECT_WIDTH } from "../columns/keys-layout";
import { KeyCell } from "./key-cells";
import { SortControl } from "./sort-control";

/** On a phone each row is a small card: name and usage, the badges, the id, then last use, credits and dates. */
const COMPACT_ROW_HEIGHT = 128;
/** Rows rendered beyond those in view, each way. */
const OVERSCAN = 10;
/** Start loading the next page this many rows before the end. */
const LOAD_AHEAD_ROWS = 20;

/**
 * The scroller's size before it is measured: it is never taller than the window, so the first commit already
 * holds the rows in view (the virtualizer corrects it once it has measured, without a visible change).
 */
function windowRect(): { width: number; height: number } {
  return typeof window === "undefined" ? { width: 0, height: 0 } : { width: window.innerWidth, height: window.innerHeight };
}

type ScrollerVirtualizer = Virtualizer<HTMLDivElement, Element>;

/**
 * The virtualizer's own observer of the scroller's size, without its first read: that read (clientHeight) in
 * React's commit forces the page's first layout before the rows are even in the DOM. A ResizeObserver reports
 * the same size right after the browser's own layout, before the first paint; until then, windowRect.
 */
function observeScrollerRect(instance: ScrollerVirtualizer, onRect: (rect: { width: number; height: number }) => void) {
  const element = instance.scrollElement;
  if (element === null || typeof ResizeObserver === "undefined") return observeElementRect(instance, onRect);
  const observer = new ResizeObserver(() => onRect({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: "content-box" });
  return () => observer.disconnect();
}

const scrolledOnce = new WeakSet<ScrollerVirtualizer>();

/**
 * The virtualizer's own scroll, except its first: when it mounts it scrolls the new scroller to the top, where
 * it already is, and that scrollTo would force the same layout in React's commit.
 */
function scrollScroller(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: ScrollerVirtualizer): void {
  const first = !scrolledOnce.has(instance);
  scrolledOnce.add(instance);
  if (first && offset + (options.adjustments ?? 0) === 0) return;
  elementScroll(offset, options, instance);
}

/** Shown beside a name on a phone's card, for the eye; the column header names it for assistive technology. */
const COMPACT_LABELS: Partial<Record<ColumnId, string>> = {
  lastUsed: "Used",
  credits: "Credits",
  expires: "Expires",
  createdAt: "Created",
  externalId: "Identity",
};

interface KeysTableProps {
  model: KeysTableModel;
  /** Rows as cards (a phone), sorted with a "Sort by" control instead of the headers. */
  compact: boolean;
  now: number;
  usage: ReadonlyMap<string, KeyUsage> | undefined;
  /** Called while the user scrolls within reach of the last row. */
  onNearEnd?: (() => void) | undefined;
  /** The keys in view once scrolling settles, after they are painted: their usage is asked for then. */
  onKeysInView?: (keyIds: readonly string[]) => void;
  /** A change scrolls back to the first row (after a refresh, which reloads the first page). */
  scrollResetKey?: number;
  /** Checkboxes to select rows for a bulk action; none without it. */
  selection?: KeySelection | undefined;
}


export function KeysTable(props: KeysTableProps) {
  // A new layout is a new virtualizer: row heights are fixed per layout, never re-measured.
  return (
    <>
      {props.compact && <SortControl model={props.model} />}
      <VirtualKeysTable key={props.compact ? "compact" : "wide"} {...props} />
    </>
  );
}

function VirtualKeysTable({ model, now, usage, onNearEnd, onKeysInView, scrollResetKey, compact, selection }: KeysTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { table, shownColumns: columns } = model;
  const rows = table.getRowModel().rows;
  const rowHeight = compact ? COMPACT_ROW_HEIGHT : ROW_HEIGHT;
  // The wide layout's sticky header sits above the rows inside the same scroller; the compact one hides it visually.
  const headerHeight = compact ? 0 : HEADER_HEIGHT;
  // The virtualizer re-renders this component itself on scroll; nothing here is memoized by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: OVERSCAN,
    initialRect: windowRect(),
    observeElementRect: observeScrollerRect,
    scrollToFn: scrollScroller,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    onChange: (instance) => reachNearEnd(instance),
  });
  function reachNearEnd(instance: ScrollerVirtualizer) {
    const last = instance.getVirtualItems().at(-1);
    if (onNearEnd && last && last.index >= instance.options.count - 1 - LOAD_AHEAD_ROWS) onNearEnd();
  }
  // Once mounted, as a measure used to: a first page that does not fill the scroller loads the next one.
  const onMounted = useEffectEvent(() => reachNearEnd(virtualizer));
  useEffect(() => onMounted(), []);
  const virtualItems = virtualizer.getVirtualItems();
  const scrolling = virtualizer.isScrolling;

  // After the rows are painted and scrolling has settled: the ids in view, for one usage query.
  // Counted from the window, not the scroller: the set stays the same when the scroller is measured after the
  // first commit, so one query is asked, not two.
  const firstInView = virtualizer.range?.startIndex ?? 0;
  const usageRows = rows.slice(Math.max(0, firstInView - OVERSCAN), firstInView + Math.ceil(windowRect().height / rowHeight) + OVERSCAN);
  const idsInView = scrolling ? null : usageRows.map((row) => row.id).join(" ");
  useEffect(() => {
    if (idsInView !== null && onKeysInView) onKeysInView(idsInView === "" ? [] : idsInView.split(" "));
  }, [idsInView, onKeysInView]);

  // On a change only: a new scroller is at the top already, and writing scrollTop would force a layout.
  const lastResetKey = useRef(scrollResetKey);
  useEffect(() => {
    if (scrollResetKey === lastResetKey.current) return;
    lastResetKey.current = scrollResetKey;
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [scrollResetKey]);

  const selectWidth = selection === undefined ? 0 : SELECT_WIDTH;
  // Stable while the rows are: a click re-renders the rows, scrolling does not.
  const shownIds = useMemo(() => rows.map((row) => row.id), [rows]);
  const toggle = selection?.toggle;
  const onToggle = useMemo(() => (toggle === undefined ? undefined : (keyId: string, range: boolean) => toggle(keyId, range, shownIds)), [toggle, shownIds]);
  const style = {
    "--keys-columns": [...(selection === undefined || compact ? [] : [`${SELECT_WIDTH}px`]), ...columns.map((column) => COLUMN_SPECS[column].width)].join(" "),
    "--keys-min-width": compact ? "0px" : `${selectWidth + columns.reduce((sum, column) => sum + COLUMN_SPECS[column].minWidth, 0)}px`,
    "--keys-row-height": `${rowHeight}px`,
  } as CSSProperties;

  return (
    <div
      className="keys-table__scroller"
      ref={scrollRef}
      style={{ "--keys-content-height": `${headerHeight + rows.length * rowHeight + 2}px` } as CSSProperties}
    >
      <div
        role="table"
        className={compact ? "keys-table keys-table--compact" : "keys-table"}
        aria-label="API keys"
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length + (selection === undefined ? 0 : 1)}
        style={style}
      >
        <div role="rowgroup" className="keys-table__head">
          <div role="row" aria-rowindex={1} className="keys-table__row keys-table__row--head">
            {selection !== undefined && (
              <div role="columnheader" className="keys-table__cell keys-table__cell--select">
                <SelectAll selection={selection} ids={shownIds} />
              </div>
            )}
            {columns.map((id) => {
              const column = table.getColumn(id);
              const sorted = column?.getIsSorted() ?? false;
              return (
                <div
                  role="columnheader"
                  key={id}
                  className={`keys-table__cell keys-table__cell--${id}`}
                  aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                >
                  <button type="button" className="keys-table__sort" onClick={column?.getToggleSortingHandler()}>
                    {COLUMN_SPECS[id].label}
                    <SortIcon sorted={sorted} />
                  </button>
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup" className="keys-table__body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualItems.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <KeyRow
                key={item.key}
                keyData={row.original}
                index={item.index}
                top={item.start - headerHeight}
                columns={columns}
                now={now}
                usage={usage?.get(row.id)}
                compact={compact}
                selected={selection?.selected.has(row.id)}
                onToggle={onToggle}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface KeyRowProps {
  keyData: Key;
  index: number;
  /** Where the row sits inside the body; fixed for a row, so scrolling renders only the rows it brings in. */
  top: number;
  columns: readonly ColumnId[];
  now: number;
  usage: KeyUsage | undefined;
  compact: boolean;
  /** Undefined: no selection column. */
  selected?: boolean | undefined;
  onToggle?: ((keyId: string, range: boolean) => void) | undefined;
}

const KeyRow = memo(function KeyRow({ keyData, index, top, columns, now, usage, compact, selected, onToggle }: KeyRowProps) {
  return (
    <div role="row" aria-rowindex={index + 2} aria-selected={selected} className="keys-table__row" style={{ transform: `translateY(${top}px)` }}>
      {onToggle !== undefined && (
        <div role="cell" className="keys-table__cell keys-table__cell--select">
          <input
            type="checkbox"
            aria-label={`Select ${keyData.name !== undefined && keyData.name.trim() !== "" ? keyData.name : keyData.keyId}`}
            checked={selected === true}
            onClick={(event) => onToggle(keyData.keyId, event.shiftKey)}
            readOnly
          />
        </div>
      )}
      {columns.map((column) => (
        <div role="cell" key={column} className={`keys-table__cell keys-table__cell--${column}`}>
          {compact && COMPACT_LABELS[column] !== undefined && (
            <span className="keys-table__cell-label" aria-hidden="true">
              {COMPACT_LABELS[column]}
            </span>
          )}
          <KeyCell column={column} keyData={keyData} now={now} usage={usage} compact={compact} />
        </div>
      ))}
    </div>
  );
});

/** Selects every key shown (as filtered), or unselects them when all are; selected keys a filter hides stay selected. */
function SelectAll({ selection, ids }: { selection: KeySelection; ids: readonly string[] }) {
  const all = ids.length > 0 && ids.every((id) => selection.selected.has(id));
  const some = !all && ids.some((id) => selection.selected.has(id));
  return (
    <input
      type="checkbox"
      aria-label={`Select all ${ids.length} shown`}
      checked={all}
      ref={(element) => {
        if (element) element.indeterminate = some;
      }}
      onChange={() => (all ? selection.remove(ids) : selection.add(ids))}
    />
  );
}

function SortIcon({ sorted }: { sorted: false | "asc" | "desc" }) {
  return (
    <svg className="keys-table__sort-icon" viewBox="0 0 10 14" width="8" height="12" aria-hidden="true">
      <path d="M5 1 9 5H1z" fill="currentColor" opacity={sorted === "asc" ? 1 : 0.3} />
      <path d="M5 13 1 9h8z" fill="currentColor" opacity={sorted === "desc" ? 1 : 0.3} />
    </svg>
  );
}
