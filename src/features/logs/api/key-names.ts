import { useQueries, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { listKeys, type KeysPage } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { isKeyId } from "@/lib/analytics-sql";
import { isScopeOf } from "@/lib/connection-scope";
import type { Key } from "@/lib/contract";
import { keyQueryOptions } from "@/lib/key-query";
import { listedBy, queryKeys } from "@/lib/query-keys";

/** What the log knows of a key it names by id. */
export type KeyName =
  | { state: "found"; name: string | undefined }
  /** Being asked for. */
  | { state: "loading" }
  /** Not found (deleted, another workspace's) or not readable by this root key: the id is all there is. */
  | { state: "unknown" };

/** How many keys the log asks names for at once: the rows in view, the overview and the open row. */
const MAX_LOOKUPS = 60;
/** A key's name changes rarely: asked again after this long. */
const NAME_STALE_MS = 5 * 60_000;

function isKeysPages(data: unknown): data is { pages: KeysPage[] } {
  return typeof data === "object" && data !== null && "pages" in data && Array.isArray(data.pages);
}

/** Every key the keys page (or any list of keys) has loaded for this connection, by id. */
export function listedKeys(queryClient: QueryClient, connection: Connection): Map<string, Key> {
  const keys = new Map<string, Key>();
  for (const [queryKey, data] of queryClient.getQueriesData({ queryKey: queryKeys.keys.lists() })) {
    const listed = listedBy(queryKey);
    if (listed === undefined || !isScopeOf(listed.scope, connection) || !isKeysPages(data)) continue;
    for (const page of data.pages) for (const key of page.keys) keys.set(key.keyId, key);
  }
  return keys;
}

/**
 * The names of the keys `keyIds` names: those the keys list has loaded at once, the others by `keys.getKey` (one
 * request each, kept five minutes, shared with the key's page; no analytics query).
 */
export function useKeyNames(connection: Connection, keyIds: readonly string[]): ReadonlyMap<string, KeyName> {
  const queryClient = useQueryClient();
  const wanted = useMemo(() => [...new Set(keyIds)].filter(isKeyId).slice(0, MAX_LOOKUPS), [keyIds]);
  const listed = useMemo(() => listedKeys(queryClient, connection), [queryClient, connection]);
  const asked = wanted.filter((keyId) => !listed.has(keyId));
  const answers = useQueries({
    queries: asked.map((keyId) => ({
      ...keyQueryOptions(connection, keyId),
      staleTime: NAME_STALE_MS,
      retry: false,
    })),
  });
  const names = new Map<string, KeyName>();
  for (const keyId of wanted) {
    const key = listed.get(keyId);
    if (key !== undefined) names.set(keyId, { state: "found", name: key.name });
  }
  for (const [index, keyId] of asked.entries()) {
    const answer = answers[index];
    if (answer?.data !== undefined) names.set(keyId, { state: "found", name: answer.data.name });
    else names.set(keyId, answer?.isPending === true ? { state: "loading" } : { state: "unknown" });
  }
  return names;
}

/**
 * The keys of the connection whose name is `name` (or whose id starts so): the loaded ones first, then the
 * connection's list, page by page, up to `maxPages` pages. For the key filter, which puts key ids in the URL.
 */
export async function findKeysByName(
  queryClient: QueryClient,
  connection: Connection,
  name: string,
  { maxPages = 10, signal }: { maxPages?: number; signal?: AbortSignal } = {},
): Promise<{ keys: Key[]; searched: number; complete: boolean }> {
  const wanted = name.trim().toLowerCase();
  const matching = (keys: Iterable<Key>) => [...keys].filter((key) => (key.name ?? "").trim().toLowerCase() === wanted);
  const loaded = matching(listedKeys(queryClient, connection).values());
  if (loaded.length > 0) return { keys: loaded, searched: loaded.length, complete: false };
  const found: Key[] = [];
  let searched = 0;
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await listKeys(connection, { cursor, limit: 100 }, signal === undefined ? {} : { signal });
    searched += answer.keys.length;
    found.push(...matching(answer.keys));
    if (!answer.hasMore || answer.cursor === undefined) return { keys: found, searched, complete: true };
    if (found.length > 0) break;
    cursor = answer.cursor;
  }
  return { keys: found, searched, complete: false };
}
