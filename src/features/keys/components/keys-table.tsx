import { useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { CopyFeedbackGroup } from "@/components/copy-button";
import { RetryLoadButton } from "@/components/retry-load-button";
import { useLateCode } from "@/lib/hooks/use-late-code";
import { retryableLazy, type CodeStatus } from "@/lib/retryable-lazy";
import { COLUMN_SPECS } from "../columns/column-specs";
import type { KeyUsage } from "../utils/usage";
import type { KeysTableModel } from "../hooks/use-keys-table";
import type { KeySelection } from "../hooks/use-key-selection";
import { HEADER_HEIGHT, ROW_HEIGHT, SELECT_COLUMN_WIDTH as SELECT_WIDTH } from "../columns/keys-layout";
import { KeyPageLinks } from "./key-page-links";
import { firstDrawnRows, KeyRowsBody, OVERSCAN, type DrawnRow, type KeyRowsProps } from "./key-rows";
import { SortControl } from "./sort-control";
// Its type only: the module itself comes after the first rows (below).
import type { ScrollerProps } from "./virtual-key-rows";

/** On a phone each row is a small card: name and usage, the badges, the id, then last use, credits and dates. */
const COMPACT_ROW_HEIGHT = 128;

/**
 * The virtualizer (its library is about a tenth of the first screen's code) loads once the first rows are on
 * screen: until it is here, the body holds the rows a window shows at the top; then it says which rows the same
 * body holds.
 */
const VirtualRowPositions = retryableLazy(
  () => import("./virtual-key-rows"),
  (module) => module.VirtualRowPositions,
);

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
  // One navigate for every row's link, one live region and one feedback timer for every row's copy button.
  return (
    <KeyPageLinks>
      <CopyFeedbackGroup>
        {props.compact && <SortControl model={props.model} />}
        <ScrollingKeysTable key={props.compact ? "compact" : "wide"} {...props} />
      </CopyFeedbackGroup>
    </KeyPageLinks>
  );
}

function ScrollingKeysTable({
  model,
  now,
  usage,
  onNearEnd,
  onKeysInView,
  scrollResetKey,
  compact,
  selection,
}: KeysTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualCode = useLateCode(VirtualRowPositions);
  const { rows: keys, shownColumns: columns } = model;
  const rowHeight = compact ? COMPACT_ROW_HEIGHT : ROW_HEIGHT;
  // The wide layout's sticky header sits above the rows inside the same scroller; the compact one hides it visually.
  const headerHeight = compact ? 0 : HEADER_HEIGHT;

  // On a change only: a new scroller is at the top already, and writing scrollTop would force a layout.
  const lastResetKey = useRef(scrollResetKey);
  useEffect(() => {
    if (scrollResetKey === lastResetKey.current) return;
    lastResetKey.current = scrollResetKey;
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [scrollResetKey]);

  const selectWidth = selection === undefined ? 0 : SELECT_WIDTH;
  // Stable while the rows are: a click re-renders the rows, scrolling does not.
  const shownIds = useMemo(() => keys.map((key) => key.keyId), [keys]);
  const toggle = selection?.toggle;
  const onToggle = useMemo(
    () => (toggle === undefined ? undefined : (keyId: string, range: boolean) => toggle(keyId, range, shownIds)),
    [toggle, shownIds],
  );
  const style = {
    "--keys-columns": [
      ...(selection === undefined || compact ? [] : [`${SELECT_WIDTH}px`]),
      ...columns.map((column) => COLUMN_SPECS[column].width),
    ].join(" "),
    "--keys-min-width": compact
      ? "0px"
      : `${selectWidth + columns.reduce((sum, column) => sum + COLUMN_SPECS[column].minWidth, 0)}px`,
    "--keys-row-height": `${rowHeight}px`,
  } as CSSProperties;
  const rowProps = { keys, rowHeight, columns, now, usage, compact, selected: selection?.selected, onToggle };
  const firstRows = firstDrawnRows(keys.length, rowHeight, virtualCode === "failed" ? OVERSCAN : 0);

  return (
    <>
      {virtualCode === "failed" && (
        <p className="keys-table__code-failed" role="alert">
          Only the first {firstRows.length} keys can be shown: the table&apos;s scrolling code could not be loaded from
          the server. <RetryLoadButton />
        </p>
      )}
      {model.sortingCodeFailed && (
        <p className="keys-table__code-failed" role="alert">
          The keys cannot be sorted: the table&apos;s sorting code could not be loaded from the server.{" "}
          <RetryLoadButton />
        </p>
      )}
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
                const sorted = model.sortOf(id);
                const awaited = model.awaitedSort?.column === id;
                return (
                  <div
                    role="columnheader"
                    key={id}
                    className={`keys-table__cell keys-table__cell--${id}`}
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                    aria-busy={awaited || undefined}
                  >
                    <button
                      type="button"
                      className="keys-table__sort"
                      onClick={(event) => model.toggleSort(id, event.shiftKey)}
                    >
                      {COLUMN_SPECS[id].label}
                      {/* Said by aria-busy; hidden so that the header's name stays the column's. */}
                      {awaited ? (
                        <span className="keys-table__sorting" aria-hidden="true">
                          Sorting…
                        </span>
                      ) : (
                        <SortIcon sorted={sorted} />
                      )}
                    </button>
                  </div>
                );
              })}
            </div>
          </div>
          <KeyRowsInView
            {...rowProps}
            firstRows={firstRows}
            virtualCode={virtualCode}
            scrollRef={scrollRef}
            headerHeight={headerHeight}
            onNearEnd={onNearEnd}
            onKeysInView={onKeysInView}
          />
        </div>
      </div>
    </>
  );
}

interface KeyRowsInViewProps extends KeyRowsProps, ScrollerProps {
  /** The rows drawn until the virtualizer is here (and for good when its code could not be loaded). */
  firstRows: readonly DrawnRow[];
  virtualCode: CodeStatus;
}

/**
 * The table's one body, drawing the first rows until the virtualizer is here, then the rows it says. One body
 * either way: the virtualizer's arrival moves rows and adds its overscan, never unmounts and draws the rows again.
 * Its own component, so that scrolling renders this and not the header.
 */
function KeyRowsInView({
  firstRows,
  virtualCode,
  scrollRef,
  headerHeight,
  onNearEnd,
  onKeysInView,
  ...rows
}: KeyRowsInViewProps) {
  const [virtualRows, setVirtualRows] = useState<readonly DrawnRow[] | null>(null);
  const virtual = virtualCode === "loaded";
  return (
    <>
      {virtual && (
        <VirtualRowPositions
          keys={rows.keys}
          rowHeight={rows.rowHeight}
          scrollRef={scrollRef}
          headerHeight={headerHeight}
          onNearEnd={onNearEnd}
          onKeysInView={onKeysInView}
          onDrawn={setVirtualRows}
        />
      )}
      <KeyRowsBody {...rows} drawn={virtual && virtualRows !== null ? virtualRows : firstRows} />
    </>
  );
}

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
