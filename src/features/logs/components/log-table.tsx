import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { OutcomeBadge } from "@/components/outcome-badge";
import { SafeName } from "@/components/safe-name";
import type { LogRow } from "@/lib/analytics-rows";
import { formatCount } from "@/lib/format-number";
import { useRovingRows } from "@/lib/hooks/use-roving-rows";
import type { KeyName } from "../api/key-names";
import { LOG_COLUMN_SPECS, type LogColumnId } from "../columns/log-columns";
import type { LiveGap } from "../hooks/use-live-log";
import { formatLogTime } from "../log-time";

/** Fixed, so the virtualizer never measures: a hundred thousand rows cost what the visible ones cost. */
const ROW_HEIGHT = 40;
const COMPACT_ROW_HEIGHT = 108;
const HEADER_HEIGHT = 40;
const OVERSCAN = 12;
/** Start loading the next page this many rows before the end. */
const LOAD_AHEAD = 30;

type Item = { kind: "row"; key: string; row: LogRow } | { kind: "gap"; key: string; gap: LiveGap };

/** The rows, with what a burst kept Live from listing said below the row it follows. */
function itemsOf(rows: readonly LogRow[], gaps: readonly LiveGap[]): Item[] {
  const gapsBelow = new Map<string, LiveGap[]>();
  for (const gap of gaps) gapsBelow.set(gap.below, [...(gapsBelow.get(gap.below) ?? []), gap]);
  const items: Item[] = [];
  for (const row of rows) {
    items.push({ kind: "row", key: row.requestId, row });
    for (const [index, gap] of (gapsBelow.get(row.requestId) ?? []).entries())
      items.push({ kind: "gap", key: `gap ${row.requestId} ${index}`, gap });
  }
  return items;
}

export interface LogTableProps {
  rows: readonly LogRow[];
  gaps: readonly LiveGap[];
  columns: readonly LogColumnId[];
  /** Rows as cards (a phone). */
  compact: boolean;
  now: number;
  names: ReadonlyMap<string, KeyName>;
  /** The request id of the row whose details are open. */
  selected: string | undefined;
  onSelect: (row: LogRow) => void;
  /** The id of the details panel the rows' buttons open. */
  detailsId: string;
  keyHref: (keyId: string) => string;
  /** A view of the time span a gap covers, where its verifications are listed. */
  gapHref: (gap: LiveGap) => string;
  /** Called while the person scrolls within reach of the last row. */
  onNearEnd: () => void;
  /** The keys of the rows in view once scrolling settles: their names are asked for. */
  onKeysInView: (keyIds: readonly string[]) => void;
  /** Shown below the last row: loading more, or the end. */
  footer?: ReactNode;
}

/**
 * The log, virtualized: only the rows in view (and a few each way) are in the page. New rows that Live puts above the
 * ones in view never move them: the scroller keeps the row at its top where it was (unless it is at the very top,
 * following the newest), and says how many newer ones came. Keyboard: one row at a time is in the tab order; the
 * arrow keys, Home, End and the page keys move between rows, Enter opens a row's details.
 */
