import {
  columnVisibilityFeature,
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
} from "@tanstack/react-table";
import type { Key } from "../../../lib/contract";
import { fieldStatuses } from "../utils/key-status";

/**
 * The Keys table's columns for TanStack Table: what each sorts by. The cells are drawn by the table component
 * itself (one memoized row each), so scrolling 100,000 keys renders only the rows in view.
 * Sorting and visibility only: the status filter and its counts are one pass over the keys (use-keys-table),
 * because the table's filtering and faceting copy every row and give each a filter state (3 of 4 of its
 * per-row memory with 10,000 keys loaded).
 */
export const keysTableFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
  columnVisibilityFeature,
});

const helper = createColumnHelper<typeof keysTableFeatures, Key>();

/**
 * Column definitions for a moment `now` (statuses and "expires" depend on it). Undefined values sort last in
 * either direction: a key without a last use is not "the oldest".
 * `usageTotal` sorts the usage column by the window's verifications, where known.
 */
export function keyColumns(now: number, usageTotal: (keyId: string) => number | undefined) {
  return helper.columns([
    helper.accessor((key) => key.name, { id: "name", sortFn: "alphanumeric" }),
    helper.accessor((key) => key.keyId, { id: "keyId", sortFn: "alphanumeric" }),
    helper.accessor((key) => key.start, { id: "start", sortFn: "alphanumeric", sortUndefined: "last" }),
    // Sorted by how bad the worst status is.
    helper.accessor((key) => statusRank(key, now), { id: "status", sortFn: "basic" }),
    helper.accessor((key) => key.lastUsedAt, { id: "lastUsed", sortFn: "basic", sortUndefined: "last", sortDescFirst: true }),
    helper.accessor((key) => usageTotal(key.keyId), { id: "usage", sortFn: "basic", sortUndefined: "last", sortDescFirst: true }),
    helper.accessor((key) => (key.credits === undefined ? undefined : (key.credits.remaining ?? Number.POSITIVE_INFINITY)), {
      id: "credits",
      sortFn: "basic",
      sortUndefined: "last",
    }),
    helper.accessor((key) => key.identity?.externalId, { id: "externalId", sortFn: "alphanumeric", sortUndefined: "last" }),
    helper.accessor((key) => key.createdAt, { id: "createdAt", sortFn: "basic", sortUndefined: "last", sortDescFirst: true }),
    helper.accessor((key) => key.expires, { id: "expires", sortFn: "basic", sortUndefined: "last" }),
  ]);
}

const SEVERITY = { expired: 5, disabled: 4, "no-credits": 3, expiring: 2, "low-credits": 1 } as const;

/** 0 for a key with nothing wrong, higher the worse its worst field status. */
function statusRank(key: Key, now: number): number {
  return Math.max(0, ...fieldStatuses(key, now).map((status) => SEVERITY[status]));
}
