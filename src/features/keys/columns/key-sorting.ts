import {
  constructTable,
  createColumnHelper,
  createSortedRowModel,
  functionalUpdate,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  type SortingState,
} from "@tanstack/table-core";
import { storeReactivityBindings } from "@tanstack/table-core/store-reactivity-bindings";
import type { Key } from "@/lib/contract";
import { fieldStatuses } from "../utils/key-status";

/**
 * How the Keys table sorts, with TanStack Table: loaded after the first rows are on screen (use-keys-table), as
 * they come in the loaded order, unsorted. Sorting only: the cells are drawn by the table component itself (one
 * memoized row each), the columns shown are chosen and fitted in use-keys-table, and the status filter and its
 * counts are one pass over the keys (the table's filtering and faceting copy every row and give each a filter
 * state: 3 of 4 of its per-row memory with 10,000 keys loaded).
 */
const keysTableFeatures = tableFeatures({
  // Every input is given in full each time (the sort is the app's state), so a table is made per input and read once.
  coreReactivityFeature: storeReactivityBindings(),
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
});

const helper = createColumnHelper<typeof keysTableFeatures, Key>();

/** What the sort reads besides the keys: statuses and "expires" depend on the moment, usage on the window's totals. */
export interface SortInputs {
  now: number;
  /** The usage column sorts by the window's verifications, where known. */
  usageTotal: (keyId: string) => number | undefined;
}

/**
 * Column definitions for a moment `now`. Undefined values sort last in either direction: a key without a last
 * use is not "the oldest".
 */
function keyColumns({ now, usageTotal }: SortInputs) {
  return helper.columns([
    helper.accessor((key) => key.name, { id: "name", sortFn: "alphanumeric" }),
    helper.accessor((key) => key.keyId, { id: "keyId", sortFn: "alphanumeric" }),
    helper.accessor((key) => key.start, { id: "start", sortFn: "alphanumeric", sortUndefined: "last" }),
    // Sorted by how bad the worst status is.
    helper.accessor((key) => statusRank(key, now), { id: "status", sortFn: "basic" }),
    helper.accessor((key) => key.lastUsedAt, {
      id: "lastUsed",
      sortFn: "basic",
      sortUndefined: "last",
      sortDescFirst: true,
    }),
    helper.accessor((key) => usageTotal(key.keyId), {
      id: "usage",
      sortFn: "basic",
      sortUndefined: "last",
      sortDescFirst: true,
    }),
    helper.accessor(
      (key) => (key.credits === undefined ? undefined : (key.credits.remaining ?? Number.POSITIVE_INFINITY)),
      {
        id: "credits",
        sortFn: "basic",
        sortUndefined: "last",
      },
    ),
    helper.accessor((key) => key.identity?.externalId, {
      id: "externalId",
      sortFn: "alphanumeric",
      sortUndefined: "last",
    }),
    helper.accessor((key) => key.createdAt, {
      id: "createdAt",
      sortFn: "basic",
      sortUndefined: "last",
      sortDescFirst: true,
    }),
    helper.accessor((key) => key.expires, { id: "expires", sortFn: "basic", sortUndefined: "last" }),
  ]);
}

const SEVERITY = { expired: 5, disabled: 4, "no-credits": 3, expiring: 2, "low-credits": 1 } as const;

/** 0 for a key with nothing wrong, higher the worse its worst field status. */
function statusRank(key: Key, now: number): number {
  return Math.max(0, ...fieldStatuses(key, now).map((status) => SEVERITY[status]));
}

function keysTable(
  keys: readonly Key[],
  sorting: SortingState,
  inputs: SortInputs,
  onSortingChange?: (next: SortingState) => void,
) {
  return constructTable({
    features: keysTableFeatures,
    columns: keyColumns(inputs),
    data: keys,
    getRowId: (key) => key.keyId,
    state: { sorting },
    onSortingChange: (updater) => onSortingChange?.(functionalUpdate(updater, sorting)),
    enableSortingRemoval: true,
  });
}

/** The keys in the order `sorting` asks for. */
export function sortKeys(keys: readonly Key[], sorting: SortingState, inputs: SortInputs): readonly Key[] {
  if (sorting.length === 0) return keys;
  return keysTable(keys, sorting, inputs)
    .getRowModel()
    .rows.map((row) => row.original);
}

/**
 * The sort after a click on a column's header: its first direction, then the other, then none (with `multi`,
 * Shift held, added to the columns already sorted by). The first direction can depend on the keys' values.
 */
export function toggledSorting(
  keys: readonly Key[],
  sorting: SortingState,
  columnId: string,
  multi: boolean,
  inputs: SortInputs,
): SortingState {
  let next = sorting;
  keysTable(keys, sorting, inputs, (changed) => (next = changed))
    .getColumn(columnId)
    ?.getToggleSortingHandler()?.({ shiftKey: multi });
  return next;
}
