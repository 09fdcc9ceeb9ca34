import { useQuery } from "@tanstack/react-query";
import type { Connection } from "@/lib/api/transport";
import { keyQueryOptions } from "@/lib/key-query";

/** One key's fields; a first load that fails goes to the page's error boundary (a panel with the fix). */
export function useKey(connection: Connection, keyId: string) {
  return useQuery({
    ...keyQueryOptions(connection, keyId),
    throwOnError: (_error, query) => query.state.data === undefined,
  });
}
