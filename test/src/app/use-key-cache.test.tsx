import { QueryClient, QueryClientProvider, useQuery, type InfiniteData } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { expect, test, vi } from "vitest";
import { keyChangeApplier, useKeyCache } from "@/app/use-key-cache";
import { useKeyLookup } from "@/features/keys/api/get-key";
import { keyQueryOptions } from "@/lib/key-query";
import type { KeysPage } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { connectionScopeId } from "@/lib/connection-scope";
import { queryKeys } from "@/lib/query-keys";
import { freshQueryClientPerTest } from "../support/query-tests";

const queryClient = freshQueryClientPerTest();
const connection: Connection = {
  baseUrl: "https://api.example.com",
  apiKey: "ks_root_S3cretK3yValue9876543210",
  apiId: "api_1",
};

const page = (keys: Key[], cursor?: string): KeysPage => ({
  keys,
  cursor,
  hasMore: cursor !== undefined,
  requestId: null,
});
const pages = (...list: KeysPage[]): InfiniteData<KeysPage> => ({
  pages: list,
  pageParams: list.map((_, index) => (index === 0 ? undefined : `c${index}`)),
});

function useCache() {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>
  );
  return renderHook(() => useKeyCache(connection), { wrapper }).result.current;
}

/** The new key's own fetch is refused (it is then listed by its id alone); a 4xx is not retried. */
function keyNotFetchable() {
  const refused = {
    meta: { requestId: "req_1" },
    error: {
      status: 404,
      title: "Not Found",
      detail: "no such key",
      type: "https://unkey.com/docs/errors/unkey/data/key_not_found",
    },
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify(refused), { status: 404, headers: { "content-type": "application/json" } }),
      ),
    ),
  );
}

const idsOf = (queryKey: readonly unknown[]) =>
  queryClient()
    .getQueryData<InfiniteData<KeysPage>>(queryKey)
    ?.pages.map((shown) => shown.keys.map((key) => key.keyId));

test("a created key is added to the lists of its connection and API without an externalId filter; the others reload", async () => {
  keyNotFetchable();
  const same = queryKeys.keys.list(connection, {});
  const byExternalId = queryKeys.keys.list(connection, { externalId: "user_1" });
  const otherApi = queryKeys.keys.list({ ...connection, apiId: "api_2" }, {});
  const otherRootKey = queryKeys.keys.list({ ...connection, apiKey: "ks_root_AnotherKeyAltogether000" }, {});
  for (const queryKey of [same, byExternalId, otherApi, otherRootKey])
    queryClient().setQueryData(queryKey, pages(page([{ keyId: "key_old" }])));
  const cache = useCache();

  await cache.keyCreated("key_new", "api_1");

  expect(idsOf(same)).toEqual([["key_new", "key_old"]]);
  for (const queryKey of [byExternalId, otherApi, otherRootKey]) {
    expect(idsOf(queryKey)).toEqual([["key_old"]]);
    expect(queryClient().getQueryState(queryKey)?.isInvalidated).toBe(true);
  }
  expect(queryClient().getQueryState(same)?.isInvalidated).toBe(false);
});

test("a key created in another API than the connection's is not added to the connection's list", async () => {
  keyNotFetchable();
  const same = queryKeys.keys.list(connection, {});
  queryClient().setQueryData(same, pages(page([{ keyId: "key_old" }])));

  await useCache().keyCreated("key_new", "api_9");

  expect(idsOf(same)).toEqual([["key_old"]]);
  expect(queryClient().getQueryState(same)?.isInvalidated).toBe(true);
});

test("undoing a refused change puts back that key's patched fields only: pages loaded since and other keys' changes stay", () => {
  const list = queryKeys.keys.list(connection, {});
  queryClient().setQueryData(
    list,
    pages(
      page(
        [
          { keyId: "key_1", name: "Worker", enabled: true },
          { keyId: "key_2", enabled: true },
        ],
        "c1",
      ),
    ),
  );
  const cache = useCache();

  const undo = cache.patchKey("key_1", { enabled: false });
  // Meanwhile: a second page loads, another key changes, and this key is renamed.
  queryClient().setQueryData<InfiniteData<KeysPage>>(
    list,
    (data) =>
      data && {
        pages: [
          page(
            [
              { keyId: "key_1", name: "Renamed", enabled: false },
              { keyId: "key_2", enabled: false },
            ],
            "c1",
          ),
          page([{ keyId: "key_3" }]),
        ],
        pageParams: [undefined, "c1"],
      },
  );
  undo();

  expect(
    queryClient()
      .getQueryData<InfiniteData<KeysPage>>(list)
      ?.pages.map((shown) => shown.keys),
  ).toEqual([
    [
      { keyId: "key_1", name: "Renamed", enabled: true },
      { keyId: "key_2", enabled: false },
    ],
    [{ keyId: "key_3" }],
  ]);
});

