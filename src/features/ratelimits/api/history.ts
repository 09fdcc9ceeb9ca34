import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Grain } from "@/lib/analytics-grain";
import { runAnalytics } from "@/lib/analytics-query";
import { parseBlockedRows, parseNamespaceIdRows, parseRatelimitBucketRows } from "@/lib/analytics-rows";
import { RATELIMIT_ANALYTICS } from "@/lib/api/get-ratelimits";
import type { Connection } from "@/lib/api/transport";
import { queryKeys } from "@/lib/query-keys";
import {
  namespaceOfOverridesQuery,
  ratelimitChartQuery,
  ratelimitTopBlockedQuery,
  type NamespaceRange,
} from "@/lib/ratelimit-sql";
import { RETENTION_DAYS } from "@/lib/time-range";
import { learnNamespaceId, namespaceKey } from "../known-namespaces";
import { learnAllowed, learnFromError } from "../refusals";

const DAY_MS = 86_400_000;

/** One analytics query of the namespace's: a refusal of `read_analytics` is remembered (and names the namespace's id). */
async function ask<T>(
  connection: Connection,
  namespace: string,
  sql: string,
  parse: (rows: readonly unknown[]) => T,
  signal: AbortSignal,
): Promise<T> {
  try {
    const answer = await runAnalytics(connection, sql, parse, { signal }, RATELIMIT_ANALYTICS);
    learnAllowed(connection, "read_analytics", namespace);
    return answer;
  } catch (error) {
    learnFromError(connection, "read_analytics", namespace, error);
    throw error;
  }
}

/**
 * The namespace's decisions per bucket and the identifiers it blocked most: two queries, started together (the range
 * is resolved once, so neither asks again by itself); the last answers stay drawn while a new range's come.
 */
export function useNamespaceHistory(
  connection: Connection,
  namespace: string,
  range: NamespaceRange | undefined,
  grain: Grain,
) {
  const name = namespaceKey(namespace);
  const chart = useQuery({
    queryKey: queryKeys.ratelimits.chart(connection, range ?? { namespaceId: "", from: 0, to: 0 }, grain),
    queryFn: ({ signal }) =>
      ask(connection, name, ratelimitChartQuery(range ?? never(), grain), parseRatelimitBucketRows, signal),
    enabled: range !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  const blocked = useQuery({
    queryKey: queryKeys.ratelimits.blocked(connection, range ?? { namespaceId: "", from: 0, to: 0 }, grain),
    queryFn: ({ signal }) =>
      ask(connection, name, ratelimitTopBlockedQuery(range ?? never(), grain), parseBlockedRows, signal),
    enabled: range !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  return { chart, blocked };
}

function never(): never {
  throw new Error("the query runs only with a range");
}

/**
 * The id of the namespace whose decisions applied one of its overrides (`overrideIds`, from listOverrides), in the
 * retention: how a namespace known by name finds its id, which its history needs. Learnt once found.
 */
export function useNamespaceIdLookup(
  connection: Connection,
  namespace: string,
  overrideIds: readonly string[],
  enabled: boolean,
) {
  const name = namespaceKey(namespace);
  return useQuery({
    queryKey: queryKeys.ratelimits.namespaceId(connection, name, overrideIds),
    queryFn: async ({ signal }) => {
      // A day inside the retention, so that the server's clock running ahead never puts the start outside it.
      const since = Date.now() - (RETENTION_DAYS - 1) * DAY_MS;
      const id = await ask(
        connection,
        name,
        namespaceOfOverridesQuery(overrideIds, since),
        parseNamespaceIdRows,
        signal,
      );
      if (id !== undefined) learnNamespaceId(connection, name, id);
      return id ?? null;
    },
    enabled: enabled && overrideIds.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
