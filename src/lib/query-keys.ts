import type { QueryKey } from "@tanstack/react-query";
import * as v from "valibot";
import type { UsageWindow } from "./analytics-sql";
import type { ListKeysParams } from "./api/list-keys";
import type { Connection } from "./api/transport";
import { connectionScope, type ConnectionScope } from "./connection-scope";
import { fingerprint } from "./fingerprint";
import type { Grain } from "./analytics-grain";
import type { LogFilter } from "./log-sql";
import type { NamespaceRange } from "./ratelimit-sql";

/**
 * Every query key of the dashboard, made here and nowhere else (TanStack Query's "Effective React Query Keys"): what
 * reads a query, sets its data or invalidates it asks this module for its key or for a filter of keys.
 *
 * Every key is `[resource, kind, { baseUrl, keyFingerprint, …what the query reads }]`: the connection's scope
 * (./connection-scope.ts, the root key only as a fingerprint) and every variable the query's function reads, so
 * that two connections, or two filters, never share an answer. A filter of fewer fields matches every key that has
 * them (TanStack compares a key's object field by field), so `[resource, kind, scope]` is "all of that kind for
 * this connection". A new page's queries are a new resource here: `identities`, `ratelimitNamespaces`, `logs`, and the
 * catalogue's `permissions` and `roles`.
 */

function scoped<const Resource extends string, const Kind extends string, Params extends object>(
  resource: Resource,
  kind: Kind,
  connection: Connection,
  params: Params,
) {
  return [resource, kind, { ...connectionScope(connection), ...params }] as const;
}

/** Every query of one kind for one connection, whatever else its key holds. */
function ofConnection<const Resource extends string, const Kind extends string>(
  resource: Resource,
  kind: Kind,
  connection: Connection,
) {
  return [resource, kind, connectionScope(connection)] as const;
}

