import { useMemo, useState, type ReactNode } from "react";
import type { Connection } from "@/lib/api/transport";
import type { ListKeysParams } from "@/lib/api/list-keys";
import type { Key } from "@/lib/contract";
import { useElementWidth } from "@/lib/hooks/use-element-width";
import { useMediaQuery } from "@/lib/hooks/use-media-query";
import { useNow } from "@/lib/hooks/use-now";
import { useOnline } from "@/lib/hooks/use-online";
import { useListKeys } from "../api/list-keys";
import { COMPACT_QUERY, estimatedListWidth, SELECT_COLUMN_WIDTH } from "../columns/keys-layout";
import { useKeyFilter } from "../hooks/use-key-filter";
import { useExternalIdLookup } from "../hooks/use-external-id-lookup";
import { useKeyIdLookup } from "../hooks/use-key-id-lookup";
import { useKeysLoader } from "../hooks/use-keys-loader";
import { useKeysSorting } from "../hooks/use-keys-sorting";
import { useKeySelection } from "../hooks/use-key-selection";
import { useKeysTable } from "../hooks/use-keys-table";
import { useLoadMore } from "../hooks/use-load-more";
import { useRateLimitWait } from "../hooks/use-rate-limit-wait";
import { useRefreshKeys } from "../hooks/use-refresh-keys";
import { useSearchUntilFound } from "../hooks/use-search-until-found";
import { useVisibleUsage } from "../hooks/use-visible-usage";
import { countText, FOUND_BY_ID_COUNT, identityCount } from "../utils/key-view";
import { ColumnPicker } from "./column-picker";
import { NoKeysYet, NoMatchingKeys } from "./empty-states";
import { ExportPanel } from "./export-panel";
import {
  FoundByIdentityNotice,
  FoundByIdNotice,
  OfflineNotice,
  UsageErrorNotice,
  UsageForbiddenNotice,
} from "./keys-notices";
import { KeysListSkeleton } from "./keys-list-skeleton";
import { KeysTable } from "./keys-table";
import { KeysToolbar } from "./keys-toolbar";
import { LoadMoreButton } from "./load-more-button";
import { LoadProgress } from "./load-progress";
import { RefreshButton } from "./refresh-button";
import { LazySelectionBar } from "./lazy-selection-bar";
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
  /** With it, rows can be selected; it renders what can be done to the selected keys (composed by the app). */
  renderBulkActions?: ((selected: readonly Key[]) => ReactNode) | undefined;
}

type KeysQuery = ReturnType<typeof useListKeys>;

/** The keys the connection can read: filter, count, refresh, the virtualized table and paging. A skeleton while loading. */
export function KeysList(props: KeysListProps) {
  const query = useListKeys(props.connection, props.params);
  if (query.data === undefined) return <KeysListSkeleton />;
  return <KeysListContent {...props} query={query} pages={query.data.pages} />;
}

interface KeysListContentProps extends KeysListProps {
  query: KeysQuery;
  pages: NonNullable<KeysQuery["data"]>["pages"];
}

