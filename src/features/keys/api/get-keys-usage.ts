import { keepPreviousData, useQuery, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { getVerifications } from "@/lib/api/get-verifications";
import type { Connection } from "@/lib/api/transport";
import { ApiError } from "@/lib/api-errors";
import { queryKeys } from "@/lib/query-keys";
import type { UsageTotals } from "../utils/key-status";
import { usageFromRows, usageQueryIds, usageSql, type KeyUsage } from "../utils/usage";

/** One analytics query for a set of keys (the rows in view), cached per set: scrolling back asks nothing again. */
export function keysUsageQueryOptions(connection: Connection, keyIds: readonly string[]) {
  const ids = usageQueryIds(keyIds);
  return {
    queryKey: queryKeys.keys.usage(connection, ids),
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Map<string, KeyUsage>> => {
      const { rows } = await getVerifications(connection, usageSql(ids), { signal });
      return usageFromRows(rows, ids, Date.now());
    },
    enabled: ids.length > 0,
    staleTime: 60_000,
    // Each place scrolling settles at is its own answer: one left behind goes a minute later, not after five,
    // so scrolling through 10,000 keys does not keep every bar of them.
    gcTime: 60_000,
  };
}

/** A 403: the root key may list keys but not read analytics. Shown once, in place of the usage column. */
export function isAnalyticsForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/** The usage of the keys in view; the previous answer stays while the next set loads. Never thrown. */
export function useKeysUsage(connection: Connection, keyIds: readonly string[]) {
  return useQuery({
    ...keysUsageQueryOptions(connection, keyIds),
    placeholderData: keepPreviousData,
    throwOnError: false,
  });
}

/**
 * Every key's usage totals the cache holds for this connection (the rows that have been in view), the newest
 * answer first: what the table's statuses were drawn from.
 */
export function cachedUsageTotals(
  queryClient: QueryClient,
  connection: Connection,
): (keyId: string) => UsageTotals | undefined {
  const updatedAt = (key: QueryKey) => queryClient.getQueryState(key)?.dataUpdatedAt ?? 0;
  const answers = queryClient
    .getQueriesData<Map<string, KeyUsage>>({ queryKey: queryKeys.keys.usages(connection) })
    .sort(([a], [b]) => updatedAt(b) - updatedAt(a))
    .flatMap(([, usage]) => (usage === undefined ? [] : [usage]));
  return (keyId) => answers.find((usage) => usage.has(keyId))?.get(keyId)?.totals;
}
