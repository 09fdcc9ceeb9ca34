import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useLayoutEffect, useRef, type CSSProperties } from "react";
import { CopyButton } from "../../../components/copy-button";
import { SafeName } from "../../../components/safe-name";
import type { Key } from "../../../lib/contract";
import { type OptionalColumn } from "../key-view";
import { useMediaQuery } from "../use-media-query";
import { KeyStatusBadge } from "./key-status-badge";
import { RelativeTime } from "./relative-time";

/** Fixed, so the virtualizer never has to measure: 100,000 rows cost what the visible ones cost. */
export const ROW_HEIGHT = 52;
export const HEADER_HEIGHT = 40;
/** On a phone each row is a small card: name and status, the id, then prefix and dates. */
const COMPACT_ROW_HEIGHT = 100;
const COMPACT_ROW_HEIGHT_BARE = 76;
export const COMPACT_QUERY = "(max-width: 640px)";
/** Start loading the next page this many rows before the end. */
const LOAD_AHEAD_ROWS = 20;
/** A performance mark set once per page load, when the first key row is in the DOM: `npm run bench` times it. */
export const FIRST_ROW_MARK = "keyscope:first-row";
let firstRowMarked = false;

type Column = "keyId" | "name" | OptionalColumn;

const COLUMNS: Record<Column, { label: string; width: string; minWidth: number }> = {
  keyId: { label: "Key ID", width: "minmax(330px, 1.5fr)", minWidth: 330 },
  name: { label: "Name", width: "minmax(180px, 1.5fr)", minWidth: 180 },
  start: { label: "Prefix", width: "minmax(160px, 0.8fr)", minWidth: 160 },
  status: { label: "Status", width: "minmax(110px, 0.6fr)", minWidth: 110 },
  createdAt: { label: "Created", width: "minmax(130px, 0.7fr)", minWidth: 130 },
  expires: { label: "Expires", width: "minmax(130px, 0.7fr)", minWidth: 130 },
};

interface KeysTableProps {
  keys: readonly Key[];
  /** The optional columns to show, for the fields the API sends. */
  optionalColumns: readonly OptionalColumn[];
  now: number;
  /** Called while the user scrolls within reach of the last row. */
  onNearEnd?: () => void;
}

export function KeysTable(props: KeysTableProps) {
  const compact = useMediaQuery(COMPACT_QUERY);
  // A new layout is a new virtualizer: row heights are fixed per layout, never re-measured.
  return <VirtualKeysTable key={compact ? "compact" : "wide"} compact={compact} {...props} />;
}

function VirtualKeysTable({ keys, optionalColumns, now, onNearEnd, compact }: KeysTableProps & { compact: boolean }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns: Column[] = ["keyId", "name", ...optionalColumns];
  const rowHeight = compact ? (optionalColumns.length > 0 ? COMPACT_ROW_HEIGHT : COMPACT_ROW_HEIGHT_BARE) : ROW_HEIGHT;
  // The wide layout's sticky header sits above the rows inside the same scroller; the compact one hides it visually.
  const headerHeight = compact ? 0 : HEADER_HEIGHT;
  // The virtualizer re-renders this component itself on scroll; nothing here is memoized by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: keys.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => keys[index]?.keyId ?? index,
    overscan: 10,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    onChange: (instance) => {
      const last = instance.getVirtualItems().at(-1);
      if (onNearEnd && last && last.index >= instance.options.count - 1 - LOAD_AHEAD_ROWS) onNearEnd();
    },
  });
  const virtualItems = virtualizer.getVirtualItems();

  useLayoutEffect(() => {
    if (firstRowMarked || virtualItems.length === 0) return;
    firstRowMarked = true;
    performance.mark(FIRST_ROW_MARK);
  });

  const style = {
    "--keys-columns": columns.map((column) => COLUMNS[column].width).join(" "),
    "--keys-min-width": compact ? "0px" : `${columns.reduce((sum, column) => sum + COLUMNS[column].minWidth, 0)}px`,
    "--keys-row-height": `${rowHeight}px`,
  } as CSSProperties;

  return (
    <div
      className="keys-table__scroller"
      ref={scrollRef}
      style={{ "--keys-content-height": `${headerHeight + keys.length * rowHeight + 2}px` } as CSSProperties}
    >
      <div
        role="table"
        className={compact ? "keys-table keys-table--compact" : "keys-table"}
        aria-label="API keys"
        aria-rowcount={keys.length + 1}
        aria-colcount={columns.length}
        style={style}
      >
        <div role="rowgroup" className="keys-table__head">
          <div role="row" aria-rowindex={1} className="keys-table__row keys-table__row--head">
            {columns.map((column) => (
              <div role="columnheader" key={column} className={`keys-table__cell keys-table__cell--${column}`}>
                {COLUMNS[column].label}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="keys-table__body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualItems.map((item) => {
            const key = keys[item.index];
            if (!key) return null;
            return (
              <KeyRow
                key={item.key}
                keyData={key}
                index={item.index}
                top={item.start - headerHeight}
                optionalColumns={optionalColumns}
                now={now}
                compact={compact}
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
  optionalColumns: readonly OptionalColumn[];
  now: number;
  compact: boolean;
}

const KeyRow = memo(function KeyRow({ keyData, index, top, optionalColumns, now, compact }: KeyRowProps) {
  return (
    <div role="row" aria-rowindex={index + 2} className="keys-table__row" style={{ transform: `translateY(${top}px)` }}>
      <div role="cell" className="keys-table__cell keys-table__cell--keyId">
        <code className="keys-table__id" title={keyData.keyId}>
          {keyData.keyId}
        </code>
        <CopyButton value={keyData.keyId} label={`Copy key id ${keyData.keyId}`} className="keys-table__copy" />
      </div>
      <div role="cell" className="keys-table__cell keys-table__cell--name">
        {(keyData.name ?? "") === "" ? (
          <span className="keys-table__muted">Unnamed</span>
        ) : (
          <SafeName className="keys-table__name" withTitle>
            {keyData.name ?? ""}
          </SafeName>
        )}
      </div>
      {optionalColumns.map((column) => (
        <div role="cell" key={column} className={`keys-table__cell keys-table__cell--${column}`}>
          {compact && column === "createdAt" && <CompactLabel>Created</CompactLabel>}
          {compact && column === "expires" && keyData.expires !== undefined && <CompactLabel>Expires</CompactLabel>}
          <OptionalCell column={column} keyData={keyData} now={now} compact={compact} />
        </div>
      ))}
    </div>
  );
});

/** Names a value inside a phone's card, for the eye; the column header names it for assistive technology. */
function CompactLabel({ children }: { children: string }) {
  return (
    <span className="keys-table__cell-label" aria-hidden="true">
      {children}
    </span>
  );
}

function OptionalCell({ column, keyData, now, compact }: { column: OptionalColumn; keyData: Key; now: number; compact: boolean }) {
  switch (column) {
    case "start":
      return keyData.start === undefined ? (
        <span className="keys-table__muted">—</span>
      ) : (
        <code className="keys-table__start">{keyData.start}…</code>
      );
    case "status":
      return <KeyStatusBadge keyData={keyData} now={now} />;
    case "createdAt":
      return keyData.createdAt === undefined ? (
        <span className="keys-table__muted">—</span>
      ) : (
        <RelativeTime time={keyData.createdAt} now={now} />
      );
    case "expires":
      return keyData.expires === undefined ? (
        <span className="keys-table__muted">{compact ? "No expiry" : "Never"}</span>
      ) : (
        <RelativeTime time={keyData.expires} now={now} />
      );
  }
}