function KeysListContent({
  connection,
  params = NO_PARAMS,
  query,
  pages,
  renderRefreshError,
  renderBulkActions,
}: KeysListContentProps) {
  const selection = useKeySelection();
  // Checkboxes only once asked for: by default the table's width goes to its data columns.
  const [selecting, setSelecting] = useState(false);
  const selectable = renderBulkActions !== undefined && selecting;
  const { hasNextPage } = query;
  const online = useOnline();
  const now = useNow();
  const keys = useUniqueKeys(pages);
  const loader = useKeysLoader(query.fetchNextPage);
  const filter = useKeyFilter(keys);
  const lookup = useKeyIdLookup(connection, filter.query, filter.matches);
  const identity = useExternalIdLookup(connection, filter.query, lookup.matches);
  const matching = identity.matches;
  const { usage, forbidden: usageForbidden, onKeysInView, usageSeen } = useVisibleUsage(connection);
  const sort = useKeysSorting(connection, keys, !usageForbidden);
  const compact = useMediaQuery(COMPACT_QUERY);
  const [measureRef, width] = useElementWidth<HTMLDivElement>(() => estimatedListWidth(compact));
  const model = useKeysTable(matching, {
    now,
    usageTotals: sort.usageTotals.totals,
    usageAvailable: !usageForbidden,
    sorting: sort.sorting,
    onSortingChange: sort.setSorting,
    // The selection column takes its width before the data columns are fitted.
    width: !selectable || compact ? width : Math.max(0, width - SELECT_COLUMN_WIDTH),
    compact,
  });
  const rateLimit = useRateLimitWait(loader.state, query.error);
  const refresher = useRefreshKeys({ connection, params, refetch: query.refetch, loader, online });
  useSearchUntilFound({
    query: filter.query,
    matchCount: matching.length,
    hasNextPage,
    online,
    lookup,
    loader,
    serverLookupPending: identity.pending,
  });
  const paging = useLoadMore({
    loader,
    hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    nextPageFailed: query.isFetchNextPageError,
    filtering: filter.filtering,
    online,
    waitSeconds: rateLimit.waitSeconds,
    queueUntilOnline: refresher.queueUntilOnline,
  });

  const shown = model.rows;
  // Every loaded key selected, shown or hidden by a filter: the bulk actions act on them all and say how many are hidden.
  const selectedKeys = useMemo(
    () => keys.filter((key) => selection.selected.has(key.keyId)),
    [keys, selection.selected],
  );
  const shownSelected = shown.filter((key) => selection.selected.has(key.keyId)).length;
  const narrowed = filter.filtering || model.statusFilter.length > 0;
  const stale = !online || (query.isError && !query.isFetching);
  const failedAction = query.isFetchNextPageError ? "load-more" : "refresh";
  const failure =
    query.isError &&
    !query.isFetching &&
    !paging.loading &&
    renderRefreshError({
      error: query.error,
      action: failedAction,
      onRetry: () => {
        if (failedAction === "refresh") refresher.refresh();
        else if (loader.state.phase === "failed") void loader.resume();
        else void loader.start("more");
      },
    });
  const refreshButton = (
    <RefreshButton refreshing={query.isRefetching} waitSeconds={rateLimit.waitSeconds} onRefresh={refresher.refresh} />
  );
  // Keyed, and in both views below (the same root div): a bulk delete of every key, refreshed while its result is
  // open, switches to "no keys yet", and the bar must stay mounted there with the result it holds.
  const selectionBar = selectable && (
    <LazySelectionBar
      key="selection"
      selectedCount={selectedKeys.length}
      hiddenCount={selectedKeys.length - shownSelected}
      shownCount={shown.length}
      shownSelected={shownSelected}
      onSelectAllShown={() => selection.add(shown.map((key) => key.keyId))}
      onClear={selection.clear}
    >
      {renderBulkActions(selectedKeys)}
    </LazySelectionBar>
  );

  if (keys.length === 0 && !hasNextPage) {
    return (
      <div className="keys-list">
        {failure}
        {selectionBar}
        <NoKeysYet>{refreshButton}</NoKeysYet>
      </div>
    );
  }

  return (
    <div ref={measureRef} className={stale ? "keys-list keys-list--stale" : "keys-list"}>
      <KeysToolbar
        filter={filter.text}
        onFilterChange={(value) => {
          filter.setText(value);
          if (loader.state.phase !== "idle" && loader.state.purpose === "search") loader.reset();
        }}
        count={
          lookup.found !== undefined
            ? FOUND_BY_ID_COUNT
            : identity.added > 0
              ? identityCount(shown.length)
              : countText(keys.length, shown.length, narrowed, hasNextPage)
        }
        stale={stale}
      >
        {renderBulkActions !== undefined && (
          <button
            type="button"
            className="button"
            aria-pressed={selecting}
            onClick={() => {
              if (selecting) selection.clear();
              setSelecting(!selecting);
            }}
          >
            Select
          </button>
        )}
        <ColumnPicker model={model} />
        {refreshButton}
        <ExportPanel
          shownCount={shown.length}
          shownKeys={() => model.rows}
          usageOf={usageSeen}
          columns={model.visibleColumns}
          now={now}
          loaded={keys.length}
          hasMore={hasNextPage}
          stale={stale}
          loader={loader}
        />
      </KeysToolbar>

      {!online && <OfflineNotice loadedAt={query.dataUpdatedAt} refreshQueued={refresher.queued} />}
      {usageForbidden && <UsageForbiddenNotice />}
      {usage.isError && !usageForbidden && (
        <UsageErrorNotice message={usage.error.message} onRetry={() => void usage.refetch()} />
      )}
      {lookup.found !== undefined && <FoundByIdNotice loaded={keys.length} />}
      {identity.externalId !== null && (identity.added > 0 || identity.error !== null) && (
        <FoundByIdentityNotice
          externalId={identity.externalId}
          found={identity.found?.length ?? 0}
          added={identity.added}
          hasMore={identity.hasMore}
          error={identity.error}
        />
      )}

      <StatusFilter
        model={model}
        loaded={keys.length}
        filter={filter.query}
        hasMore={hasNextPage}
        onLoadAll={() => void loader.start("all")}
        loading={paging.loading}
      />

      {sort.byUsage && <UsageSortNote totals={sort.usageTotals} hasMore={hasNextPage} />}

      <LoadProgress
        state={loader.state}
        loaded={keys.length}
        secondsLeft={rateLimit.secondsLeft}
        filter={filter.query}
        reloading={refresher.reloading}
        onStop={loader.stop}
        onContinue={() => void loader.resume()}
      />

      {failure}

      {selectionBar}

      {shown.length === 0 && narrowed ? (
        <NoMatchingKeys
          query={filter.query}
          lookup={lookup}
          loaded={keys.length}
          hasMore={hasNextPage}
          onClear={() => {
            filter.setText("");
            model.setStatusFilter([]);
            loader.reset();
          }}
        />
      ) : (
        <KeysTable
          model={model}
          compact={compact}
          now={now}
          usage={usage.data}
          onNearEnd={paging.autoLoad}
          onKeysInView={usageForbidden ? undefined : onKeysInView}
          scrollResetKey={refresher.scrollResetKey}
          selection={selectable ? selection : undefined}
        />
      )}

      {hasNextPage && (
        <LoadMoreButton
          busy={paging.busy}
          canLoad={paging.canLoad}
          online={online}
          waitSeconds={rateLimit.waitSeconds}
          onLoadMore={paging.loadMore}
        />
      )}
    </div>
  );
}

const NO_PARAMS: ListKeysParams = {};

/** Pages are keyset-ordered by keyId, but a key seen twice (e.g. created between two pages) must render once. */
function useUniqueKeys(pages: readonly { keys: readonly Key[] }[]): readonly Key[] {
  return useMemo(() => {
    const seen = new Set<string>();
    return pages
      .flatMap((page) => page.keys)
      .filter((key) => {
        if (seen.has(key.keyId)) return false;
        seen.add(key.keyId);
        return true;
      });
  }, [pages]);
}
