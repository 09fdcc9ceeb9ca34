import { useQuery } from "@tanstack/react-query";
import type { Connection } from "@/lib/api/transport";
import { fingerprint } from "@/lib/fingerprint";
import { keyQueryOptions } from "@/lib/key-query";

/** The connection's part of every key-insight query key: the API key only as a fingerprint. */
export function connectionScope(connection: Connection) {
  return {
    baseUrl: connection.baseUrl,
    apiId: connection.apiId ?? null,
    keyFingerprint: fingerprint(connection.apiKey),
  };
}

/** One key's fields; a first load that fails goes to the page's error boundary (a panel with the fix). */
export function useKey(connection: Connection, keyId: string) {
  return useQuery({
    ...keyQueryOptions(connection, keyId),
    throwOnError: (_error, query) => query.state.data === undefined,
  });
}
