import { useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import type { KeysPage, ListKeysParams } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { useBackOnline } from "@/lib/hooks/use-back-online";
import { queryKeys } from "@/lib/query-keys";
import type { KeysLoader } from "./use-keys-loader";

interface Options {
  connection: Connection;
  params: ListKeysParams;
  refetch: () => Promise<{ isError: boolean }>;
  loader: KeysLoader;
  online: boolean;
}

/** What a refresh loads again after the first page: as many pages as were loaded, or every page when all were. */
interface ReloadTarget {
  pages: number;
  keys: number;
  all: boolean;
}

/**
 * Refresh, and what waits for it. The first page is asked again at once; when more were loaded (a "Load all
 * keys", a long scroll), the loader then loads again as many pages as there were, paced by the rate limit, with
 * progress and a way to stop (#28.6): the sort and what the person loaded stay. Offline, a refresh (or a page) is
 * queued until the connection is back, when the list refreshes by itself since it may have changed meanwhile. A
 * load that waited for the connection goes on by itself instead.
 */
export function useRefreshKeys({ connection, params, refetch, loader, online }: Options) {
  const queryClient = useQueryClient();
  const [queued, setQueued] = useState(false);
  // Changes with every refresh: the table scrolls back to the top.
  const [scrollResetKey, setScrollResetKey] = useState(0);
  // Kept until the first page is in: a refresh retried after its first page failed still reloads them all.
  const target = useRef<ReloadTarget | null>(null);
  // The reload under way: a refresh pressed again before it ends still reloads what was loaded before it.
  const underWay = useRef<ReloadTarget | null>(null);
  const [reloading, setReloading] = useState(0);
  const { reset: resetLoading, start, state: loadState } = loader;

  const refresh = useCallback(() => {
    if (!navigator.onLine) {
      setQueued(true);
      return;
    }
    const unfinished =
      loadState.phase !== "idle" &&
      loadState.purpose === "refresh" &&
      loadState.phase !== "done" &&
      loadState.phase !== "stopped";
    resetLoading();
    const queryKey = queryKeys.keys.list(connection, params);
    const current = queryClient.getQueryData<InfiniteData<KeysPage, unknown>>(queryKey);
    const loadedNow: ReloadTarget | null =
      current !== undefined && current.pages.length > 1
        ? {
            pages: current.pages.length,
            keys: current.pages.reduce((sum, page) => sum + page.keys.length, 0),
            all: current.pages.at(-1)?.hasMore === false,
          }
        : null;
    target.current = [loadedNow, target.current, unfinished ? underWay.current : null].reduce(larger, null);
    if (current !== undefined && current.pages.length > 1) {
      // The pages after the first are asked again one after another, by the loader, not all at once by refetch.
      queryClient.setQueryData<InfiniteData<KeysPage, unknown>>(queryKey, {
        pages: current.pages.slice(0, 1),
        pageParams: current.pageParams.slice(0, 1),
      });
    }
    setScrollResetKey((count) => count + 1);
    void refetch().then((result) => {
      const reload = target.current;
      if (reload === null || result.isError) return;
      target.current = null;
      underWay.current = reload;
      setReloading(reload.keys);
      void start("refresh", reload.all ? undefined : (pages) => pages.length >= reload.pages);
    });
  }, [connection, params, queryClient, refetch, resetLoading, start, loadState]);

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
    /** How many keys the last refresh loads again (for its progress). */
    reloading,
  };
}

function larger(a: ReloadTarget | null, b: ReloadTarget | null): ReloadTarget | null {
  if (a === null || b === null) return a ?? b;
  if (a.all !== b.all) return a.all ? a : b;
  return a.pages >= b.pages ? a : b;
}
