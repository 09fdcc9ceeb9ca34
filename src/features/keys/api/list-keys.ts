import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { listKeys, type KeysPage } from "../../../lib/api/list-keys";
import type { Connection } from "../../../lib/api/transport";
import type { ListKeysRequest } from "../../../lib/contract";
import { fingerprint } from "../../../lib/fingerprint";

/** What the keys list asks for besides the page cursor. */
export type ListKeysParams = Omit<ListKeysRequest, "cursor">;

export function fetchKeysPage(
  connection: Connection,
  params: ListKeysParams,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<KeysPage> {
  return listKeys(connection, { ...params, cursor }, { signal });
}

/**
 * Everything the query reads is in its key, the API key only as a fingerprint: the key itself never
 * reaches the cache, devtools or an error report.
 */
export function listKeysQueryKey(connection: Connection, params: ListKeysParams) {
  return [
    "keys",
    "list",
    { baseUrl: connection.baseUrl, apiId: connection.apiId ?? null, keyFingerprint: fingerprint(connection.apiKey), ...params },
  ] as const;
}

export function listKeysInfiniteQueryOptions(connection: Connection, params: ListKeysParams = {}) {
  return infiniteQueryOptions({
    queryKey: listKeysQueryKey(connection, params),
    queryFn: ({ pageParam, signal }) => fetchKeysPage(connection, params, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => (lastPage.hasMore && lastPage.cursor !== undefined ? lastPage.cursor : undefined),
  });
}

/**
 * The pages of keys loaded so far (no data while the first loads); a first page that fails is thrown to the
 * nearest error boundary, a later failure stays on the query for the list to show beside the loaded keys.
 * Not a suspense query: React holds back content that replaces a Suspense fallback for up to 300 ms, which
 * was most of the time to the first key row.
 */
export function useListKeys(connection: Connection, params: ListKeysParams = {}) {
  return useInfiniteQuery({
    ...listKeysInfiniteQueryOptions(connection, params),
    throwOnError: (_error, query) => query.state.data === undefined,
  });
}
