import type { SortingState } from "@tanstack/table-core";
import { useMemo, useRef, useState } from "react";
import { useLateCode } from "@/lib/hooks/use-late-code";
import { retryableModule } from "@/lib/retryable-lazy";
import { saveColumnVisibility, type ColumnVisibility } from "../columns/column-preferences";
import { fitChosenColumns, initialColumnChoice, offeredColumns } from "../columns/column-choice";
import { presentColumns, type ColumnId } from "../columns/column-specs";
import type { Key } from "@/lib/contract";
import type * as KeySorting from "../columns/key-sorting";
import { countStatuses, statusFacets, type StatusFacet } from "../utils/key-status";

/**
 * The sorting code (TanStack Table, a fifth of the keys page's code) loads once the first rows are on screen:
 * they come in the loaded order, unsorted, so they need none of it. A change of the sort waits for it.
 */
const SortingCode = retryableModule(() => import("../columns/key-sorting"));

interface Options {
  now: number;
  /** The usage column sorts by these totals (every loaded key's, or none: never a part of them). */
  usageTotals: ReadonlyMap<string, number> | undefined;
  /** False when the root key may not read analytics: the usage column gives way to a notice. */
  usageAvailable: boolean;
  sorting: SortingState;
  onSortingChange: (change: (previous: SortingState) => SortingState) => void;
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
  // Only a failure shows: the code's arrival renders nothing again (a sort waits for it in changeSorting).
  const sortingCodeFailed = useLateCode(SortingCode, (status) => status === "failed");
  const [statusFilter, setStatusFilter] = useState<StatusFacet[]>([]);
  // One pass for the filter's counts and one for the filter, with no state kept per key.
  const statusCounts = useMemo(() => countStatuses(keys, now), [keys, now]);
  const filtered = useMemo(
    () =>
      statusFilter.length === 0
        ? keys
        : keys.filter((key) => statusFacets(key, now).some((facet) => statusFilter.includes(facet))),
    [keys, now, statusFilter],
  );
  const [chosen, setChosen] = useState<ColumnVisibility>(initialColumnChoice);

  const present = useMemo(() => presentColumns(keys), [keys]);
  const offered = useMemo(() => offeredColumns(present, usageAvailable), [present, usageAvailable]);
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

  const inputs = useMemo(() => ({ now, usageTotal: (keyId: string) => usageTotals?.get(keyId) }), [now, usageTotals]);
  // A sort is only ever set once the sorting code is here (changeSorting), so it is here whenever the keys are
  // to be sorted; its arrival alone changes no row.
  const rows = useMemo(() => {
    const code = SortingCode.loaded();
    return code === undefined ? filtered : code.sortKeys(filtered, sorting, inputs);
  }, [filtered, sorting, inputs]);

  // A sort asked for before its code is here: one target, the last ask's, from the sort as the person saw it
  // (three impatient clicks on a header ask for its first direction three times, not for three toggles).
  const awaitedSort = useRef<((code: typeof KeySorting) => SortingState) | null>(null);
  const [awaitedColumn, setAwaitedColumn] = useState<{ column: ColumnId | null } | null>(null);

  /** Changes the sort once its code is here (at once, unless the first rows came a moment ago). */
  const changeSorting = (
    column: ColumnId | null,
    change: (code: typeof KeySorting, previous: SortingState) => SortingState,
  ) => {
    const loaded = SortingCode.loaded();
    if (loaded !== undefined) return onSortingChange((previous) => change(loaded, previous));
    // The code could not be loaded: the table says so, with Retry (sortingCodeFailed).
    if (SortingCode.status() === "failed") return;
    const seen = sorting;
    const waiting = awaitedSort.current !== null;
    awaitedSort.current = (code) => change(code, seen);
    setAwaitedColumn({ column });
    if (waiting) return;
    const settle = (code: typeof KeySorting | undefined) => {
      const target = awaitedSort.current;
      awaitedSort.current = null;
      setAwaitedColumn(null);
      if (code !== undefined && target !== null) onSortingChange(() => target(code));
    };
    SortingCode.load().then(settle, () => settle(undefined));
  };

  return {
    /** The keys as shown: filtered by status, sorted. */
    rows,
    offered,
    /** The columns the person chose (what an export holds). */
    visibleColumns,
    /** Those of them the table shows at its width; the rest are `foldedColumns`. */
    shownColumns,
    foldedColumns,
    sorting,
    /** How a column is sorted, if it is. */
    sortOf: (id: ColumnId): false | "asc" | "desc" => {
      const entry = sorting.find((sorted) => sorted.id === id);
      return entry === undefined ? false : entry.desc ? "desc" : "asc";
    },
    /** A click on a column's header: its first direction, the other, then unsorted; with `multi` (Shift), added to the sort. */
    toggleSort: (id: ColumnId, multi: boolean) =>
      changeSorting(id, (code, previous) => code.toggledSorting(filtered, previous, id, multi, inputs)),
    /** Sorts by one column, or by none (the loaded order). */
    sortBy: (next: { id: ColumnId; desc: boolean } | null) =>
      changeSorting(next?.id ?? null, () => (next === null ? [] : [next])),
    /** A sort asked for while its code is on its way (by that column, or back to the loaded order), or null. */
    awaitedSort: awaitedColumn,
    /** The sorting code could not be loaded (until the next try): the keys stay in the loaded order. */
    sortingCodeFailed,
    /** Whether the person has a column on (folded or not), and turning one on or off (remembered). */
    isChosen: (id: ColumnId) => offered.includes(id) && chosen[id] !== false,
    choose: (id: ColumnId, on: boolean) =>
      setChosen((previous) => {
        const next = { ...previous, [id]: on };
        saveColumnVisibility(next);
        return next;
      }),
    statusFilter,
    setStatusFilter,
    /** How many of the keys (before the status filter) have each status. */
    statusCounts,
    /** How many keys those counts count. */
    countedKeys: keys.length,
  };
}

export type KeysTableModel = ReturnType<typeof useKeysTable>;
