import { useCallback, useEffect } from "react";
import type { KeysPage } from "@/lib/api/list-keys";
import { filterKeys } from "../utils/key-view";
import type { KeyIdLookup } from "./use-key-id-lookup";
import type { KeysLoader } from "./use-keys-loader";

interface Options {
  /** The filter (trimmed; "" when none). */
  query: string;
  matchCount: number;
  hasNextPage: boolean;
  online: boolean;
  lookup: KeyIdLookup;
  loader: KeysLoader;
  /** The server is being asked for the text another way (an external id): wait for its answer first. */
  serverLookupPending?: boolean;
}

/**
 * A filter that finds nothing among the loaded keys keeps loading until it does, or the person stops it (14.8);
 * "Keep looking" resumes the loader with the same goal.
 */
export function useSearchUntilFound({
  query,
  matchCount,
  hasNextPage,
  online,
  lookup,
  loader,
  serverLookupPending = false,
}: Options) {
  const searchGoal = useCallback(
    (pages: readonly KeysPage[]) =>
      filterKeys(
        pages.flatMap((page) => page.keys),
        query,
      ).length > 0,
    [query],
  );
  const keepSearching =
    query !== "" &&
    matchCount === 0 &&
    hasNextPage &&
    loader.state.phase === "idle" &&
    online &&
    !lookup.pending &&
    !serverLookupPending &&
    !lookup.notFound &&
    lookup.settledWithoutAnswer;
  const { start } = loader;
  useEffect(() => {
    if (keepSearching) void start("search", searchGoal);
  }, [keepSearching, start, searchGoal]);
}
