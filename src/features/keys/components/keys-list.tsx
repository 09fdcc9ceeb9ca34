import { useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { SortingState } from "@tanstack/react-table";
import { useCallback, useDeferredValue, useEffect, useEffectEvent, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { CopyButton } from "../../../components/copy-button";
import { Spinner } from "../../../components/spinner";
import type { KeysPage } from "../../../lib/api/list-keys";
import type { Connection } from "../../../lib/api/transport";
import { ApiError } from "../../../lib/api-errors";
import { useSecondsUntil } from "../../../lib/use-seconds-until";
import { isKeyNotFound, lookupUnavailable, useKeyLookup } from "../api/get-key";
import { createRootKeyCommand, READ_ANALYTICS_PERMISSION, READ_KEYS_PERMISSION } from "../../../lib/contract";
import { isAnalyticsForbidden, useKeysUsage } from "../api/get-keys-usage";
import { useUsageTotals } from "../api/get-usage-totals";
import { listKeysQueryKey, useListKeys, type ListKeysParams } from "../api/list-keys";
import type { Key } from "../../../lib/contract";
import { formatCount } from "../../../lib/format-number";
import { countText, exactKeyId, filterKeys } from "../key-view";
import { useKeysLoader } from "../use-keys-loader";
import { useElementWidth } from "../use-element-width";
import { useKeysTable } from "../use-keys-table";
import { COMPACT_QUERY, estimatedListWidth, ROW_HEIGHT } from "../keys-layout";
import { useMediaQuery } from "../use-media-query";
import { useNow } from "../use-now";
import { useOnline } from "../use-online";
import { ColumnPicker } from "./column-picker";
import { ExportPanel } from "./export-panel";
import { KeysTable } from "./keys-table";
import { LoadProgress } from "./load-progress";
import { StatusFilter } from "./status-filter";
import { UsageSortNote } from "./usage-sort-note";
import "./keys.css";

export interface RefreshErrorProps {
  error: unknown;
  /** What failed: reloading the first page, or loading the next one. */
  action: "refresh" | "load-more";
  onRetry: () => void;
}

interface KeysListProps {
  connection: Connection;
  params?: ListKeysParams;
  /** How a failed refresh or "load more" is shown while the loaded keys stay on screen. */
  renderRefreshError: (props: RefreshErrorProps) => ReactNode;
}

const CREATE_KEY_COMMAND = 'npm run admin -- keys create --name "Checkout service"';

type KeysQuery = ReturnType<typeof useListKeys>;
type KeysData = InfiniteData<KeysPage, unknown>;

/** The keys the connection can read: filter, count, refresh, the virtualized table and paging. A skeleton while loading. */
export function KeysList(props: KeysListProps) {
  const query = useListKeys(props.connection, props.params);
  if (query.data === undefined) return <KeysListSkeleton />;
  return <KeysListContent {...props} query={query} data={query.data} />;
}

interface KeysListContentProps extends KeysListProps {
  query: KeysQuery;
  data: KeysData;
}

const ANALYTICS_ROOT_KEY_COMMAND = createRootKeyCommand({ name: "keyscope", permissions: [READ_KEYS_PERMISSION, READ_ANALYTICS_PERMISSION] });

function KeysListContent({ connection, params, query, data, renderRefreshError }: KeysListContentProps) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = query;
  const queryClient = useQueryClient();
  const online = useOnline();
  const loader = useKeysLoader(fetchNextPage);
  const { start: startLoading, reset: resetLoading } = loader;
  const [filter, setFilter] = useState("");
  // Typing stays instant with 100,000 keys loaded: the list catches up a frame later.
  const deferredFilter = useDeferredValue(filter);
  const now = useNow();
  const filterId = useId();
  const [scrollResetKey, setScrollResetKey] = useState(0);
  const [refreshQueued, setRefreshQueued] = useState(false);

  const keys = useMemo(() => uniqueKeys(data.pages.flatMap((page) => page.keys)), [data]);
  const loadedMatches = useMemo(() => filterKeys(keys, deferredFilter), [keys, deferredFilter]);

  // An exact key id not among the loaded keys is asked for directly (keys.getKey), not searched page by page.
  const typedId = exactKeyId(deferredFilter);
  const lookupId = typedId !== null && loadedMatches.length === 0 ? typedId : null;
  const lookup = useKeyLookup(connection, lookupId);
  const foundKey = lookupId !== null && lookup.data?.keyId === lookupId ? lookup.data : undefined;
  const lookupNotFound = lookupId !== null && isKeyNotFound(lookup.error);
  const matching = useMemo(() => (foundKey === undefined ? loadedMatches : [foundKey]), [foundKey, loadedMatches]);

  // Usage: one analytics query for the rows in view, asked once they are painted and scrolling has settled.
  const [keysInView, setKeysInView] = useState<readonly string[]>([]);
  const onKeysInView = useCallback(
    (ids: readonly string[]) => setKeysInView((previous) => (previous.join(" ") === ids.join(" ") ? previous : ids)),
    [],
  );
  const usage = useKeysUsage(connection, keysInView);
  const usageForbidden = isAnalyticsForbidden(usage.error);
  // Sorting by usage asks for every loaded key's total (never sorts the rows in view alone).
  const [sorting, setSorting] = useState<SortingState>([]);
  const sortingByUsage = !usageForbidden && sorting.some((entry) => entry.id === "usage");
  const loadedIds = useMemo(() => keys.map((key) => key.keyId), [keys]);
  const usageTotals = useUsageTotals(connection, loadedIds, sortingByUsage);
  const compact = useMediaQuery(COMPACT_QUERY);
  const [measureRef, width] = useElementWidth<HTMLDivElement>(() => estimatedListWidth(compact));
  const model = useKeysTable(matching, {
    now,
    usageTotals: usageTotals.totals,
    usageAvailable: !usageForbidden,
    sorting,
    onSortingChange: setSorting,
    width,
    compact,
  });
  const shown = model.table.getRowModel().rows;
  const filtering = deferredFilter.trim() !== "";
  const narrowed = filtering || model.statusFilter.length > 0;

  // A spent rate limit: nothing may be asked of the API before Retry-After, neither a refresh nor a page.
  const { state } = loader;
  const rateLimitedUntil =
    state.phase === "rate-limited"
      ? state.until
      : query.error instanceof ApiError && query.error.status === 429
        ? query.error.retryAt
        : null;
  const secondsLeft = useSecondsUntil(rateLimitedUntil);
  const waitingForRateLimit = secondsLeft !== null && secondsLeft > 0;
  const loading = state.phase === "loading" || state.phase === "rate-limited" || state.phase === "offline";

  const refresh = useCallback(() => {
    if (!navigator.onLine) {
      setRefreshQueued(true);
      return;
    }
    resetLoading();
    // Only the first page is asked again; the pages after it load again as they are scrolled to (issue 14.6).
    queryClient.setQueryData<KeysData>(listKeysQueryKey(connection, params ?? {}), (current) =>
      current === undefined || current.pages.length <= 1
        ? current
        : { pages: current.pages.slice(0, 1), pageParams: current.pageParams.slice(0, 1) },
    );
    setScrollResetKey((count) => count + 1);
    void refetch();
  }, [connection, params, queryClient, refetch, resetLoading]);

  // Back online: the list may have changed meanwhile. A load that waited for the connection goes on by itself.
  const onReconnect = useEffectEvent(() => {
    setRefreshQueued(false);
    if (state.phase !== "offline") refresh();
  });
  const wasOffline = useRef(!online);
  useEffect(() => {
    if (!online) wasOffline.current = true;
    else if (wasOffline.current) {
      wasOffline.current = false;
      onReconnect();
    }
  }, [online]);

  // A filter that finds nothing among the loaded keys keeps loading until it does, or the person stops it (14.8).
  const searchGoal = useCallback(
    (pages: readonly KeysPage[]) => filterKeys(pages.flatMap((page) => page.keys), deferredFilter).length > 0,
    [deferredFilter],
  );
  const lookupPending = lookupId !== null && lookup.isPending;
  const keepSearching =
    filtering &&
    matching.length === 0 &&
    hasNextPage &&
    state.phase === "idle" &&
    online &&
    !lookupPending &&
    !lookupNotFound &&
    (lookupId === null || lookupUnavailable(lookup.error));
  useEffect(() => {
    if (keepSearching) void startLoading("search", searchGoal);
  }, [keepSearching, startLoading, searchGoal]);

  const canLoad = hasNextPage && online && !waitingForRateLimit;
  const loadMore = () => {
    if (!online) {
      setRefreshQueued(true);
      return;
    }
    if (canLoad && !isFetchingNextPage && !loading) void loader.start("more");
  };
  // Scrolling to the end loads on its own, except while filtering (the search above does that), while a page
  // load failed (the notice's Retry says when) or while a load is already under way.
  const autoLoad = !filtering && !query.isFetchNextPageError && !loading && canLoad ? loadMore : undefined;

  const stale = !online || (query.isError && !query.isFetching);
  const failed = query.isError && !query.isFetching && !loading;
  const failedAction = query.isFetchNextPageError ? "load-more" : "refresh";
  const retryFailed = () => {
    if (failedAction === "load-more") void loader.start(state.phase === "failed" ? state.purpose : "more");
    else refresh();
  };

  if (keys.length === 0 && !hasNextPage) {
    return (
      <div className="keys-list">
        {failed && renderRefreshError({ error: query.error, action: failedAction, onRetry: retryFailed })}
        <div className="keys-empty">
          <h2>No keys yet</h2>
          <p>This workspace has no keys. Create one with the admin CLI, then refresh:</p>
          <div className="keys-empty__command">
            <code>{CREATE_KEY_COMMAND}</code>
            <CopyButton value={CREATE_KEY_COMMAND} label="Copy command" />
          </div>
          <RefreshButton refreshing={query.isRefetching} waitSeconds={waitingForRateLimit ? secondsLeft : null} onRefresh={refresh} />
        </div>
      </div>
    );
  }

  return (
    <div ref={measureRef} className={stale ? "keys-list keys-list--stale" : "keys-list"}>
      <div className="keys-toolbar">
        <div className="keys-toolbar__filter">
          <label htmlFor={filterId} className="visually-hidden">
            Filter keys
          </label>
          <SearchIcon />
          <input
            id={filterId}
            className="input"
            type="search"
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value);
              if (state.phase !== "idle" && state.purpose === "search") loader.reset();
            }}
            placeholder="Filter by name, key id or prefix"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <p className="keys-toolbar__count" role="status">
          {countText(keys.length, shown.length, narrowed, hasNextPage)}
          {stale && <span className="keys-toolbar__stale"> · not current</span>}
        </p>
        <ColumnPicker model={model} />
        <RefreshButton refreshing={query.isRefetching} waitSeconds={waitingForRateLimit ? secondsLeft : null} onRefresh={refresh} />
        <ExportPanel
          shownCount={shown.length}
          shownKeys={() => model.table.getRowModel().rows.map((row) => row.original)}
          columns={model.visibleColumns}
          now={now}
          loaded={keys.length}
          hasMore={hasNextPage}
          stale={stale}
          loader={loader}
        />
      </div>

      {!online && (
        <p className="keys-notice keys-notice--offline" role="status">
          <strong>You are offline.</strong> The keys below were loaded at {new Date(query.dataUpdatedAt).toLocaleTimeString("en")}{" "}
          and may have changed since.{" "}
          {refreshQueued ? "Keyscope will refresh them as soon as the connection is back." : "They refresh when the connection is back."}
        </p>
      )}

      {usageForbidden && (
        <div className="keys-notice keys-notice--warn" role="note" aria-label="Usage not shown">
          <p>
            <strong>Usage is not shown:</strong> this root key may list keys but not read analytics. Give it the permission{" "}
            <code>{READ_ANALYTICS_PERMISSION}</code>, or use a root key that has it. On the reference server:
          </p>
          <code>{ANALYTICS_ROOT_KEY_COMMAND}</code>
          <CopyButton value={ANALYTICS_ROOT_KEY_COMMAND} label="Copy the command" />
        </div>
      )}
      {usage.isError && !usageForbidden && (
        <p className="keys-notice keys-notice--warn" role="note">
          <strong>Usage could not be loaded:</strong> {usage.error.message}{" "}
          <button type="button" className="button button--small" onClick={() => void usage.refetch()}>
            Try again
          </button>
        </p>
      )}
      {foundKey !== undefined && (
        <p className="keys-notice" role="status">
          Found with <code>keys.getKey</code>: this key is not among the {formatCount(keys.length)} keys loaded.
        </p>
      )}

      <StatusFilter model={model} loaded={keys.length} hasMore={hasNextPage} onLoadAll={() => void loader.start("all")} loading={loading} />

      {sortingByUsage && <UsageSortNote totals={usageTotals} hasMore={hasNextPage} />}

      <LoadProgress
        state={state}
        loaded={keys.length}
        secondsLeft={secondsLeft}
        filter={deferredFilter.trim()}
        onStop={loader.stop}
        onContinue={(purpose) => void loader.start(purpose, purpose === "search" ? searchGoal : undefined)}
      />

      {failed && renderRefreshError({ error: query.error, action: failedAction, onRetry: retryFailed })}

      {shown.length === 0 && narrowed ? (
        <div className="keys-empty keys-empty--inline">
          <h2>{filtering ? `No keys match “${deferredFilter.trim()}”` : "No key has the chosen status"}</h2>
          <p>
            {lookupNotFound
              ? `The API has no key with the id ${lookupId}.`
              : lookupPending
                ? `Asking the API for ${lookupId}…`
                : hasNextPage
              ? `Among the ${formatCount(keys.length)} keys loaded so far, none matches. More keys are not loaded yet.`
              : `None of the ${formatCount(keys.length)} keys matches.`}
          </p>
          <button
            type="button"
            className="button"
            onClick={() => {
              setFilter("");
              model.setStatusFilter([]);
              loader.reset();
            }}
          >
            Clear filter
          </button>
        </div>
      ) : (
        <KeysTable
          model={model}
          compact={compact}
          now={now}
          usage={usage.data}
          onNearEnd={autoLoad}
          onKeysInView={usageForbidden ? undefined : onKeysInView}
          scrollResetKey={scrollResetKey}
        />
      )}

      {hasNextPage && (
        <div className="keys-list__more">
          <button
            type="button"
            className="button"
            onClick={loadMore}
            aria-disabled={isFetchingNextPage || loading || !canLoad}
          >
            {isFetchingNextPage || loading ? (
              <>
                <Spinner /> Loading more…
              </>
            ) : !online ? (
              "Load more (offline)"
            ) : waitingForRateLimit ? (
              `Load more in ${secondsLeft} s`
            ) : (
              "Load more"
            )}
          </button>
        </div>
      )}
    </div>
  );
}

