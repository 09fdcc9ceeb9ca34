import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Connection } from "../../../lib/api/transport";
import { runAnalytics } from "../../../lib/analytics-query";
import { parseUsageRows, parseVerificationRows, type UsageRow, type Verification } from "../../../lib/analytics-rows";
import { REFUSALS_PAGE_SIZE, refusalsQuery, usageQuery, type UsageWindow } from "../../../lib/analytics-sql";
import { connectionScope } from "./get-key";

export function usageQueryOptions(connection: Connection, keyId: string, window: UsageWindow) {
  return queryOptions({
    queryKey: ["analytics", "usage", { ...connectionScope(connection), keyId, window }] as const,
    queryFn: ({ signal }): Promise<UsageRow[]> => runAnalytics(connection, usageQuery(keyId, window), parseUsageRows, { signal }),
  });
}

/** A key's verifications per hour or day by outcome; a failure stays on the query, shown where the chart would be. */
export function useKeyUsage(connection: Connection, keyId: string, window: UsageWindow, enabled = true) {
  return useQuery({ ...usageQueryOptions(connection, keyId, window), enabled });
}

export interface RefusalsPage {
  items: Verification[];
  nextOffset: number | undefined;
}

export function refusalsQueryOptions(connection: Connection, keyId: string, tagLiteral: string | undefined) {
  return infiniteQueryOptions({
    queryKey: ["analytics", "refusals", { ...connectionScope(connection), keyId, tag: tagLiteral ?? null }] as const,
    queryFn: async ({ pageParam, signal }): Promise<RefusalsPage> => {
      const rows = await runAnalytics(connection, refusalsQuery(keyId, { offset: pageParam, tagLiteral }), parseVerificationRows, { signal });
      return {
        items: rows.slice(0, REFUSALS_PAGE_SIZE),
        nextOffset: rows.length > REFUSALS_PAGE_SIZE ? pageParam + REFUSALS_PAGE_SIZE : undefined,
      };
    },
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset,
  });
}

/** A key's refused verifications, newest first, a page at a time. */
export function useRefusals(connection: Connection, keyId: string, tagLiteral: string | undefined, enabled = true) {
  return useInfiniteQuery({ ...refusalsQueryOptions(connection, keyId, tagLiteral), enabled });
}
