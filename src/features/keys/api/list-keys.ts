import { infiniteQueryOptions, useSuspenseInfiniteQuery } from "@tanstack/react-query";
import { listKeys, type Connection, type KeysPage } from "../../../lib/api-client";
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
  return ["keys", "list", { baseUrl: connection.baseUrl, keyFingerprint: fingerprint(connection.apiKey), ...params }] as const;
}

export function listKeysInfiniteQueryOptions(connection: Connection, params: ListKeysParams = {}) {
  return infiniteQueryOptions({
    queryKey: listKeysQueryKey(connection, params),
    queryFn: ({ pageParam, signal }) => fetchKeysPage(connection, params, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => (lastPage.hasMore && lastPage.cursor !== undefined ? lastPage.cursor : undefined),
  });
}

/** The pages of keys loaded so far; suspends while the first loads and throws its error to the nearest boundary. */
export function useListKeys(connection: Connection, params: ListKeysParams = {}) {
  return useSuspenseInfiniteQuery(listKeysInfiniteQueryOptions(connection, params));
}
