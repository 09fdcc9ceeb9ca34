import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { describe, expect, test } from "vitest";
import type { Connection } from "@/lib/api/transport";
import { connectionScope, connectionScopeId, isScopeOf } from "@/lib/connection-scope";
import { listedBy, queryKeys } from "@/lib/query-keys";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };
const otherRootKey: Connection = { ...connection, apiKey: "ks_root_AnotherKeyAltogether000" };
const otherBaseUrl: Connection = { ...connection, baseUrl: "https://eu.api.example.com" };

const LOG_FILTER = { from: 1, to: 2, outcomes: ["VALID"], keyIds: [], tag: { match: "is" as const, value: "a" } };

/** One key of every kind the factory makes: a kind added to it and missing here fails the first test. */
const everyKind: Record<string, (connection: Connection) => QueryKey> = {
  "keys.all": () => queryKeys.keys.all(),
  "keys.lists": () => queryKeys.keys.lists(),
  "keys.list": (c) => queryKeys.keys.list(c, { externalId: "user_1" }),
  "keys.byExternalId": (c) => queryKeys.keys.byExternalId(c, "user_1"),
  "keys.detail": (c) => queryKeys.keys.detail(c, "key_1"),
  "keys.usage": (c) => queryKeys.keys.usage(c, ["key_1", "key_2"]),
  "keys.usages": (c) => queryKeys.keys.usages(c),
  "keys.usageTotals": (c) => queryKeys.keys.usageTotals(c, ["key_1", "key_2"]),
  "analytics.usage": (c) => queryKeys.analytics.usage(c, "key_1", "24h"),
  "analytics.refusals": (c) => queryKeys.analytics.refusals(c, "key_1", "'path=/'"),
  "analytics.request": (c) => queryKeys.analytics.request(c, "req_1"),
  "logs.page": (c) => queryKeys.logs.page(c, LOG_FILTER),
  "logs.chart": (c) => queryKeys.logs.chart(c, LOG_FILTER, "hour"),
  "logs.top": (c) => queryKeys.logs.top(c, LOG_FILTER, "hour"),
  "logs.row": (c) => queryKeys.logs.row(c, LOG_FILTER, "req_1"),
  "ratelimits.overrides": (c) => queryKeys.ratelimits.overrides(c, "api.requests"),
  "ratelimits.chart": (c) => queryKeys.ratelimits.chart(c, { namespaceId: "rlns_1", from: 1, to: 2 }, "hour"),
  "ratelimits.blocked": (c) => queryKeys.ratelimits.blocked(c, { namespaceId: "rlns_1", from: 1, to: 2 }, "hour"),
  "ratelimits.namespaceId": (c) => queryKeys.ratelimits.namespaceId(c, "api.requests", ["rlor_1"]),
  "apis.detail": (c) => queryKeys.apis.detail(c, "api_1"),
  "apis.mayCreateKey": (c) => queryKeys.apis.mayCreateKey(c, "api_1", true),
  "identities.list": (c) => queryKeys.identities.list(c, "user"),
  "identities.lists": (c) => queryKeys.identities.lists(c),
  "identities.detail": (c) => queryKeys.identities.detail(c, "id_1"),
  "identities.keys": (c) => queryKeys.identities.keys(c, "user_1", "api_1"),
  "identities.usage": (c) => queryKeys.identities.usage(c, "user_1", "24h"),
  "identities.refusals": (c) => queryKeys.identities.refusals(c, "user_1", "24h"),
  "identities.may": (c) => queryKeys.identities.may(c, "update_identity"),
  "permissions.all": () => queryKeys.permissions.all(),
  "permissions.list": (c) => queryKeys.permissions.list(c, "documents"),
  "permissions.detail": (c) => queryKeys.permissions.detail(c, "perm_1"),
  "roles.all": () => queryKeys.roles.all(),
  "roles.list": (c) => queryKeys.roles.list(c, "admin"),
  "roles.detail": (c) => queryKeys.roles.detail(c, "role_1"),
};
/** The filters that span every connection (a change here may show in another root key's list of the same workspace). */
const ACROSS_CONNECTIONS = new Set(["keys.all", "keys.lists", "permissions.all", "roles.all"]);

describe("the query keys", () => {
  test("every kind of key the factory makes holds the connection's scope and never the root key", () => {
    const made = Object.entries(queryKeys).flatMap(([resource, kinds]) =>
      Object.keys(kinds).map((kind) => `${resource}.${kind}`),
    );
    expect(Object.keys(everyKind).sort()).toEqual(made.sort());
    for (const [kind, keyOf] of Object.entries(everyKind)) {
      const key = keyOf(connection);
      expect(JSON.stringify(key), kind).not.toContain(connection.apiKey);
      if (ACROSS_CONNECTIONS.has(kind)) continue;
      expect(key[2], kind).toMatchObject(connectionScope(connection));
      expect(keyOf(otherRootKey), kind).not.toEqual(key);
      expect(keyOf(otherBaseUrl), kind).not.toEqual(key);
    }
  });

  test("a list's key holds the API it is asked for; one key's does not, since keys.getKey does not send it", () => {
    const withApi = { ...connection, apiId: "api_7Hb2" };
    expect(queryKeys.keys.list(withApi, {})).not.toEqual(queryKeys.keys.list(connection, {}));
    expect(queryKeys.keys.detail(withApi, "key_1")).toEqual(queryKeys.keys.detail(connection, "key_1"));
  });

  test("a connection's filter finds its own queries of that kind and no other connection's", () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.keys.usage(connection, ["key_1"]), "mine");
    client.setQueryData(queryKeys.keys.usage(connection, ["key_2"]), "mine too");
    client.setQueryData(queryKeys.keys.usage(otherRootKey, ["key_1"]), "another root key's");
    client.setQueryData(queryKeys.keys.usageTotals(connection, ["key_1"]), "another kind");
    const found = client
      .getQueriesData<string>({ queryKey: queryKeys.keys.usages(connection) })
      .map(([, data]) => data);
    expect(found.sort()).toEqual(["mine", "mine too"]);
  });

  test("what a list's key says it lists is read back from the key the factory made, and from nothing else", () => {
    expect(listedBy(queryKeys.keys.list({ ...connection, apiId: " api_1 " }, { externalId: "user_1" }))).toEqual({
      scope: connectionScope(connection),
      apiId: "api_1",
      externalId: "user_1",
    });
    expect(listedBy(queryKeys.keys.list(connection, { externalId: "" }))).toEqual({
      scope: connectionScope(connection),
      apiId: undefined,
      externalId: undefined,
    });
    expect(listedBy(queryKeys.keys.detail(connection, "key_1"))).toBeUndefined();
    expect(listedBy(queryKeys.keys.lists())).toBeUndefined();
  });
});

describe("the connection's scope", () => {
  test("is the base URL and a fingerprint of the root key, the same for the same connection, another for another", () => {
    expect(connectionScope(connection).baseUrl).toBe(connection.baseUrl);
    expect(connectionScopeId(connection)).not.toContain(connection.apiKey);
    expect(connectionScopeId({ ...connection })).toBe(connectionScopeId(connection));
    expect(connectionScopeId({ ...connection, apiId: "api_1" })).toBe(connectionScopeId(connection));
    expect(connectionScopeId(otherRootKey)).not.toBe(connectionScopeId(connection));
    expect(connectionScopeId(otherBaseUrl)).not.toBe(connectionScopeId(connection));
    expect(isScopeOf(connectionScope(connection), { ...connection })).toBe(true);
    expect(isScopeOf(connectionScope(otherRootKey), connection)).toBe(false);
  });
});
