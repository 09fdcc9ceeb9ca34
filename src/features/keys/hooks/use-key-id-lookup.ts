import { useMemo } from "react";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { isKeyNotFound, lookupUnavailable, useKeyLookup } from "../api/get-key";
import { exactKeyId } from "../utils/key-view";

/**
 * An exact key id typed in the filter and not among the loaded keys is asked for directly (keys.getKey), not
 * searched page by page.
 */
export function useKeyIdLookup(connection: Connection, query: string, loadedMatches: readonly Key[]) {
  const typedId = exactKeyId(query);
  const keyId = typedId !== null && loadedMatches.length === 0 ? typedId : null;
  const lookup = useKeyLookup(connection, keyId);
  const found = keyId !== null && lookup.data?.keyId === keyId ? lookup.data : undefined;
  const matches = useMemo(() => (found === undefined ? loadedMatches : [found]), [found, loadedMatches]);
  return {
    /** The id asked for, or null when nothing is. */
    keyId,
    /** The key the API returned for it. */
    found,
    /** The loaded keys that match, or else the key found by its id. */
    matches,
    notFound: keyId !== null && isKeyNotFound(lookup.error),
    pending: keyId !== null && lookup.isPending,
    /** Nothing is asked, or the API cannot answer it: paging through the keys is the way left. */
    settledWithoutAnswer: keyId === null || lookupUnavailable(lookup.error),
  };
}

export type KeyIdLookup = ReturnType<typeof useKeyIdLookup>;
