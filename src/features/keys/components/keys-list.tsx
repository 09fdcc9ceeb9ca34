import { useDeferredValue, useId, useMemo, useState, type ReactNode } from "react";
import { CopyButton } from "../../../components/copy-button";
import { Spinner } from "../../../components/spinner";
import type { Connection } from "../../../lib/api/transport";
import type { Key } from "../../../lib/contract";
import { useListKeys, type ListKeysParams } from "../api/list-keys";
import { columnsFor, countText, filterKeys } from "../key-view";
import { ExportButtons } from "./export-buttons";
import { useNow } from "../use-now";
import { KeysTable, ROW_HEIGHT } from "./keys-table";
import "./keys.css";

export interface RefreshErrorProps {
  error: unknown;
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

/** The keys the connection can read: filter, count, refresh, the virtualized table and paging. A skeleton while loading. */
export function KeysList(props: KeysListProps) {
  const query = useListKeys(props.connection, props.params);
  if (query.data === undefined) return <KeysListSkeleton />;
  return <KeysListContent query={query} data={query.data} renderRefreshError={props.renderRefreshError} />;
}

interface KeysListContentProps {
  query: KeysQuery;
  data: NonNullable<KeysQuery["data"]>;
  renderRefreshError: KeysListProps["renderRefreshError"];
}

function KeysListContent({ query, data, renderRefreshError }: KeysListContentProps) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = query;
  const [filter, setFilter] = useState("");
  // Typing stays instant with 100,000 keys loaded: the list catches up a frame later.
  const deferredFilter = useDeferredValue(filter);
  const now = useNow();
  const filterId = useId();

  const keys = useMemo(() => uniqueKeys(data.pages.flatMap((page) => page.keys)), [data]);
  const optionalColumns = useMemo(() => columnsFor(keys), [keys]);
  const matching = useMemo(() => filterKeys(keys, deferredFilter), [keys, deferredFilter]);
  const filtering = deferredFilter.trim() !== "";
  const refreshing = query.isRefetching;
  const failed = query.isError && !query.isFetching;

  function loadMore() {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }

  // Scrolling to the end loads on its own, except while filtering (that could page through everything)
  // or after a failed page (the banner's Retry or the button says when to try again).
  const autoLoad = !filtering && !query.isFetchNextPageError ? loadMore : undefined;

  if (keys.length === 0 && !hasNextPage) {
    return (
      <div className="keys-list">
        {failed && renderRefreshError({ error: query.error, onRetry: () => void refetch() })}
        <div className="keys-empty">
          <h2>No keys yet</h2>
          <p>This workspace has no keys. Create one with the admin CLI, then refresh:</p>
          <div className="keys-empty__command">
            <code>{CREATE_KEY_COMMAND}</code>
            <CopyButton value={CREATE_KEY_COMMAND} label="Copy command" />
          </div>
          <RefreshButton refreshing={refreshing} onRefresh={() => void refetch()} />
        </div>
      </div>
    );
  }

  return (
    <div className="keys-list">
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
            onChange={(event) => setFilter(event.target.value)}
            placeholder="Filter by name, key id or prefix"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <p className="keys-toolbar__count" role="status">
          {countText(keys.length, matching.length, filtering, hasNextPage)}
        </p>
        <RefreshButton refreshing={refreshing} onRefresh={() => void refetch()} />
        <ExportButtons keys={keys} />
      </div>

      {failed &&
        renderRefreshError({
          error: query.error,
          onRetry: () => void (query.isFetchNextPageError ? fetchNextPage() : refetch()),
        })}

      {matching.length === 0 && filtering ? (
        <div className="keys-empty keys-empty--inline">
          <h2>No keys match “{deferredFilter.trim()}”</h2>
          <p>
            The filter looks at the name, the key id and the prefix
            {hasNextPage ? " of the keys loaded so far. Load more to search further." : "."}
          </p>
          <button type="button" className="button" onClick={() => setFilter("")}>
            Clear filter
          </button>
        </div>
      ) : (
        <KeysTable
          keys={matching}
          optionalColumns={optionalColumns}
          now={now}
          onNearEnd={autoLoad}
        />
      )}

      {hasNextPage && (
        <div className="keys-list__more">
          <button type="button" className="button" onClick={loadMore} aria-disabled={isFetchingNextPage}>
            {isFetchingNextPage ? (
              <>
                <Spinner /> Loading more…
              </>
            ) : (
              "Load more"
            )}
          </button>
        </div>
      )}
    </div>
  );
}

function RefreshButton({ refreshing, onRefresh }: { refreshing: boolean; onRefresh: () => void }) {
  return (
    // aria-disabled rather than disabled: the button keeps focus while the refresh runs.
    <button
      type="button"
      className="button keys-toolbar__refresh"
      onClick={refreshing ? undefined : onRefresh}
      aria-disabled={refreshing}
    >
      {refreshing ? (
        <>
          <Spinner /> Refreshing…
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
