import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from "@tanstack/react-query";
import { runAnalytics } from "@/lib/analytics-query";
import { parseBucketRows, parseLiveRows, parseLogRows, parseTopRows, type LogRow } from "@/lib/analytics-rows";
import { cursorPage, type CursorPage, type VerificationCursor } from "@/lib/analytics-sql";
import type { Connection, RequestOptions } from "@/lib/api/transport";
import {
  logChartQuery,
  logLiveQuery,
  logPageQuery,
  logRowQuery,
  logTopRefusedQuery,
  type LogFilter,
} from "@/lib/log-sql";
import type { Grain } from "@/lib/analytics-grain";
import { queryKeys } from "@/lib/query-keys";
import { recordQuery } from "../query-spend";

/** Rows a page of the log holds: a screen or three, one query each. */
export const LOG_PAGE_SIZE = 100;

/** Runs one of the page's analytics queries, counted in what the page says it spends. */
function ask<T>(
  connection: Connection,
  sql: string,
  parse: (rows: readonly unknown[]) => T,
  options: RequestOptions,
): Promise<T> {
  recordQuery(connection);
  return runAnalytics(connection, sql, parse, options);
}

export type LogPage = CursorPage<LogRow>;

export function logPagesOptions(connection: Connection, filter: LogFilter) {
  return infiniteQueryOptions({
    queryKey: queryKeys.logs.page(connection, filter),
    queryFn: async ({ pageParam, signal }): Promise<LogPage> =>
      cursorPage(
        await ask(
          connection,
          logPageQuery(filter, { after: pageParam ?? undefined, size: LOG_PAGE_SIZE }),
          parseLogRows,
          { signal },
        ),
        LOG_PAGE_SIZE,
      ),
    initialPageParam: null as VerificationCursor | null,
    getNextPageParam: (last) => last.next,
    // A range resolved a moment ago is not out of date: the page asks again on Refresh, never by itself.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The log, newest first, a page at a time; a failure stays on the query, shown where the rows would be. */
export function useLogPages(connection: Connection, filter: LogFilter) {
  return useInfiniteQuery(logPagesOptions(connection, filter));
}

export function logChartOptions(connection: Connection, filter: LogFilter, grain: Grain) {
  return queryOptions({
    queryKey: queryKeys.logs.chart(connection, filter, grain),
    queryFn: ({ signal }) => ask(connection, logChartQuery(filter, grain), parseBucketRows, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Verifications per bucket and outcome; the last answer stays drawn while a new range's comes. */
export function useLogChart(connection: Connection, filter: LogFilter, grain: Grain) {
  return useQuery({ ...logChartOptions(connection, filter, grain), placeholderData: keepPreviousData });
}

export function useTopRefused(connection: Connection, filter: LogFilter, grain: Grain) {
  return useQuery({
    queryKey: queryKeys.logs.top(connection, filter, grain),
    queryFn: ({ signal }) => ask(connection, logTopRefusedQuery(filter, grain), parseTopRows, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** One verification by its request id within the filter (a link to its details), when it is not among the rows loaded. */
export function useLogRow(connection: Connection, filter: LogFilter, requestId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.logs.row(connection, filter, requestId ?? ""),
    queryFn: async ({ signal }) =>
      (await ask(connection, logRowQuery(filter, requestId ?? ""), parseLogRows, { signal }))[0] ?? null,
    enabled: requestId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** How far back Live looks for verifications recorded late (with an earlier time than the newest shown). */
export const LIVE_LOOKBACK_MS = 30_000;
/** The most rows Live lists from one query; a burst beyond is said, not listed. */
export const LIVE_LIMIT = 500;

/** Live's one query: the newest verifications since `newest` (and a little before), and how many are newer. */
export function pollLive(
  connection: Connection,
  filter: Omit<LogFilter, "to">,
  newest: VerificationCursor,
  signal?: AbortSignal,
): Promise<{ rows: LogRow[]; newer: number }> {
  return ask(
    connection,
    logLiveQuery(filter, newest, { lookbackMs: LIVE_LOOKBACK_MS, limit: LIVE_LIMIT }),
    parseLiveRows,
    signal === undefined ? {} : { signal },
  );
}

/** Rows per query of an export: few queries (each one counts), each answer a few megabytes at most. */
export const EXPORT_PAGE_SIZE = 5_000;

export function exportPage(
  connection: Connection,
  filter: LogFilter,
  after: VerificationCursor | undefined,
  signal: AbortSignal,
): Promise<LogPage> {
  return ask(connection, logPageQuery(filter, { after, size: EXPORT_PAGE_SIZE }), parseLogRows, { signal }).then(
    (rows) => cursorPage(rows, EXPORT_PAGE_SIZE),
  );
}