interface RefreshButtonProps {
  refreshing: boolean;
  /** Seconds until the API allows a request again; the button waits with it. */
  waitSeconds: number | null;
  onRefresh: () => void;
}

function RefreshButton({ refreshing, waitSeconds, onRefresh }: RefreshButtonProps) {
  const blocked = refreshing || waitSeconds !== null;
  return (
    // aria-disabled rather than disabled: the button keeps focus while the refresh runs.
    <button
      type="button"
      className="button keys-toolbar__refresh"
      onClick={blocked ? undefined : onRefresh}
      aria-disabled={blocked}
    >
      {refreshing ? (
        <>
          <Spinner /> Refreshing…
        </>
      ) : waitSeconds !== null ? (
        <>
          <RefreshIcon /> Refresh in {waitSeconds} s
        </>
      ) : (
        <>
          <RefreshIcon /> Refresh
        </>
      )}
    </button>
  );
}

/** Pages are keyset-ordered by keyId, but a key seen twice (e.g. created between two pages) must render once. */
function uniqueKeys(keys: Key[]): Key[] {
  const seen = new Set<string>();
  return keys.filter((key) => {
    if (seen.has(key.keyId)) return false;
    seen.add(key.keyId);
    return true;
  });
}

export function KeysListSkeleton() {
  return (
    <div className="keys-list" aria-busy="true">
      <div className="keys-toolbar">
        <div className="keys-toolbar__filter">
          <span className="skeleton keys-toolbar__skeleton-input" />
        </div>
        <p className="keys-toolbar__count" role="status">
          Loading keys…
        </p>
      </div>
      <div className="keys-table__scroller" aria-hidden="true">
        <div className="keys-table keys-table--skeleton">
          <div className="keys-table__row keys-table__row--head">
            <span className="skeleton" style={{ width: 60 }} />
          </div>
          {Array.from({ length: 8 }, (_, index) => (
            <div key={index} className="keys-table__skeleton-row" style={{ height: ROW_HEIGHT }}>
              <span className="skeleton" style={{ width: `${60 + ((index * 37) % 30)}%` }} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

function SearchIcon() {
  return (
    <svg className="keys-toolbar__icon" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
      <circle cx="9" cy="9" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m13.5 13.5 3.5 3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function RefreshIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true">
      <path
        d="M16 10a6 6 0 1 1-1.76-4.24M16 4v3.5h-3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
