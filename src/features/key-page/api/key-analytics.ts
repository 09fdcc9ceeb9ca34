import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Connection } from "@/lib/api/transport";
import { runAnalytics } from "@/lib/analytics-query";
import { parseUsageRows, parseVerificationRows, type UsageRow, type Verification } from "@/lib/analytics-rows";
import {
  cursorPage,
  REFUSALS_PAGE_SIZE,
  refusalsQuery,
  usageQuery,
  type CursorPage,
  type RefusalsCursor,
  type UsageWindow,
} from "@/lib/analytics-sql";
import { queryKeys } from "@/lib/query-keys";

export function usageQueryOptions(connection: Connection, keyId: string, window: UsageWindow) {
  return queryOptions({
    queryKey: queryKeys.analytics.usage(connection, keyId, window),
    queryFn: ({ signal }): Promise<UsageRow[]> =>
      runAnalytics(connection, usageQuery(keyId, window), parseUsageRows, { signal }),
  });
}

/** A key's verifications per hour or day by outcome; a failure stays on the query, shown where the chart would be. */
export function useKeyUsage(connection: Connection, keyId: string, window: UsageWindow, enabled = true) {
  return useQuery({ ...usageQueryOptions(connection, keyId, window), enabled });
}

export type RefusalsPage = CursorPage<Verification>;

export function refusalsQueryOptions(connection: Connection, keyId: string, tagLiteral: string | undefined) {
  return infiniteQueryOptions({
    queryKey: queryKeys.analytics.refusals(connection, keyId, tagLiteral ?? null),
    queryFn: async ({ pageParam, signal }): Promise<RefusalsPage> => {
      const rows = await runAnalytics(
        connection,
        refusalsQuery(keyId, { after: pageParam ?? undefined, tagLiteral }),
        parseVerificationRows,
        { signal },
      );
      return cursorPage(rows, REFUSALS_PAGE_SIZE);
    },
    initialPageParam: null as RefusalsCursor | null,
    getNextPageParam: (last) => last.next,
  });
}

/** A key's refused verifications, newest first, a page at a time. */
export function useRefusals(connection: Connection, keyId: string, tagLiteral: string | undefined, enabled = true) {
  return useInfiniteQuery({ ...refusalsQueryOptions(connection, keyId, tagLiteral), enabled });
}
