import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { adoptFirstRequest } from "@/lib/api/first-request";
import { listKeys, type KeysPage, type ListKeysParams } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { ApiError } from "@/lib/api-errors";
import { queryKeys } from "@/lib/query-keys";

export function fetchKeysPage(
  connection: Connection,
  params: ListKeysParams,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<KeysPage> {
  // The first page may already be on its way: started by the page's first module, adopted when it is this very request.
  return listKeys(
    connection,
    { ...params, cursor },
    { signal, ...(cursor === undefined && { fetch: adoptFirstRequest }) },
  );
}

export function listKeysInfiniteQueryOptions(connection: Connection, params: ListKeysParams = {}) {
  return infiniteQueryOptions({
    queryKey: queryKeys.keys.list(connection, params),
    queryFn: ({ pageParam, signal }) => fetchKeysPage(connection, params, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => (lastPage.hasMore && lastPage.cursor !== undefined ? lastPage.cursor : undefined),
    // Offline, a request fails at once with a NetworkError the list shows, instead of waiting unseen for the
    // connection; the list itself refreshes when the connection is back, the first page only (issue 14.7).
    networkMode: "always",
    refetchOnReconnect: false,
  });
}

/**
 * The key itself no longer works (unknown or revoked, disabled, or no longer allowed to list): the keys loaded
 * before are not current any more and must not stay listed, nor be exported, as if they were.
 */
export function isKeyRefused(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/**
 * The pages of keys loaded so far (no data while the first loads); a first page that fails is thrown to the
 * nearest error boundary, and so is a refusal of the key itself; any other later failure stays on the query for
 * the list to show beside the loaded keys.
 * Not a suspense query: React holds back content that replaces a Suspense fallback for up to 300 ms, which
 * was most of the time to the first key row.
 */
export function useListKeys(connection: Connection, params: ListKeysParams = {}) {
  return useInfiniteQuery({
    ...listKeysInfiniteQueryOptions(connection, params),
    throwOnError: (error, query) => query.state.data === undefined || isKeyRefused(error),
  });
}
