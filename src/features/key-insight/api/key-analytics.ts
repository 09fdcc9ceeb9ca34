import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { UnexpectedResponseError } from "../../../lib/api-errors";
import { getVerifications } from "../../../lib/api/get-verifications";
import type { Connection } from "../../../lib/api/transport";
import { parseUsageRows, parseVerificationRows, WrongShapeError, type UsageRow, type Verification } from "../../../lib/analytics-rows";
import { REFUSALS_PAGE_SIZE, refusalsQuery, usageQuery, type UsageWindow } from "../../../lib/analytics-sql";
import { GET_VERIFICATIONS_PATH } from "../../../lib/contract";
import { connectionScope } from "./get-key";

/**
 * Runs one analytics query and parses its rows; rows of the wrong shape become an UnexpectedResponseError
 * naming the row and field, so the page says why where the numbers would be.
 */
async function runQuery<T>(
  connection: Connection,
  sql: string,
  parse: (rows: readonly unknown[]) => T,
  signal: AbortSignal,
): Promise<T> {
  const { rows, requestId } = await getVerifications(connection, sql, { signal });
  try {
    return parse(rows);
  } catch (error) {
    if (!(error instanceof WrongShapeError)) throw error;
    throw new UnexpectedResponseError({
      status: 200,
      contentType: "application/json",
      reason: "not-envelope",
      bodyExcerpt: `The analytics rows are not what the query asked for. ${error.message}`,
      requestId,
      url: `${connection.baseUrl}${GET_VERIFICATIONS_PATH}`,
    });
  }
}

export function usageQueryOptions(connection: Connection, keyId: string, window: UsageWindow) {
  return queryOptions({
    queryKey: ["analytics", "usage", { ...connectionScope(connection), keyId, window }] as const,
    queryFn: ({ signal }): Promise<UsageRow[]> => runQuery(connection, usageQuery(keyId, window), parseUsageRows, signal),
  });
}

/** A key's verifications per hour or day by outcome; a failure stays on the query, shown where the chart would be. */
export function useKeyUsage(connection: Connection, keyId: string, window: UsageWindow, enabled = true) {
  return useQuery({ ...usageQueryOptions(connection, keyId, window), enabled });
}

export interface RefusalsPage {
  items: Verification[];
  nextOffset: number | undefined;
}

export function refusalsQueryOptions(connection: Connection, keyId: string, tagLiteral: string | undefined) {
  return infiniteQueryOptions({
    queryKey: ["analytics", "refusals", { ...connectionScope(connection), keyId, tag: tagLiteral ?? null }] as const,
    queryFn: async ({ pageParam, signal }): Promise<RefusalsPage> => {
      const rows = await runQuery(connection, refusalsQuery(keyId, { offset: pageParam, tagLiteral }), parseVerificationRows, signal);
      return {
        items: rows.slice(0, REFUSALS_PAGE_SIZE),
        nextOffset: rows.length > REFUSALS_PAGE_SIZE ? pageParam + REFUSALS_PAGE_SIZE : undefined,
      };
    },
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset,
  });
}

/** A key's refused verifications, newest first, a page at a time. */
export function useRefusals(connection: Connection, keyId: string, tagLiteral: string | undefined, enabled = true) {
  return useInfiniteQuery({ ...refusalsQueryOptions(connection, keyId, tagLiteral), enabled });
}
