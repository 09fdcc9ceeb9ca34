import {
  functionalUpdate,
  useTable,
  type ColumnFiltersState,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { readColumnVisibility, saveColumnVisibility, type ColumnVisibility } from "./column-preferences";
import { COLUMN_ORDER, COLUMN_SPECS, keyColumns, keysTableFeatures, presentColumns } from "./key-columns";
import type { Key } from "../../lib/contract";
import type { StatusFacet } from "./key-status";

const DEFAULT_VISIBILITY: ColumnVisibility = Object.fromEntries(
  COLUMN_ORDER.filter((id) => COLUMN_SPECS[id].hiddenByDefault).map((id) => [id, false]),
);

interface Options {
  now: number;
  /** The usage column sorts by this, where known. */
  usageTotal: (keyId: string) => number | undefined;
  /** False when the root key may not read analytics: the usage column gives way to a notice. */
  usageAvailable: boolean;
}

/**
 * The Keys table's model: sorting, the status filter with its counts, and the columns shown (the person's
 * choice, remembered, among the columns whose field some key carries).
 */
export function useKeysTable(keys: readonly Key[], { now, usageTotal, usageAvailable }: Options) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [statusFilter, setStatusFilter] = useState<StatusFacet[]>([]);
  const columnFilters = useMemo<ColumnFiltersState>(
    () => (statusFilter.length === 0 ? [] : [{ id: "status", value: statusFilter }]),
    [statusFilter],
  );
  const [chosen, setChosen] = useState<ColumnVisibility>(() => ({ ...DEFAULT_VISIBILITY, ...readColumnVisibility() }));

  const columns = useMemo(() => keyColumns(now, usageTotal), [now, usageTotal]);
  const present = useMemo(() => presentColumns(keys), [keys]);
  const offered = useMemo(
    () => COLUMN_ORDER.filter((id) => present.has(id) && (id !== "usage" || usageAvailable)),
    [present, usageAvailable],
  );
  const columnVisibility = useMemo(
    () => Object.fromEntries(COLUMN_ORDER.map((id) => [id, offered.includes(id) && chosen[id] !== false])),
    [offered, chosen],
  );

  const table = useTable({
    features: keysTableFeatures,
    columns,
    data: keys,
    getRowId: (key) => key.keyId,
    state: { sorting, columnFilters, columnVisibility },
    onSortingChange: setSorting,
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
    visibleColumns: offered.filter((id) => columnVisibility[id]),
    statusFilter,
    setStatusFilter,
  };
}

export type KeysTableModel = ReturnType<typeof useKeysTable>;