export function LogTable({
  rows,
  gaps,
  columns,
  compact,
  now,
  names,
  selected,
  onSelect,
  detailsId,
  keyHref,
  gapHref,
  onNearEnd,
  onKeysInView,
  footer,
}: LogTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const items = useMemo(() => itemsOf(rows, gaps), [rows, gaps]);
  const rowHeight = compact ? COMPACT_ROW_HEIGHT : ROW_HEIGHT;
  const headerHeight = compact ? 0 : HEADER_HEIGHT;
  // The virtualizer re-renders this component itself on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => items[index]?.key ?? index,
    overscan: OVERSCAN,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
  });

  // Where the person is reading: the item at the scroller's top and how far into it, kept on every scroll.
  const anchor = useRef<{ key: string; delta: number } | null>(null);
  const [newerAbove, setNewerAbove] = useState(0);
  const remember = () => {
    const scroller = scrollRef.current;
    if (scroller === null) return;
    const index = Math.max(0, Math.floor(scroller.scrollTop / rowHeight));
    const item = items[index];
    anchor.current = item === undefined ? null : { key: item.key, delta: scroller.scrollTop - index * rowHeight };
    if (scroller.scrollTop === 0) setNewerAbove(0);
  };
  // New items above the anchor: the scroller moves by as much, so that what was read stays where it was.
  const previousFirst = useRef(items[0]?.key);
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    const kept = anchor.current;
    const firstChanged = previousFirst.current !== items[0]?.key;
    previousFirst.current = items[0]?.key;
    if (scroller === null || kept === null || !firstChanged) return;
    const reading = scroller.scrollTop > 0 || selected !== undefined || scroller.contains(document.activeElement);
    if (!reading) return;
    const index = items.findIndex((item) => item.key === kept.key);
    if (index < 0) return;
    const oldIndex = Math.floor((scroller.scrollTop - kept.delta) / rowHeight);
    if (index > oldIndex) {
      scroller.scrollTop = index * rowHeight + kept.delta;
      setNewerAbove((count) => count + index - oldIndex);
    }
  }, [items, rowHeight, selected]);

  const { tabbableIndex, onKeyDown, setActiveKey, moveTo } = useRovingRows({
    keys: items.map((item) => item.key),
    virtualizer,
    scrollRef,
    rowHeight,
    rowsTop: headerHeight,
    loadAhead: LOAD_AHEAD,
    onNearEnd,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const scrolling = virtualizer.isScrolling;
  const keysInView = scrolling
    ? null
    : [
        ...new Set(
          virtualItems.flatMap(({ index }) => {
            const item = items[index];
            return item?.kind === "row" && item.row.keyId !== "" ? [item.row.keyId] : [];
          }),
        ),
      ].join(" ");
  useEffect(() => {
    if (keysInView !== null) onKeysInView(keysInView === "" ? [] : keysInView.split(" "));
  }, [keysInView, onKeysInView]);

  const style = {
    "--log-columns": columns.map((id) => LOG_COLUMN_SPECS[id].width).join(" "),
    "--log-row-height": `${rowHeight}px`,
  } as CSSProperties;

  return (
    <div className="log-table-frame">
      {newerAbove > 0 && (
        <button
          type="button"
          className="button button--small log-table__newer"
          onClick={() => {
            setNewerAbove(0);
            moveTo(0);
          }}
        >
          ↑ {formatCount(newerAbove)} newer {newerAbove === 1 ? "verification" : "verifications"}
        </button>
      )}
      <div className="log-table__scroller" ref={scrollRef} onScroll={remember}>
        <div
          role="table"
          aria-label="Verifications, newest first"
          aria-rowcount={items.length + 1}
          className={compact ? "log-table log-table--compact" : "log-table"}
          style={style}
        >
          <div role="rowgroup" className="log-table__head">
            <div role="row" aria-rowindex={1} className="log-table__row log-table__row--head">
              {columns.map((id) => (
                <div role="columnheader" key={id} className={`log-table__cell log-table__cell--${id}`}>
                  {LOG_COLUMN_SPECS[id].label}
                </div>
              ))}
            </div>
          </div>
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the arrow keys move between the rows' buttons (a roving tab stop) */}
          <div
            role="rowgroup"
            className="log-table__body"
            style={{ height: items.length * rowHeight }}
            onKeyDown={onKeyDown}
          >
            {virtualItems.map(({ index, start }) => {
              const item = items[index];
              if (item === undefined) return null;
              const top = start - headerHeight;
              return item.kind === "row" ? (
                <LogTableRow
                  key={item.key}
                  row={item.row}
                  index={index}
                  top={top}
                  columns={columns}
                  compact={compact}
                  now={now}
                  name={names.get(item.row.keyId)}
                  selected={item.row.requestId === selected}
                  tabbable={index === tabbableIndex}
                  detailsId={detailsId}
                  keyHref={keyHref}
                  onSelect={onSelect}
                  onFocusRow={setActiveKey}
                />
              ) : (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={index + 2}
                  className="log-table__row log-table__row--gap"
                  data-item-key={item.key}
                  style={{ transform: `translateY(${top}px)` }}
                >
                  <div role="cell" className="log-table__gap" style={{ gridColumn: "1 / -1" }}>
                    {formatCount(item.gap.count)} more {item.gap.count === 1 ? "verification" : "verifications"} came in
                    a burst that Live does not list here.{" "}
                    <Link
                      to={gapHref(item.gap)}
                      data-roving=""
                      tabIndex={index === tabbableIndex ? 0 : -1}
                      onFocus={() => setActiveKey(item.key)}
                    >
                      List them
                    </Link>
                  </div>
                </div>
              );
            })}
          </div>
        </div>
        {footer}
      </div>
    </div>
  );
}

interface LogTableRowProps {
  row: LogRow;
  index: number;
  top: number;
  columns: readonly LogColumnId[];
  compact: boolean;
  now: number;
  name: KeyName | undefined;
  selected: boolean;
  tabbable: boolean;
  detailsId: string;
  keyHref: (keyId: string) => string;
  onSelect: (row: LogRow) => void;
  onFocusRow: (key: string) => void;
}

const LogTableRow = memo(function LogTableRow({
  row,
  index,
  top,
  columns,
  compact,
  now,
  name,
  selected,
  tabbable,
  detailsId,
  keyHref,
  onSelect,
  onFocusRow,
}: LogTableRowProps) {
  const time = formatLogTime(row.time, now);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={selected ? "log-table__row log-table__row--selected" : "log-table__row"}
      data-item-key={row.requestId}
      style={{ transform: `translateY(${top}px)` }}
    >
      {columns.map((column) => (
        <div role="cell" key={column} className={`log-table__cell log-table__cell--${column}`}>
          {column === "time" ? (
            <button
              type="button"
              className="log-table__open"
              data-roving=""
              tabIndex={tabbable ? 0 : -1}
              aria-expanded={selected}
              aria-controls={detailsId}
              aria-label={`${time}, ${row.outcome}: details`}
              onFocus={() => onFocusRow(row.requestId)}
              onClick={() => onSelect(row)}
            >
              <time dateTime={new Date(row.time).toISOString()}>{time}</time>
            </button>
          ) : (
            <LogCell column={column} row={row} name={name} compact={compact} keyHref={keyHref} />
          )}
        </div>
      ))}
    </div>
  );
});

