import { queryOptions, useQuery } from "@tanstack/react-query";
import { getKey } from "../../../lib/api/get-key";
import type { Connection } from "../../../lib/api/transport";
import { fingerprint } from "../../../lib/fingerprint";

/** The connection's part of every key-insight query key: the API key only as a fingerprint. */
export function connectionScope(connection: Connection) {
  return { baseUrl: connection.baseUrl, apiId: connection.apiId ?? null, keyFingerprint: fingerprint(connection.apiKey) };
}

export function keyQueryOptions(connection: Connection, keyId: string) {
  return queryOptions({
    queryKey: ["keys", "get", { ...connectionScope(connection), keyId }] as const,
    queryFn: async ({ signal }) => (await getKey(connection, keyId, { signal })).key,
  });
}

/** One key's fields; a first load that fails goes to the page's error boundary (a panel with the fix). */
export function useKey(connection: Connection, keyId: string) {
  return useQuery({ ...keyQueryOptions(connection, keyId), throwOnError: (_error, query) => query.state.data === undefined });
}
