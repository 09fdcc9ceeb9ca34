import { memo } from "react";
import type { Key } from "@/lib/contract";
import type { ColumnId } from "../columns/column-specs";
import type { KeyUsage } from "../utils/usage";
import { keyCell } from "./key-cells";
import { useFollowKeyPageLink } from "./key-page-links";

/** Shown beside a name on a phone's card, for the eye; the column header names it for assistive technology. */
const COMPACT_LABELS: Partial<Record<ColumnId, string>> = {
  lastUsed: "Used",
  credits: "Credits",
  expires: "Expires",
  createdAt: "Created",
  externalId: "Identity",
};

/** Rows rendered beyond those in view, each way. */
export const OVERSCAN = 10;

/**
 * The scroller's size before it is measured: it is never taller than the window, so the first commit already
 * holds the rows in view (the virtualizer corrects it once it has measured, without a visible change).
 */
export function windowRect(): { width: number; height: number } {
  return typeof window === "undefined"
    ? { width: 0, height: 0 }
    : { width: window.innerWidth, height: window.innerHeight };
}

/**
 * The rows a window shows at the top of the table, and `overscan` rows below them: drawn before the virtualizer
 * is here (none below: nothing scrolls them in until it comes, and each costs the first row its render and layout),
 * and all the table can show when its code could not be loaded (the overscan too, as the virtualizer would).
 */
export function firstDrawnRows(count: number, rowHeight: number, overscan: number): DrawnRow[] {
  const drawn = Math.min(count, Math.ceil(windowRect().height / rowHeight) + overscan);
  return Array.from({ length: drawn }, (_, index) => ({ index, top: index * rowHeight }));
}

/** What every row of the table is drawn with, whoever decides which rows are drawn. */
export interface KeyRowsProps {
  /** The keys as shown (filtered and sorted), one row each. */
  keys: readonly Key[];
  rowHeight: number;
  columns: readonly ColumnId[];
  now: number;
  usage: ReadonlyMap<string, KeyUsage> | undefined;
  compact: boolean;
  /** Undefined: no selection column. */
  selected: ReadonlySet<string> | undefined;
  onToggle: ((keyId: string, range: boolean) => void) | undefined;
}

/** One drawn row: the index of its key, and where it sits inside the body. */
export interface DrawnRow {
  index: number;
  top: number;
}

/** The table's body: as tall as all its rows, holding the drawn ones where they sit. */
export function KeyRowsBody({
  drawn,
  keys,
  rowHeight,
  columns,
  now,
  usage,
  compact,
  selected,
  onToggle,
}: KeyRowsProps & { drawn: readonly DrawnRow[] }) {
  return (
    <div role="rowgroup" className="keys-table__body" style={{ height: keys.length * rowHeight }}>
      {drawn.map(({ index, top }) => {
        const keyData = keys[index];
        if (keyData === undefined) return null;
        return (
          <KeyRow
            key={keyData.keyId}
            keyData={keyData}
            index={index}
            top={top}
            columns={columns}
            now={now}
            usage={usage?.get(keyData.keyId)}
            compact={compact}
            selected={selected?.has(keyData.keyId)}
            onToggle={onToggle}
          />
        );
      })}
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

const KeyRow = memo(function KeyRow({
  keyData,
  index,
  top,
  columns,
  now,
  usage,
  compact,
  selected,
  onToggle,
}: KeyRowProps) {
  const followLink = useFollowKeyPageLink();
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className="keys-table__row"
      style={{ transform: `translateY(${top}px)` }}
    >
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
          {keyCell({ column, keyData, now, usage, compact, followLink })}
        </div>
      ))}
    </div>
  );
});
