import { functionalUpdate, useTable, type SortingState, type Updater } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { saveColumnVisibility, type ColumnVisibility } from "../columns/column-preferences";
import { fitChosenColumns, initialColumnChoice, offeredColumns } from "../columns/column-choice";
import { COLUMN_ORDER, presentColumns } from "../columns/column-specs";
import { keyColumns, keysTableFeatures } from "../columns/key-columns";
import type { Key } from "../../../lib/contract";
import { countStatuses, statusFacets, type StatusFacet } from "../utils/key-status";

interface Options {
  now: number;
  /** The usage column sorts by these totals (every loaded key's, or none: never a part of them). */
  usageTotals: ReadonlyMap<string, number> | undefined;
  /** False when the root key may not read analytics: the usage column gives way to a notice. */
  usageAvailable: boolean;
  sorting: SortingState;
  onSortingChange: (updater: Updater<SortingState>) => void;
  /** The width the table may take (0 before layout) and whether rows are cards: what does not fit folds away. */
  width: number;
  compact: boolean;
}

/**
 * The Keys table's model: sorting, the status filter with its counts, and the columns shown (the person's
 * choice, remembered, among the columns whose field some key carries, as many as fit the width).
 */
export function useKeysTable(keys: readonly Key[], options: Options) {
  const { now, usageTotals, usageAvailable, sorting, onSortingChange, width, compact } = options;
  const [statusFilter, setStatusFilter] = useState<StatusFacet[]>([]);
  // One pass for the filter's counts and one for the filter, with no state kept per key.
  const statusCounts = useMemo(() => countStatuses(keys, now), [keys, now]);
  const filtered = useMemo(
    () => (statusFilter.length === 0 ? keys : keys.filter((key) => statusFacets(key, now).some((facet) => statusFilter.includes(facet)))),
    [keys, now, statusFilter],
  );
  const [chosen, setChosen] = useState<ColumnVisibility>(initialColumnChoice);

  const columns = useMemo(() => keyColumns(now, (keyId) => usageTotals?.get(keyId)), [now, usageTotals]);
  const present = useMemo(() => presentColumns(keys), [keys]);
  const offered = useMemo(() => offeredColumns(present, usageAvailable), [present, usageAvailable]);
  const columnVisibility = useMemo(
    () => Object.fromEntries(COLUMN_ORDER.map((id) => [id, offered.includes(id) && chosen[id] !== false])),
    [offered, chosen],
  );
  const sortedKey = sorting.map((entry) => entry.id).join(" ");
  const fitted = useMemo(
    () => fitChosenColumns(offered, chosen, sortedKey.split(" "), { width, compact }),
    [offered, chosen, sortedKey, width, compact],
  );
  const visibleColumns = fitted.visible;
  // The same columns keep the same array, so a resize that folds nothing re-renders no row.
  const shownKey = fitted.shown.join(" ");
  const foldedKey = fitted.folded.join(" ");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content on purpose
  const shownColumns = useMemo(() => fitted.shown, [shownKey]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content on purpose
  const foldedColumns = useMemo(() => fitted.folded, [foldedKey]);

  // TanStack Table caches each row's values until the data changes, so new column definitions (a new
  // minute for statuses, usage totals that came in) come with a new data array: the rows are read again.
  const data = useMemo(() => (columns ? filtered.slice() : filtered), [filtered, columns]);

  const table = useTable({
    features: keysTableFeatures,
    columns,
    data,
    getRowId: (key) => key.keyId,
    state: { sorting, columnVisibility },
    onSortingChange,
    onColumnVisibilityChange: (updater: Updater<ColumnVisibility>) => {
      setChosen((previous) => {
        // Only what the person changed is kept: a column hidden for want of data stays wanted.
        const requested = functionalUpdate(updater, columnVisibility);
        const changed = Object.entries(requested).filter(([id, visible]) => columnVisibility[id] !== visible);
        const next = { ...previous, ...Object.fromEntries(changed) };
        saveColumnVisibility(next);
        return next;
      });
    },
    enableSortingRemoval: true,
    autoResetSorting: false,
  });

  return {
    table,
    offered,
    /** The columns the person chose (what an export holds). */
    visibleColumns,
    /** Those of them the table shows at its width; the rest are `foldedColumns`. */
    shownColumns,
    foldedColumns,
    sorting,
    statusFilter,
    setStatusFilter,
    /** How many of the keys (before the status filter) have each status. */
    statusCounts,
    /** How many keys those counts count. */
    countedKeys: keys.length,
  };
}

export type KeysTableModel = ReturnType<typeof useKeysTable>;
