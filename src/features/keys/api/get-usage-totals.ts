import { useQueries, type UseQueryResult } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { getVerifications } from "@/lib/api/get-verifications";
import type { Connection } from "@/lib/api/transport";
import { queryKeys } from "@/lib/query-keys";
import { usageTotalsChunks, usageTotalsFromRows, usageTotalsSql } from "../utils/usage";

/** One chunk of the loaded keys' ids: its 36-hour totals, cached by the chunk's ids (a fingerprint of them). */
export function usageTotalsQueryOptions(connection: Connection, ids: readonly string[]) {
  return {
    queryKey: queryKeys.keys.usageTotals(connection, ids),
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Map<string, number>> => {
      const { rows } = await getVerifications(connection, usageTotalsSql(ids), { signal });
      return usageTotalsFromRows(rows, ids);
    },
    staleTime: 60_000,
  };
}

export interface UsageTotals {
  /** What the usage column sorts by: undefined until every loaded key's total has come in once. */
  totals: ReadonlyMap<string, number> | undefined;
  /** How many of the loaded keys `totals` counts (fewer while newly loaded keys are fetched). */
  counted: number;
  /** How many keys are loaded (with an id the query can take). */
  loaded: number;
  fetching: boolean;
  error: Error | null;
  retry: () => void;
}

const NO_TOTALS: ReadonlyMap<string, number> = new Map();

interface Combined {
  merged: Map<string, number>;
  allHaveData: boolean;
  fetching: boolean;
  error: Error | null;
  retry: () => void;
}

function combine(results: UseQueryResult<Map<string, number>>[]): Combined {
  const merged = new Map<string, number>();
  for (const result of results) if (result.data) for (const [id, total] of result.data) merged.set(id, total);
  const failed = results.filter((result) => result.isError);
  return {
    merged,
    allHaveData: results.every((result) => result.data !== undefined),
    fetching: results.some((result) => result.isFetching),
    error: failed[0]?.error ?? null,
    retry: () => {
      for (const result of failed) void result.refetch();
    },
  };
}

/**
 * Every loaded key's verifications in the usage window, asked only while `enabled` (the table is sorted by
 * usage): a partial answer never sorts silently. Once a full set came in, newly loaded keys are fetched while
 * the others stay sorted, and `counted` says how many the order is based on.
 */
export function useUsageTotals(connection: Connection, keyIds: readonly string[], enabled: boolean): UsageTotals {
  const chunks = useMemo(() => (enabled ? usageTotalsChunks(keyIds) : []), [enabled, keyIds]);
  const combined = useQueries({
    queries: chunks.map((ids) => usageTotalsQueryOptions(connection, ids)),
    combine,
  });
  // The last full set since sorting by usage began, kept during render (not in an effect): while newly loaded
  // keys' totals are fetched, the keys counted before keep their order.
  const [lastFull, setLastFull] = useState<ReadonlyMap<string, number> | undefined>(undefined);
  if (lastFull !== undefined && !enabled) setLastFull(undefined);
  if (enabled && chunks.length > 0 && combined.allHaveData && lastFull !== combined.merged)
    setLastFull(combined.merged);
  const totals = useMemo(() => {
    if (!enabled) return undefined;
    // No loaded key has an id the query can take: nothing to ask, and nothing to sort by.
    if (chunks.length === 0) return NO_TOTALS;
    if (lastFull === undefined) return undefined;
    return combined.allHaveData ? combined.merged : new Map([...lastFull, ...combined.merged]);
  }, [enabled, chunks.length, lastFull, combined.allHaveData, combined.merged]);

  const loaded = chunks.reduce((sum, ids) => sum + ids.length, 0);
  const counted = useMemo(
    () => (totals === undefined ? 0 : chunks.reduce((sum, ids) => sum + ids.filter((id) => totals.has(id)).length, 0)),
    [totals, chunks],
  );
  return {
    totals,
    counted,
    loaded,
    fetching: combined.fetching,
    error: combined.error,
    retry: combined.retry,
  };
}
