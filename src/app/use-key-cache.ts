import { useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import type { KeysPage } from "../lib/api/list-keys";
import type { Connection } from "../lib/api/transport";
import type { Key } from "../lib/contract";
import { keyQueryOptions } from "../features/key-insight/api/get-key";
import type { KeyCache } from "../features/key-actions/key-cache";

/** Every loaded keys list (any filter) of this query client: the list queries' keys start with these two. */
const LIST_PREFIX = ["keys", "list"] as const;

type Pages = InfiniteData<KeysPage>;

function mapListKeys(queryClient: QueryClient, change: (keys: Key[], pageIndex: number) => Key[]): void {
  queryClient.setQueriesData<Pages>({ queryKey: LIST_PREFIX }, (data) =>
    data === undefined ? data : { ...data, pages: data.pages.map((page, index) => ({ ...page, keys: change(page.keys, index) })) },
  );
}

/**
 * The key actions' view of the caches, composed here because the keys list and the key's page belong to other
 * features: a change shows in both at once, the key's page reloads what the service says after it.
 */
export function useKeyCache(connection: Connection): KeyCache {
  const queryClient = useQueryClient();
  return useMemo((): KeyCache => {
    const keyQuery = (keyId: string) => keyQueryOptions(connection, keyId);
    const patchEverywhere = (keyId: string, patch: (key: Key) => Key) => {
      queryClient.setQueryData(keyQuery(keyId).queryKey, (key) => (key === undefined ? key : patch(key)));
      mapListKeys(queryClient, (keys) => keys.map((key) => (key.keyId === keyId ? patch(key) : key)));
    };
    return {
      patchKey: (keyId, patch) => {
        const before = queryClient.getQueryData(keyQuery(keyId).queryKey);
        const listsBefore = queryClient.getQueriesData<Pages>({ queryKey: LIST_PREFIX });
        patchEverywhere(keyId, (key) => ({ ...key, ...patch }));
        return () => {
          if (before !== undefined) queryClient.setQueryData(keyQuery(keyId).queryKey, before);
          for (const [queryKey, data] of listsBefore) queryClient.setQueryData(queryKey, data);
        };
      },
      refreshKey: async (keyId) => {
        try {
          const fresh = await queryClient.fetchQuery({ ...keyQuery(keyId), staleTime: 0 });
          patchEverywhere(keyId, () => fresh);
        } catch {
          // The key's page shows its own failure when it reloads; a list keeps what it showed.
        }
      },
      keyCreated: async (keyId) => {
        const created = await queryClient.fetchQuery({ ...keyQuery(keyId), staleTime: 0 }).catch(() => ({ keyId }) satisfies Key);
        mapListKeys(queryClient, (keys, pageIndex) => (pageIndex === 0 && !keys.some((key) => key.keyId === keyId) ? [created, ...keys] : keys));
      },
      keyDeleted: (keyId) => {
        queryClient.removeQueries({ queryKey: keyQuery(keyId).queryKey });
        mapListKeys(queryClient, (keys) => keys.filter((key) => key.keyId !== keyId));
      },
    };
  }, [connection, queryClient]);
}
