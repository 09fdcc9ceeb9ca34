import type { KeysLoader } from "./use-keys-loader";

interface Options {
  loader: KeysLoader;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** The last page asked for failed: its notice's Retry says when to ask again. */
  nextPageFailed: boolean;
  filtering: boolean;
  online: boolean;
  /** Seconds before the API may be asked again, or null. */
  waitSeconds: number | null;
  /** Offline: remember to refresh once the connection is back. */
  queueUntilOnline: () => void;
}

/** "Load more": by the button, and by scrolling to the end. */
export function useLoadMore({
  loader,
  hasNextPage,
  isFetchingNextPage,
  nextPageFailed,
  filtering,
  online,
  waitSeconds,
  queueUntilOnline,
}: Options) {
  const { state } = loader;
  const loading = state.phase === "loading" || state.phase === "rate-limited" || state.phase === "offline";
  const canLoad = hasNextPage && online && waitSeconds === null;
  const loadMore = () => {
    if (!online) {
      queueUntilOnline();
      return;
    }
    if (canLoad && !isFetchingNextPage && !loading) void loader.start("more");
  };
  return {
    loadMore,
    /** A load of pages is under way, or waits for the API or the connection. */
    loading,
    busy: isFetchingNextPage || loading,
    canLoad,
    // Scrolling to the end loads on its own, except while filtering (the search does that), while a page load
    // failed (the notice's Retry says when) or while a load is already under way.
    autoLoad: !filtering && !nextPageFailed && !loading && canLoad ? loadMore : undefined,
  };
}