test("a change to a key found by its exact id shows in that lookup too: one cached key wherever it is shown", async () => {
  const found: Key = { keyId: "key_1", name: "Worker", enabled: true };
  vi.stubGlobal(
    "fetch",
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ meta: { requestId: "req_1" }, data: found }), {
          status: 200,
          headers: { "content-type": "application/json" },
        }),
      ),
    ),
  );
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>
  );
  const lookup = renderHook(() => useKeyLookup(connection, "key_1"), { wrapper });
  await waitFor(() => expect(lookup.result.current.data).toEqual(found));

  const undo = useCache().patchKey("key_1", { enabled: false });
  await waitFor(() => expect(lookup.result.current.data?.enabled).toBe(false));
  undo();
  await waitFor(() => expect(lookup.result.current.data?.enabled).toBe(true));
});

test("a bulk change reaches another tab as the change itself: its lists show it with no request, and a message with other fields is ignored", async () => {
  const fetch = vi.fn(() => Promise.reject(new Error("no request expected")));
  vi.stubGlobal("fetch", fetch);
  const otherTab = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const list = queryKeys.keys.list(connection, {});
  otherTab.setQueryData(
    list,
    pages(
      page([
        { keyId: "key_1", enabled: true },
        { keyId: "key_2", enabled: true },
        { keyId: "key_3", enabled: true },
      ]),
    ),
  );
  const listener = new BroadcastChannel("keyscope-key-changes");
  const apply = keyChangeApplier(otherTab, connection);
  listener.onmessage = (event: MessageEvent<unknown>) => apply(event.data);
  const enabledIn = () => otherTab.getQueryData<InfiniteData<KeysPage>>(list)?.pages[0]?.keys.map((key) => key.enabled);

  useCache().keysPatched(["key_1"], { enabled: false });
  await waitFor(() => expect(enabledIn()).toEqual([false, true, true]));

  // A message carrying more than the fields a bulk run sets is not applied (one sender's messages arrive in order).
  const channel = new BroadcastChannel("keyscope-key-changes");
  const scope = connectionScopeId(connection);
  channel.postMessage({ scope, change: "patched", keyIds: ["key_3"], patch: { enabled: false, name: "x" } });
  channel.postMessage({ scope, change: "patched", keyIds: ["key_2"], patch: { enabled: false } });
  await waitFor(() => expect(enabledIn()).toEqual([false, false, true]));
  expect(fetch).not.toHaveBeenCalled();
  channel.close();
  listener.close();
});

test("a key deleted in another tab is not shown as it was on its page here: the page asks again and gets the service's not-found", async () => {
  const shown: Key = { keyId: "key_1", name: "Worker", enabled: true };
  const notFound = {
    meta: { requestId: "req_2" },
    error: {
      status: 404,
      title: "Not Found",
      detail: "We could not find the requested key.",
      type: "https://unkey.com/docs/errors/unkey/data/key_not_found",
    },
  };
  const fetch = vi
    .fn()
    .mockResolvedValueOnce(
      new Response(JSON.stringify({ meta: { requestId: "req_1" }, data: shown }), {
        status: 200,
        headers: { "content-type": "application/json" },
      }),
    )
    .mockResolvedValue(
      new Response(JSON.stringify(notFound), { status: 404, headers: { "content-type": "application/json" } }),
    );
  vi.stubGlobal("fetch", fetch);
  const otherTab = queryClient();
  const list = queryKeys.keys.list(connection, {});
  otherTab.setQueryData(list, pages(page([shown, { keyId: "key_2" }])));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={otherTab}>{children}</QueryClientProvider>
  );
  // The key's page there, as it reads its key.
  const keyPage = renderHook(() => useQuery(keyQueryOptions(connection, "key_1")), { wrapper });
  await waitFor(() => expect(keyPage.result.current.data).toEqual(shown));

  const scope = connectionScopeId(connection);
  keyChangeApplier(otherTab, connection)({ scope, change: "deleted", keyId: "key_1" });

  expect(idsOf(list)).toEqual([["key_2"]]);
  await waitFor(() => expect(keyPage.result.current.status).toBe("error"));
  expect(keyPage.result.current.data).toBeUndefined();
  expect(fetch).toHaveBeenCalledTimes(2);
});
