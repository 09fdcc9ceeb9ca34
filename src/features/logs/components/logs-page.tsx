import { useCallback, useId, useMemo, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { LateCodeBoundary } from "@/components/late-code-boundary";
import { Loading } from "@/components/offline-notice";
import { Spinner } from "@/components/spinner";
import type { LogRow } from "@/lib/analytics-rows";
import { ApiError, isApiErrorOf } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { formatCount } from "@/lib/format-number";
import { useElementWidth } from "@/lib/hooks/use-element-width";
import { useMediaQuery } from "@/lib/hooks/use-media-query";
import { grainOf } from "@/lib/analytics-grain";
import { retryableLazy } from "@/lib/retryable-lazy";
import { useKeyNames } from "../api/key-names";
import { useLogChart, useLogPages, useLogRow, useTopRefused } from "../api/log-queries";
import {
  chosenColumns,
  fitLogColumns,
  LOG_COLUMN_ORDER,
  readLogColumnChoice,
  saveLogColumnChoice,
  type LogColumnChoice,
  type LogColumnId,
} from "../columns/log-columns";
import { useLiveLog, type LiveGap } from "../hooks/use-live-log";
import { useResolvedRange } from "../hooks/use-resolved-range";
import { logSeries } from "../log-series";
import { DEFAULT_VIEW, dataKeyOf, filterOf, isFiltered, type LogView } from "../log-view";
import { useQueriesInLastHour } from "../query-spend";
import {
  formatUtcInstant,
  formatUtcRange,
  narrowedTo,
  presetOf,
  RANGE_PRESETS,
  type RangeChoice,
} from "@/lib/time-range";
import { LiveControl } from "./live-control";
import { LogColumnsMenu } from "./log-columns-menu";
import { LogDetails } from "./log-details";
import { LogExportPanel } from "./log-export-panel";
import { LogFilters } from "./log-filters";
import { LogOverview } from "./log-overview";
import { LogTable } from "./log-table";
import { ActiveFilters } from "./active-filters";
import "./logs.css";

/** The chart (and its library) comes after the rows: they need none of it. */
const LogChart = retryableLazy(
  () => import("./log-chart"),
  (module) => module.LogChart,
);

export interface LogsPageProps {
  connection: Connection;
  /** The page's clock, advancing once a minute. */
  now: number;
  view: LogView;
  /** What the address held that the page left out. */
  dropped: readonly string[];
  /** Shows another view: a step in the history, or in its place (`replace`: the open row changing). */
  onView: (view: LogView, options?: { replace?: boolean }) => void;
  /** The address of a view, for links. */
  viewHref: (view: LogView) => string;
  keyHref: (keyId: string) => string;
  lookupHref: (requestId: string) => string;
  /** Why an analytics query was refused, with its fix: where the numbers would be (the troubleshoot catalog's panel). */
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
  /** The key's verdict now and what the outcome means, for a row's details (the key page's sentence, the catalog's words). */
  renderKeyNow: (row: LogRow) => ReactNode;
}

const COMPACT_QUERY = "(max-width: 640px)";
/** Wide enough for the details beside the log; narrower, they open over it. */
const SIDE_PANEL_QUERY = "(min-width: 1100px)";

/** The next preset that shows more than `choice`, for "widen". */
function widerPresets(choice: RangeChoice): RangeChoice[] {
  if (choice.kind === "custom") return [{ kind: "preset", preset: "30d" }];
  const at = RANGE_PRESETS.findIndex((preset) => preset.id === choice.preset);
  const next = RANGE_PRESETS.slice(at + 1).filter((preset) => ["24h", "7d", "30d"].includes(preset.id));
  return next.slice(0, 2).map((preset) => ({ kind: "preset", preset: preset.id }));
}

function rangeName(choice: RangeChoice, from: number, to: number, now: number): string {
  return choice.kind === "preset" ? `the last ${presetOf(choice.preset).label}` : formatUtcRange(from, to, now);
}

/** Two failures that are the same refusal (a missing permission on every query): said once. */
function sameRefusal(a: unknown, b: unknown): boolean {
  return a instanceof ApiError && b instanceof ApiError && a.status === b.status && a.kind === b.kind;
}

/**
 * The Logs page: every verification the root key may read, filtered (all in the address), over a chosen range; an
 * overview, a chart over the table, the table itself (virtualized, paged by the (time, request id) cursor), Live, a
 * row's details, and export.
 */
export function LogsPage(props: LogsPageProps) {
  const { connection, now, view, onView, viewHref, renderAnalyticsError } = props;
  const detailsId = useId();
  const dataKey = dataKeyOf(view);
  const resolved = useResolvedRange(connection, view.range, dataKey);
  const { range } = resolved;
  const filter = useMemo(
    () => filterOf(view, range),
    // The view's filters are its data key; the row open does not change what is asked.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [dataKey, range.from, range.to],
  );
  const grain = grainOf(range.bucketMs);
  const pages = useLogPages(connection, filter);
  const chart = useLogChart(connection, filter, grain);
  const top = useTopRefused(connection, filter, grain);
  const pageRows = useMemo(() => pages.data?.pages.flatMap((page) => page.items) ?? [], [pages.data]);
  const live = useLiveLog({
    connection,
    view: `${dataKey} ${resolved.at}`,
    filter,
    pages: pageRows,
    end: range.to,
    available: range.endsNow,
    now,
  });
  const series = useMemo(
    () => (chart.data === undefined ? undefined : logSeries(chart.data, live.arrived, range)),
    [chart.data, live.arrived, range],
  );
  const spent = useQueriesInLastHour(connection, now);

  // Names for the keys in view, in the overview, filtered by and of the open row.
  const [keysInView, setKeysInView] = useState<readonly string[]>([]);
  const selectedRow = view.row === undefined ? undefined : live.rows.find((row) => row.requestId === view.row);
  const linkedRow = useLogRow(
    connection,
    filter,
    view.row !== undefined && selectedRow === undefined && !pages.isPending ? view.row : undefined,
  );
  const openRow = selectedRow ?? linkedRow.data;
  const openKeyId = openRow?.keyId ?? "";
  const nameIds = useMemo(
    () => [
      ...view.keyIds,
      ...(openKeyId === "" ? [] : [openKeyId]),
      ...(top.data ?? []).filter((row) => row.kind === "key").map((row) => row.id),
      ...keysInView,
    ],
    [view.keyIds, openKeyId, top.data, keysInView],
  );
  const names = useKeyNames(connection, nameIds);

  // Columns: the person's choice, as many as the width holds.
  const compact = useMediaQuery(COMPACT_QUERY);
  const sidePanel = useMediaQuery(SIDE_PANEL_QUERY);
  const [choice, setChoice] = useState<LogColumnChoice>(readLogColumnChoice);
  const [tableRef, width] = useElementWidth<HTMLDivElement>(() => 0);
  const chosen = chosenColumns(choice);
  const turnedOn = new Set(LOG_COLUMN_ORDER.filter((id) => choice[id] === true));
  const fitted = compact
    ? { shown: chosen.filter((id) => COMPACT_COLUMNS.has(id)), folded: chosen.filter((id) => !COMPACT_COLUMNS.has(id)) }
    : fitLogColumns(chosen, width, turnedOn);
  const shownKey = fitted.shown.join(" ");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the same columns keep the same array: no row renders again
  const shown = useMemo(() => fitted.shown, [shownKey]);

  const narrowHref = useCallback(
    (change: Partial<LogView>) => viewHref({ ...view, ...change, row: undefined }),
    [view, viewHref],
  );
  const gapHref = useCallback(
    (gap: LiveGap) => viewHref({ ...view, range: { kind: "custom", from: gap.from, to: gap.to }, row: undefined }),
    [view, viewHref],
  );
  const onSelect = useCallback(
    (row: LogRow) => onView({ ...view, row: row.requestId }, { replace: true }),
    [onView, view],
  );
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = pages;
  const onNearEnd = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
  const closeDetails = () => {
    const requestId = view.row;
    onView({ ...view, row: undefined }, { replace: true });
    // Back to the row it opened from, as a dialog hands the focus back.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(requestId ?? "")}"] [data-roving]`)?.focus(),
    );
  };

  const rangeText = rangeName(view.range, range.from, range.to, now);
  const firstError = pages.error ?? chart.error ?? top.error;
  const retryAll = () => {
    if (pages.isError) void pages.refetch();
    if (chart.isError) void chart.refetch();
    if (top.isError) void top.refetch();
  };
  const refusedPanel = (error: unknown, onRetry: () => void) => (
    <div className="logs-page__refusal">
      {renderAnalyticsError(error, onRetry)}
      {isApiErrorOf(error, "bad_request:query_range_exceeds_retention") && (
        <p>
          <Link to={viewHref({ ...view, range: { kind: "preset", preset: "30d" }, row: undefined })}>
            Show the last 30 days instead
          </Link>
        </p>
      )}
    </div>
  );
  const echoed = (error: unknown) =>
    error !== null && sameRefusal(error, firstError) && error !== firstError ? (
      <p className="logs-page__echo">Not counted: the same refusal as above.</p>
    ) : null;

  return (
    <div className="logs-page outcome-palette">
      <header className="logs-page__header">
        <h1>Logs</h1>
        <p className="logs-page__scope">
          Every verification this root key may read, newest first, from {rangeText}
          {range.endsNow && ` (as of ${formatUtcInstant(range.to, now)})`}. Times in UTC.
        </p>
        <div className="logs-page__actions">
          <button
            type="button"
            className="button"
            onClick={resolved.refresh}
            aria-disabled={pages.isFetching && !pages.isFetchingNextPage}
          >
            {pages.isFetching && !pages.isFetchingNextPage ? (
              <>
                <Spinner /> Refreshing…
              </>
            ) : (
              "Refresh"
            )}
          </button>
          <details className="logs-page__export">
            <summary className="button">Export…</summary>
            <div className="logs-page__popover">
              <LogExportPanel
                connection={connection}
                filter={filter}
                total={series?.total}
                keyName={(keyId) => {
                  const name = names.get(keyId);
                  return name?.state === "found" ? name.name : undefined;
                }}
                renderError={renderAnalyticsError}
              />
            </div>
          </details>
          {/* A phone's cards show a set of their own; every field is in a row's details. */}
          {!compact && (
            <LogColumnsMenu
              chosen={chosen}
              folded={fitted.folded}
              onChoose={(id, on) =>
                setChoice((previous) => {
                  const next = { ...previous, [id]: on };
                  saveLogColumnChoice(next);
                  return next;
                })
              }
            />
          )}
        </div>
      </header>

      {props.dropped.length > 0 && (
        <div className="logs-page__dropped" role="status">
          <p>The link held filters Keyscope could not use:</p>
          <ul>
            {props.dropped.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}

      <LogFilters
        connection={connection}
        compact={compact}
        view={view}
        range={range}
        now={now}
        names={names}
        onView={(next) => onView(next)}
      />
      <ActiveFilters view={view} names={names} viewHref={viewHref} />

      <LiveControl
        live={live}
        available={range.endsNow}
        now={now}
        renderError={(error) => renderAnalyticsError(error, () => live.setOn(true))}
      />
      <p className="logs-page__spend">
        This tab&apos;s Logs page sent {formatCount(spent)} analytics {spent === 1 ? "query" : "queries"} in the last
        hour (a view costs three; the workspace may run 1,000 an hour, shared by everyone).
      </p>

      {firstError !== null && refusedPanel(firstError, retryAll)}

      <section className="logs-page__section" aria-labelledby={`${detailsId}-overview`}>
        <h2 id={`${detailsId}-overview`}>Overview</h2>
        <LogOverview
          series={series}
          top={top.data}
          names={names}
          narrowHref={narrowHref}
          liveSince={live.on || live.arrived.length > 0}
          topError={
            top.error === null
              ? null
              : (echoed(top.error) ?? <p className="logs-page__echo">Not counted (see above).</p>)
          }
        />
      </section>

      <section className="logs-page__section" aria-labelledby={`${detailsId}-chart`}>
        <h2 id={`${detailsId}-chart`}>Verifications over time</h2>
        {series !== undefined ? (
          <LateCodeBoundary what="The chart" loading={<p role="status">Loading the chart…</p>}>
            <LogChart
              series={series}
              now={now}
              onNarrow={(first, last) => onView({ ...view, range: narrowedTo(range, first, last), row: undefined })}
            />
          </LateCodeBoundary>
        ) : chart.isError ? (
          (echoed(chart.error) ?? <p className="logs-page__echo">Not counted (see above).</p>)
        ) : (
          <p role="status">
            <Loading>Counting the verifications…</Loading>
          </p>
        )}
      </section>

      <section className="logs-page__section logs-page__log" aria-labelledby={`${detailsId}-log`}>
        <h2 id={`${detailsId}-log`}>
          Verifications
          {series !== undefined && (
            <span className="logs-page__count">
              {" "}
              ({formatCount(series.total)}
              {live.gaps.length > 0 && ", some not listed"})
            </span>
          )}
        </h2>
        <div
          className={
            view.row !== undefined && sidePanel ? "logs-page__split logs-page__split--open" : "logs-page__split"
          }
        >
          <div ref={tableRef} className="logs-page__table">
            {pages.data === undefined ? (
              pages.isError ? (
                <p className="logs-page__echo">No rows: the refusal is above.</p>
              ) : (
                <p role="status">
                  <Loading>Loading verifications…</Loading>
                </p>
              )
            ) : live.rows.length === 0 ? (
              <EmptyLog view={view} rangeText={rangeText} viewHref={viewHref} />
            ) : (
              <LogTable
                rows={live.rows}
                gaps={live.gaps}
                columns={shown}
                compact={compact}
                now={now}
                names={names}
                selected={view.row}
                onSelect={onSelect}
                detailsId={detailsId}
                keyHref={props.keyHref}
                gapHref={gapHref}
                onNearEnd={onNearEnd}
                onKeysInView={setKeysInView}
                footer={
                  <LogFooter
                    loading={isFetchingNextPage}
                    failed={isFetchNextPageError ? pages.error : null}
                    more={hasNextPage}
                    count={live.rows.length}
                    onMore={() => void fetchNextPage()}
                    renderError={renderAnalyticsError}
                  />
                }
              />
            )}
          </div>
          {view.row !== undefined && (
            <LogDetails
              id={detailsId}
              requestId={view.row}
              row={openRow === undefined ? (linkedRow.isPending || pages.isPending ? undefined : null) : openRow}
              error={
                linkedRow.isError ? renderAnalyticsError(linkedRow.error, () => void linkedRow.refetch()) : undefined
              }
              now={now}
              name={openRow === undefined || openRow === null ? undefined : names.get(openRow.keyId)}
              keyHref={props.keyHref}
              lookupHref={props.lookupHref}
              narrowHref={narrowHref}
              renderKeyNow={props.renderKeyNow}
              onClose={closeDetails}
              modal={!sidePanel}
            />
          )}
        </div>
      </section>
    </div>
  );
}

/** What a phone's card shows; the rest is in a row's details. */
const COMPACT_COLUMNS: ReadonlySet<LogColumnId> = new Set(["time", "outcome", "key", "identity", "tags"]);

function EmptyLog({
  view,
  rangeText,
  viewHref,
}: {
  view: LogView;
  rangeText: string;
  viewHref: (view: LogView) => string;
}) {
  const wider = widerPresets(view.range);
  return (
    <div className="logs-page__empty" role="status">
      <p>
        <strong>No verifications</strong> {isFiltered(view) ? "match these filters" : "were recorded"} in {rangeText}.
      </p>
      <ul className="logs-page__widen">
        {wider.map((choice) => (
          <li key={choice.kind === "preset" ? choice.preset : "custom"}>
            <Link className="button" to={viewHref({ ...view, range: choice, row: undefined })}>
              Widen to the last {choice.kind === "preset" ? presetOf(choice.preset).label : "30 days"}
            </Link>
          </li>
        ))}
        {isFiltered(view) && (
          <li>
            <Link className="button" to={viewHref({ ...DEFAULT_VIEW, range: view.range })}>
              Clear the filters
            </Link>
          </li>
        )}
      </ul>
    </div>
  );
}

function LogFooter({
  loading,
  failed,
  more,
  count,
  onMore,
  renderError,
}: {
  loading: boolean;
  failed: unknown;
  more: boolean;
  count: number;
  onMore: () => void;
  renderError: (error: unknown, onRetry: () => void) => ReactNode;
}) {
  if (failed !== null) return <div className="log-table__footer">{renderError(failed, onMore)}</div>;
  return (
    <div className="log-table__footer">
      {loading ? (
        <p role="status">
          <Loading>Loading older verifications…</Loading>
        </p>
      ) : more ? (
        <button type="button" className="button button--small" onClick={onMore}>
          Load older verifications
        </button>
      ) : (
        <p>
          The end of the range: {formatCount(count)} {count === 1 ? "verification" : "verifications"}.
        </p>
      )}
    </div>
  );
}
