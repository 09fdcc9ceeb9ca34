import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQueries,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from "@tanstack/react-query";
import { isMissingOperationAt, learnMissingOperation } from "@/lib/access-memory";
import { runAnalytics } from "@/lib/analytics-query";
import { parseKeyRefusalsRows, parseUsageRows, type KeyRefusals, type UsageRow } from "@/lib/analytics-rows";
import { identityRefusalsQuery, identityUsageQuery, windowStart, type UsageWindow } from "@/lib/analytics-sql";
import { InvalidConnectionError } from "@/lib/api-errors";
import { getIdentity } from "@/lib/api/get-identity";
import { listIdentities, type IdentitiesPage } from "@/lib/api/list-identities";
import { listKeys } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { identityPermission, LIST_IDENTITIES_PATH, LIST_KEYS_PATH, type Key, type KeyIdentity } from "@/lib/contract";
import { rememberApi } from "@/lib/known-apis";
import { queryKeys } from "@/lib/query-keys";
import type { SectionRead } from "@/lib/section-access";
import { readSection } from "@/lib/section-read";

/** Identities asked for a page at a time: the services' most. */
export const IDENTITIES_PAGE_SIZE = 100;

/** How the Identities section is read, and what a root key needs for it. */
export const IDENTITIES_READ: SectionRead = {
  permissions: [identityPermission("read_identity")],
  operation: LIST_IDENTITIES_PATH,
};

export function identitiesQueryOptions(connection: Connection, search: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.identities.list(connection, search),
    queryFn: ({ pageParam, signal }): Promise<IdentitiesPage> => {
      const page = () =>
        listIdentities(connection, { cursor: pageParam ?? undefined, limit: IDENTITIES_PAGE_SIZE, search }, { signal });
      // The first page says whether the section may be read at all; a later page's refusal is that page's.
      return pageParam === null ? readSection(connection, "identities", IDENTITIES_READ, page) : page();
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? null,
  });
}

/** The workspace's identities whose id or external id holds `search`, a page at a time (the server searches). */
export function useIdentities(connection: Connection, search: string) {
  return useInfiniteQuery(identitiesQueryOptions(connection, search));
}

/** An identity as a list of this connection showed it, with when that list was read: the page starts from it. */
function listed(
  queryClient: QueryClient,
  connection: Connection,
  identityId: string,
): { identity: KeyIdentity; at: number } | undefined {
  const lists = queryClient.getQueriesData<InfiniteData<IdentitiesPage>>({
    queryKey: queryKeys.identities.lists(connection),
  });
  for (const [queryKey, data] of lists) {
    const identity = data?.pages.flatMap((page) => page.identities).find((each) => each.id === identityId);
    if (identity !== undefined) return { identity, at: queryClient.getQueryState(queryKey)?.dataUpdatedAt ?? 0 };
  }
  return undefined;
}

export function identityQueryOptions(connection: Connection, identityId: string) {
  return queryOptions({
    queryKey: queryKeys.identities.detail(connection, identityId),
    queryFn: async ({ signal }) => (await getIdentity(connection, identityId, { signal })).identity,
  });
}

/**
 * One identity, by its id. Opened from the list, the list's copy is shown at once (and asked again once stale), so
 * that its keys and verifications, which need its external id, are asked in the same round as the identity itself.
 */
export function useIdentity(connection: Connection, identityId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    ...identityQueryOptions(connection, identityId),
    initialData: () => listed(queryClient, connection, identityId)?.identity,
    initialDataUpdatedAt: () => listed(queryClient, connection, identityId)?.at,
  });
}

/** Where an identity's keys are looked for: one API (`apis.listKeys`), or the whole workspace (`keys.listKeys`). */
export interface KeySearch {
  /** null: the whole workspace. */
  apiId: string | null;
}

/** Pages of an identity's keys read at most, per place searched: 1,000 keys. */
const MAX_KEY_PAGES = 10;

export interface FoundKeys {
  keys: Key[];
  /** False when there were more than MAX_KEY_PAGES pages: the first ones are shown. */
  complete: boolean;
}

/**
 * Every key of `externalId` in one place, page after page. The whole workspace is asked with the seed's
 * `keys.listKeys` (the reference server has it; the real service does not, which is remembered: then only APIs are
 * searched); an API with `apis.listKeys` (or `keys.listKeys` with its id, where the former does not exist).
 */
async function keysOf(
  connection: Connection,
  externalId: string,
  apiId: string | null,
  signal: AbortSignal,
): Promise<FoundKeys> {
  const asked: Connection = { ...connection, apiId: apiId ?? undefined };
  const keys: Key[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_KEY_PAGES; page++) {
    try {
      const answer = await listKeys(asked, { externalId, cursor }, { signal });
      // It answered: the API exists, one of the session's (offered by Create key, searched on every identity's page).
      if (apiId !== null) rememberApi(connection, apiId);
      keys.push(...answer.keys);
      if (!answer.hasMore || answer.cursor === undefined) return { keys, complete: true };
      cursor = answer.cursor;
    } catch (error) {
      // keys.listKeys is not there and no API was named: the service lists keys per API only.
      if (apiId === null && error instanceof InvalidConnectionError) learnMissingOperation(connection, LIST_KEYS_PATH);
      throw error;
    }
  }
  return { keys, complete: false };
}

/** The places to search: the whole workspace first, unless the service was found to have no keys.listKeys. */
export function keySearches(connection: Connection, apiIds: readonly string[]): KeySearch[] {
  const workspace: KeySearch[] = isMissingOperationAt(connection, LIST_KEYS_PATH) ? [] : [{ apiId: null }];
  return [...workspace, ...apiIds.map((apiId) => ({ apiId }))];
}

/** An identity's keys in every place searched, all asked at once. */
export function useIdentityKeys(
  connection: Connection,
  externalId: string | undefined,
  searches: readonly KeySearch[],
) {
  return useQueries({
    queries: searches.map(({ apiId }) => ({
      queryKey: queryKeys.identities.keys(connection, externalId ?? "", apiId),
      queryFn: ({ signal }: { signal: AbortSignal }) => keysOf(connection, externalId ?? "", apiId, signal),
      enabled: externalId !== undefined,
      // A missing keys.listKeys or a refusal is an answer about this place, said beside it: not worth a retry.
      retry: false,
    })),
  });
}

/**
 * Its verifications per hour or day by outcome over the window. `externalId` undefined: not asked (the identity is on
 * its way, or its external id cannot be put in a query: `sqlString` says why).
 */
export function useIdentityUsage(connection: Connection, externalId: string | undefined, window: UsageWindow) {
  return useQuery({
    queryKey: queryKeys.identities.usage(connection, externalId ?? "", window),
    queryFn: ({ signal }): Promise<UsageRow[]> =>
      runAnalytics(connection, identityUsageQuery(externalId ?? "", window), parseUsageRows, { signal }),
    enabled: externalId !== undefined,
  });
}

/** Its refused verifications over the window by key and outcome, most first. */
export function useIdentityRefusals(connection: Connection, externalId: string | undefined, window: UsageWindow) {
  return useQuery({
    queryKey: queryKeys.identities.refusals(connection, externalId ?? "", window),
    // The window ends when it is asked.
    queryFn: ({ signal }): Promise<KeyRefusals[]> =>
      runAnalytics(
        connection,
        identityRefusalsQuery(externalId ?? "", windowStart(window, Date.now())),
        parseKeyRefusalsRows,
        { signal },
      ),
    enabled: externalId !== undefined,
  });
}
