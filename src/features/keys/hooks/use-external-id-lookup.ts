import { queryOptions, useQueries } from "@tanstack/react-query";
import { useMemo } from "react";
import { listKeys } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { useSettled } from "@/lib/hooks/use-settled";
import { queryKeys } from "@/lib/query-keys";

/** How long typing must pause before the server is asked. */
const SETTLE_MS = 300;
/** The identity's keys asked for: one page. */
const LIMIT = 100;

/** One word of at most 255 characters: what an external id looks like (a key's name, with spaces, is not asked for). */
function plausibleExternalId(text: string): boolean {
  return /^\S{1,255}$/.test(text);
}

function externalIdQueryOptions(connection: Connection, externalId: string) {
  return queryOptions({
    queryKey: queryKeys.keys.byExternalId(connection, externalId),
    queryFn: ({ signal }) => listKeys(connection, { externalId, limit: LIMIT }, { signal }),
  });
}

/**
 * The filter's text asked of the server as an external id when the connection names its API (`apis.listKeys` with
 * `externalId`): an identity's keys may be anywhere in a list of thousands, not only among the loaded ones. Asked once
 * typing pauses, each text once (kept as any answer is); the keys found join the loaded matches. Nothing is asked, and
 * nothing kept, while there is no such text.
 */
export function useExternalIdLookup(connection: Connection, query: string, loadedMatches: readonly Key[]) {
  const apiKnown = (connection.apiId?.trim() ?? "") !== "";
  const settled = useSettled(query, SETTLE_MS);
  const externalId = apiKnown && settled === query && plausibleExternalId(query) ? query : null;
  const asked: ReturnType<typeof externalIdQueryOptions>[] =
    externalId === null ? [] : [externalIdQueryOptions(connection, externalId)];
  const [lookup] = useQueries({ queries: asked });
  const found = lookup?.data?.keys;
  const matches = useMemo(() => {
    if (found === undefined || found.length === 0) return loadedMatches;
    const loaded = new Set(loadedMatches.map((key) => key.keyId));
    return [...loadedMatches, ...found.filter((key) => !loaded.has(key.keyId))];
  }, [found, loadedMatches]);
  return {
    /** The external id asked for, or null (no API known, typing, or not one word). */
    externalId,
    /** The keys the server listed for it (undefined until it answered). */
    found,
    /** The loaded keys that match, and those of the identity that are not loaded. */
    matches,
    /** How many of the identity's keys are not among the loaded ones. */
    added: matches.length - loadedMatches.length,
    /** The text is being typed, or its answer is on its way: paging through every key would be premature. */
    pending: apiKnown && plausibleExternalId(query) && (settled !== query || lookup?.isPending === true),
    /** The identity has more keys than the page asked for. */
    hasMore: lookup?.data?.hasMore === true,
    /** Why the server could not be asked (the loaded keys are still matched). */
    error: lookup?.error ?? null,
  };
}

export type ExternalIdLookup = ReturnType<typeof useExternalIdLookup>;