export const queryKeys = {
  keys: {
    /** Every keys query of every connection. */
    all: () => ["keys"] as const,
    /**
     * Every list of keys of every connection: another root key of the same workspace lists the same keys, so a
     * change made here shows (or is asked again) there too.
     */
    lists: () => ["keys", "list"] as const,
    /** One list: the connection's API picks the operation and filters it (lib/api/list-keys.ts). */
    list: (connection: Connection, params: ListKeysParams) =>
      scoped("keys", "list", connection, { apiId: connection.apiId ?? null, ...params }),
    /** The first page of an identity's keys (the keys page's search by external id): not a list the key caches follow. */
    byExternalId: (connection: Connection, externalId: string) =>
      scoped("keys", "by-external-id", connection, { apiId: connection.apiId ?? null, externalId }),
    /** One key by its id (`keys.getKey` does not send the connection's API). */
    detail: (connection: Connection, keyId: string) => scoped("keys", "get", connection, { keyId }),
    /** The usage bars of a set of keys (the rows in view). */
    usage: (connection: Connection, keyIds: readonly string[]) => scoped("keys", "usage", connection, { keyIds }),
    usages: (connection: Connection) => ofConnection("keys", "usage", connection),
    /** One chunk of the loaded keys' usage totals, by a fingerprint of its ids (thousands of them). */
    usageTotals: (connection: Connection, keyIds: readonly string[]) =>
      scoped("keys", "usage-totals", connection, { ids: `${keyIds.length}:${fingerprint(keyIds.join(" "))}` }),
  },
  analytics: {
    /** A key's verifications per hour or day by outcome. */
    usage: (connection: Connection, keyId: string, window: UsageWindow) =>
      scoped("analytics", "usage", connection, { keyId, window }),
    /** A key's refused verifications, paged; `tag`: the SQL literal of the tag filter. */
    refusals: (connection: Connection, keyId: string, tag: string | null) =>
      scoped("analytics", "refusals", connection, { keyId, tag }),
    /** The verification recorded under a request id. */
    request: (connection: Connection, requestId: string) => scoped("analytics", "request", connection, { requestId }),
  },
  logs: {
    /** The log's pages, newest first, for one filter (its range resolved to instants). */
    page: (connection: Connection, filter: LogFilter) => scoped("logs", "page", connection, { filter }),
    /** Verifications per bucket and outcome for the chart (and the overview's counts). */
    chart: (connection: Connection, filter: LogFilter, grain: Grain) =>
      scoped("logs", "chart", connection, { filter, grain }),
    /** The keys and identities with the most refusals. */
    top: (connection: Connection, filter: LogFilter, grain: Grain) =>
      scoped("logs", "top", connection, { filter, grain }),
    /** One verification by its request id, within the filter (a link to a row's details). */
    row: (connection: Connection, filter: LogFilter, requestId: string) =>
      scoped("logs", "row", connection, { filter, requestId }),
  },
  ratelimits: {
    /** A namespace's overrides, a page at a time (`namespace`: its name or id, as the page names it). */
    overrides: (connection: Connection, namespace: string) =>
      scoped("ratelimits", "overrides", connection, { namespace }),
    /** A namespace's decisions per bucket, passed and blocked. */
    chart: (connection: Connection, range: NamespaceRange, grain: Grain) =>
      scoped("ratelimits", "chart", connection, { range, grain }),
    /** The identifiers a namespace blocked most, with their latest decision. */
    blocked: (connection: Connection, range: NamespaceRange, grain: Grain) =>
      scoped("ratelimits", "blocked", connection, { range, grain }),
    /** The id of the namespace that applied one of these overrides (its history reads ids, not names). */
    namespaceId: (connection: Connection, namespace: string, overrideIds: readonly string[]) =>
      scoped("ratelimits", "namespace-id", connection, { namespace, overrideIds }),
  },
  apis: {
    /** `apis.getApi`. */
    detail: (connection: Connection, apiId: string | null) => scoped("apis", "get", connection, { apiId }),
    /** Whether the root key may create keys in the API (the createKey probe); `exists`: the API is known to. */
    mayCreateKey: (connection: Connection, apiId: string | null, exists: boolean) =>
      scoped("apis", "may-create-key", connection, { apiId, exists }),
  },
  permissions: {
    /**
     * Every query of the workspace's permissions, of every connection: another root key of the same workspace reads
     * the same catalogue, so a change made here is asked again there too.
     */
    all: () => ["permissions"] as const,
    /** The pages of the permissions a search finds (part of an id, name, slug or description; "" lists them all). */
    list: (connection: Connection, search: string) => scoped("permissions", "list", connection, { search }),
    /** One permission by its id or slug. */
    detail: (connection: Connection, permission: string) => scoped("permissions", "get", connection, { permission }),
  },
  roles: {
    /** Every query of the workspace's roles, of every connection (as `permissions.all`). */
    all: () => ["roles"] as const,
    /** The pages of the roles a search finds (part of an id, name or description; "" lists them all). */
    list: (connection: Connection, search: string) => scoped("roles", "list", connection, { search }),
    /** One role by its id or name, with its permissions. */
    detail: (connection: Connection, role: string) => scoped("roles", "get", connection, { role }),
  },
  identities: {
    /** The pages of the workspace's identities whose id or external id holds `search` (the server matches it). */
    list: (connection: Connection, search: string) => scoped("identities", "list", connection, { search }),
    /** Every list of identities of the connection: a change made here asks them again. */
    lists: (connection: Connection) => ofConnection("identities", "list", connection),
    /** One identity, by its id. */
    detail: (connection: Connection, identityId: string) => scoped("identities", "get", connection, { identityId }),
    /** An identity's keys in one API (`apis.listKeys`), or in the whole workspace (`keys.listKeys`: `apiId` null). */
    keys: (connection: Connection, externalId: string, apiId: string | null) =>
      scoped("identities", "keys", connection, { externalId, apiId }),
    /** Its verifications per hour or day by outcome. */
    usage: (connection: Connection, externalId: string, window: UsageWindow) =>
      scoped("identities", "usage", connection, { externalId, window }),
    /** Its refused verifications by key and outcome over a window. */
    refusals: (connection: Connection, externalId: string, window: UsageWindow) =>
      scoped("identities", "refusals", connection, { externalId, window }),
    /** Whether the root key may take an action on identities (a probe), found out before its form. */
    may: (connection: Connection, action: string) => scoped("identities", "may", connection, { action }),
  },
};

/** What a list's key holds beyond its kind (see `queryKeys.keys.list`). */
const ListedBySchema = v.looseObject({
  baseUrl: v.string(),
  keyFingerprint: v.string(),
  apiId: v.nullish(v.string()),
  externalId: v.optional(v.string()),
});

/** What a list's key says it lists (read back from a key `queryKeys.keys.list` made). */
export interface ListedBy {
  scope: ConnectionScope;
  /** The API it lists, trimmed; undefined: every key of the workspace (the reference server). */
  apiId: string | undefined;
  /** Its externalId filter, when it has one. */
  externalId: string | undefined;
}

export function listedBy(queryKey: QueryKey): ListedBy | undefined {
  const [resource, kind] = queryKeys.keys.lists();
  if (queryKey[0] !== resource || queryKey[1] !== kind) return undefined;
  const parsed = v.safeParse(ListedBySchema, queryKey[2]);
  if (!parsed.success) return undefined;
  const { baseUrl, keyFingerprint, apiId, externalId } = parsed.output;
  return {
    scope: { baseUrl, keyFingerprint },
    apiId: apiId?.trim() || undefined,
    externalId: externalId === "" ? undefined : externalId,
  };
}
