import type { SortingState } from "@tanstack/table-core";
import { useMemo, useState } from "react";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { useUsageTotals } from "../api/get-usage-totals";

/** The table's sort. Sorting by usage asks for every loaded key's total (never sorts the rows in view alone). */
export function useKeysSorting(connection: Connection, keys: readonly Key[], usageAvailable: boolean) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const byUsage = usageAvailable && sorting.some((entry) => entry.id === "usage");
  const loadedIds = useMemo(() => keys.map((key) => key.keyId), [keys]);
  const usageTotals = useUsageTotals(connection, loadedIds, byUsage);
  return { sorting, setSorting, byUsage, usageTotals };
}
