import {
  columnVisibilityFeature,
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
} from "@tanstack/react-table";
import type { Key } from "../../lib/contract";
import { fieldStatuses } from "./key-status";

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

export type ColumnId =
  | "name"
  | "keyId"
  | "start"
  | "status"
  | "lastUsed"
  | "usage"
  | "credits"
  | "externalId"
  | "createdAt"
  | "expires";

export interface ColumnSpec {
  label: string;
  width: string;
  minWidth: number;
  /** Whether a key carries what the column shows; a column no loaded key has a value for is not offered. */
  present?: (key: Key) => boolean;
  /** Off until the person turns it on. */
  hiddenByDefault?: boolean;
}

export const COLUMN_SPECS: Record<ColumnId, ColumnSpec> = {
  name: { label: "Name", width: "minmax(180px, 1.4fr)", minWidth: 180 },
  keyId: { label: "Key ID", width: "minmax(210px, 1fr)", minWidth: 210 },
  start: { label: "Prefix", width: "minmax(120px, 0.6fr)", minWidth: 120, present: (key) => key.start !== undefined, hiddenByDefault: true },
  status: {
    label: "Status",
    // "Expires within 24 h", the longest badge, on one line.
    width: "minmax(190px, 1fr)",
    minWidth: 190,
    present: (key) => key.enabled !== undefined || key.expires !== undefined || key.credits !== undefined,
  },
  lastUsed: { label: "Last used", width: "minmax(130px, 0.7fr)", minWidth: 130, present: (key) => key.lastUsedAt !== undefined || key.createdAt !== undefined },
  usage: { label: "Usage, 36 h", width: "minmax(150px, 0.7fr)", minWidth: 150 },
  credits: { label: "Credits", width: "minmax(100px, 0.5fr)", minWidth: 100, present: (key) => key.credits !== undefined },
  externalId: { label: "External ID", width: "minmax(140px, 0.7fr)", minWidth: 140, present: (key) => key.identity !== undefined },
  createdAt: { label: "Created", width: "minmax(120px, 0.6fr)", minWidth: 120, present: (key) => key.createdAt !== undefined, hiddenByDefault: true },
  expires: { label: "Expires", width: "minmax(120px, 0.6fr)", minWidth: 120, present: (key) => key.expires !== undefined },
};

export const COLUMN_ORDER: readonly ColumnId[] = [
  "name",
  "keyId",
  "status",
  "lastUsed",
  "usage",
  "credits",
  "externalId",
  "start",
  "createdAt",
  "expires",
];

/** Columns that cannot be hidden: a row must always say which key it is. */
export const ALWAYS_SHOWN: ReadonlySet<ColumnId> = new Set(["name"]);

/** The columns whose field at least one key carries (name, id and usage always). */
export function presentColumns(keys: readonly Key[]): Set<ColumnId> {
  const present = new Set<ColumnId>(["name", "keyId", "usage"]);
  const pending = COLUMN_ORDER.filter((id) => !present.has(id));
  for (const key of keys) {
    for (const id of pending) if (!present.has(id) && COLUMN_SPECS[id].present?.(key)) present.add(id);
    if (present.size === COLUMN_ORDER.length) break;
  }
  return present;
}

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
