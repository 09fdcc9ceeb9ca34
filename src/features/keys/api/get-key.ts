import { useQuery } from "@tanstack/react-query";
import { isMissingOperation } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { ApiError } from "@/lib/api-errors";
import { keyQueryOptions } from "@/lib/key-query";

/** `keys.getKey` for one exact id typed in the filter: found at once instead of paging through every key. */
export function useKeyLookup(connection: Connection, keyId: string | null) {
  return useQuery({
    ...keyQueryOptions(connection, keyId ?? ""),
    enabled: keyId !== null,
    throwOnError: false,
    staleTime: 30_000,
  });
}

/** The API answered that no key has this id. */
export function isKeyNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && !isMissingOperation(error);
}

/** The API has no `keys.getKey` (or may not use it): the filter falls back to paging through the keys. */
export function lookupUnavailable(error: unknown): boolean {
  return error !== null && !isKeyNotFound(error);
}
