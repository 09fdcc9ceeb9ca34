import { useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { KeysPage } from "../../../lib/api/list-keys";
import type { Connection } from "../../../lib/api/transport";
import { useBackOnline } from "../../../lib/hooks/use-back-online";
import { listKeysQueryKey, type ListKeysParams } from "../api/list-keys";
import type { KeysLoader } from "./use-keys-loader";

interface Options {
  connection: Connection;
  params: ListKeysParams;
  refetch: () => Promise<unknown>;
  loader: KeysLoader;
  online: boolean;
}

/**
 * Refresh, and what waits for it: offline, a refresh (or a page) is queued until the connection is back, when
 * the list refreshes by itself since it may have changed meanwhile. A load that waited for the connection goes on
 * by itself instead.
 */
export function useRefreshKeys({ connection, params, refetch, loader, online }: Options) {
  const queryClient = useQueryClient();
  const [queued, setQueued] = useState(false);
  // Changes with every refresh: the table scrolls back to the top.
  const [scrollResetKey, setScrollResetKey] = useState(0);
  const { reset: resetLoading } = loader;

  const refresh = useCallback(() => {
    if (!navigator.onLine) {
      setQueued(true);
      return;
    }
    resetLoading();
    // Only the first page is asked again; the pages after it load again as they are scrolled to (issue 14.6).
    queryClient.setQueryData<InfiniteData<KeysPage, unknown>>(listKeysQueryKey(connection, params), (current) =>
      current === undefined || current.pages.length <= 1
        ? current
        : { pages: current.pages.slice(0, 1), pageParams: current.pageParams.slice(0, 1) },
    );
    setScrollResetKey((count) => count + 1);
    void refetch();
  }, [connection, params, queryClient, refetch, resetLoading]);

  useBackOnline(online, () => {
    setQueued(false);
    if (loader.state.phase !== "offline") refresh();
  });

  return {
    refresh,
    /** A refresh waits for the connection. */
    queued,
    /** Offline: refresh as soon as the connection is back. */
    queueUntilOnline: useCallback(() => setQueued(true), []),
    scrollResetKey,
  };
}