function Empty() {
  return <span className="log-table__none">—</span>;
}

/** The key as the log names it: its name (a link to its page), its id when it has none or cannot be read. */
export function KeyLabel({ keyId, name }: { keyId: string; name: KeyName | undefined }) {
  if (keyId === "") return <Empty />;
  const named = name?.state === "found" && name.name !== undefined && name.name.trim() !== "" ? name.name : null;
  return named === null ? (
    <code className={name?.state === "loading" ? "log-table__id log-table__id--loading" : "log-table__id"}>
      <SafeName>{keyId}</SafeName>
    </code>
  ) : (
    <SafeName withTitle>{named}</SafeName>
  );
}

function LogCell({
  column,
  row,
  name,
  compact,
  keyHref,
}: {
  column: Exclude<LogColumnId, "time">;
  row: LogRow;
  name: KeyName | undefined;
  compact: boolean;
  keyHref: (keyId: string) => string;
}) {
  const label = compact ? <span className="log-table__cell-label">{LOG_COLUMN_SPECS[column].label}</span> : null;
  switch (column) {
    case "outcome":
      return <OutcomeBadge outcome={row.outcome} />;
    case "key":
      return row.keyId === "" ? (
        <Empty />
      ) : (
        // Out of the tab order: the row's details link the key's page for the keyboard.
        <Link to={keyHref(row.keyId)} tabIndex={-1} className="log-table__key">
          <KeyLabel keyId={row.keyId} name={name} />
        </Link>
      );
    case "identity":
      // A card leaves out an identity there is none of; a table's column says so.
      return row.externalId === "" ? (
        compact ? null : (
          <Empty />
        )
      ) : (
        <>
          {label}
          <SafeName withTitle>{row.externalId}</SafeName>
        </>
      );
    case "tags":
      return row.tags.length === 0 ? (
        <Empty />
      ) : (
        <span className="log-table__tags">
          {row.tags.map((tag, index) => (
            <code key={index} className="log-table__tag">
              <SafeName>{tag}</SafeName>
            </code>
          ))}
        </span>
      );
    case "region":
      return row.region === "" ? <Empty /> : <SafeName>{row.region}</SafeName>;
    case "credits":
      return <span className="log-table__number">{formatCount(row.spentCredits)}</span>;
    case "requestId":
      return (
        <code className="log-table__id">
          <SafeName>{row.requestId}</SafeName>
        </code>
      );
    case "keyId":
      return row.keyId === "" ? (
        <Empty />
      ) : (
        <code className="log-table__id">
          <SafeName>{row.keyId}</SafeName>
        </code>
      );
    case "keySpace":
      return row.keySpaceId === "" ? (
        <Empty />
      ) : (
        <code className="log-table__id">
          <SafeName>{row.keySpaceId}</SafeName>
        </code>
      );
  }
}
