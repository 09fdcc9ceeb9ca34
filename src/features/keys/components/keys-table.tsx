import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef, type CSSProperties } from "react";
import { CopyButton } from "../../../components/copy-button";
import type { Key } from "../../../lib/contract";
import { type OptionalColumn } from "../key-view";
import { KeyStatusBadge } from "./key-status-badge";
import { RelativeTime } from "./relative-time";

/** Fixed, so the virtualizer never has to measure: 100,000 rows cost what the visible ones cost. */
export const ROW_HEIGHT = 52;
export const HEADER_HEIGHT = 40;
/** Start loading the next page this many rows before the end. */
const LOAD_AHEAD_ROWS = 20;

type Column = "keyId" | "name" | OptionalColumn;

const COLUMNS: Record<Column, { label: string; width: string; minWidth: number }> = {
  keyId: { label: "Key ID", width: "minmax(260px, 1.4fr)", minWidth: 260 },
  name: { label: "Name", width: "minmax(180px, 1.6fr)", minWidth: 180 },
  start: { label: "Prefix", width: "minmax(140px, 0.8fr)", minWidth: 140 },
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

export function KeysTable({ keys, optionalColumns, now, onNearEnd }: KeysTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns: Column[] = ["keyId", "name", ...optionalColumns];
  // The virtualizer re-renders this component itself on scroll; nothing here is memoized by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: keys.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => keys[index]?.keyId ?? index,
    overscan: 10,
    // The sticky header sits above the rows inside the same scroller.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    onChange: (instance) => {
      const last = instance.getVirtualItems().at(-1);
      if (onNearEnd && last && last.index >= instance.options.count - 1 - LOAD_AHEAD_ROWS) onNearEnd();
    },
  });

  const style = {
    "--keys-columns": columns.map((column) => COLUMNS[column].width).join(" "),
    "--keys-min-width": `${columns.reduce((sum, column) => sum + COLUMNS[column].minWidth, 0)}px`,
  } as CSSProperties;

  return (
    <div className="keys-table__scroller" ref={scrollRef}>
      <div
        role="table"
        className="keys-table"
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
          {virtualizer.getVirtualItems().map((item) => {
            const key = keys[item.index];
            if (!key) return null;
            return (
              <div
                role="row"
                key={item.key}
                aria-rowindex={item.index + 2}
                className="keys-table__row"
                style={{ transform: `translateY(${item.start - HEADER_HEIGHT}px)` }}
              >
                <div role="cell" className="keys-table__cell keys-table__cell--keyId">
                  <code className="keys-table__id" title={key.keyId}>
                    {key.keyId}
                  </code>
                  <CopyButton value={key.keyId} label={`Copy key id ${key.keyId}`} className="keys-table__copy" />
                </div>
                <div role="cell" className="keys-table__cell keys-table__cell--name">
                  {key.name === "" ? (
                    <span className="keys-table__muted">Unnamed</span>
                  ) : (
                    <span className="keys-table__name" title={key.name}>
                      {key.name}
                    </span>
                  )}
                </div>
                {optionalColumns.map((column) => (
                  <div role="cell" key={column} className={`keys-table__cell keys-table__cell--${column}`}>
                    <OptionalCell column={column} keyData={key} now={now} />
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function OptionalCell({ column, keyData, now }: { column: OptionalColumn; keyData: Key; now: number }) {
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
        <span className="keys-table__muted">Never</span>
      ) : (
        <RelativeTime time={keyData.expires} now={now} />
      );
  }
}
