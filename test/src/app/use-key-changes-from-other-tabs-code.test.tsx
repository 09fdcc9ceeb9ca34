import { QueryClientProvider, type InfiniteData } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, expect, test, vi } from "vitest";
import type { KeysPage } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { connectionScopeId } from "@/lib/connection-scope";
import { queryKeys } from "@/lib/query-keys";
import { freshQueryClientPerTest } from "../support/query-tests";

// Each import of the caches' code arrives when the test says so, or fails: as on a slow or broken network.
const cacheCode = { imports: [] as ((loads: boolean) => void)[] };

const queryClient = freshQueryClientPerTest();
const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };
const scope = connectionScopeId(connection);
const list = queryKeys.keys.list(connection, {});
const keys = [
  { keyId: "key_1", enabled: true },
  { keyId: "key_2", enabled: true },
  { keyId: "key_3", enabled: true },
];
const listed = () => queryClient().getQueryData<InfiniteData<KeysPage>>(list)?.pages[0]?.keys;

/** A fresh page (the listener's module state with it) that follows the other tabs, before its code has arrived. */
async function renderFollowingPage() {
  const page: KeysPage = { keys, cursor: undefined, hasMore: false, requestId: null };
  queryClient().setQueryData<InfiniteData<KeysPage>>(list, { pages: [page], pageParams: [undefined] });
  const { useKeyChangesFromOtherTabs } = await import("@/app/use-key-changes-from-other-tabs");
  const { retryFailedLoads } = await import("@/lib/retryable-lazy");
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>
  );
  const rendered = renderHook(() => useKeyChangesFromOtherTabs(connection), { wrapper });
  return { ...rendered, retryFailedLoads };
}

/** The channels opened and closed from now on in this test. */
function recordChannels() {
  const opened: BroadcastChannel[] = [];
  const closed: BroadcastChannel[] = [];
  vi.stubGlobal(
    "BroadcastChannel",
    class extends BroadcastChannel {
      constructor(name: string) {
        super(name);
        opened.push(this);
      }
      override close() {
        closed.push(this);
        super.close();
      }
    },
  );
  return { opened, closed };
}

/** The next import of the caches' code, once it is asked for. */
async function nextImport(): Promise<(loads: boolean) => void> {
  await waitFor(() => expect(cacheCode.imports).toHaveLength(1));
  return cacheCode.imports.shift()!;
}

/** Another tab sends `messages` to a page whose caches' code is on its way; the code arrives once the page has had them all. */
async function sendBeforeTheCode(messages: unknown[]): Promise<void> {
  const { opened } = recordChannels();
  await renderFollowingPage();
  const arrive = await nextImport();
  // Counted after the page's own handler (set first) has had each message.
  let seenByPage = 0;
  opened[0]!.addEventListener("message", () => (seenByPage += 1));
  const otherTab = new BroadcastChannel("keyscope-key-changes");
  for (const message of messages) otherTab.postMessage(message);
  await waitFor(() => expect(seenByPage).toBe(messages.length));
  otherTab.close();
  arrive(true);
}

// A fresh module registry per test: the listener's module and its import of the caches' code start over.
beforeEach(() => {
  vi.resetModules();
  cacheCode.imports.length = 0;
  vi.doMock("@/app/use-key-cache", async (importOriginal) => {
    const loads = await new Promise<boolean>((resolve) => cacheCode.imports.push(resolve));
    if (!loads) throw new Error("Failed to fetch dynamically imported module: /assets/use-key-cache-1234.js");
    return importOriginal();
  });
});

// First: once a file has loaded the caches' code, vitest keeps a failed import of it failed even after a reset.
test("caches' code that failed to load is loaded again on the next try of failed loads, with what came meanwhile", async () => {
  const page = await renderFollowingPage();
  (await nextImport())(false);
  const otherTab = new BroadcastChannel("keyscope-key-changes");
  otherTab.postMessage({ scope, change: "deleted", keyId: "key_2" });
  // A navigation (or a Retry) resets failed loads; a reset before the failure is seen resets nothing, hence again.
  await waitFor(() => {
    page.retryFailedLoads();
    expect(cacheCode.imports).toHaveLength(1);
  });
  cacheCode.imports.shift()!(true);
  await waitFor(() => expect(listed()?.map((key) => key.keyId)).toEqual(["key_1", "key_3"]));
  otherTab.close();
});

test("changes another tab sends before the caches' code arrives are applied in order once it does; other fields are not", async () => {
  await sendBeforeTheCode([
    { scope, change: "deleted", keyId: "key_1" },
    { scope, change: "patched", keyIds: ["key_2"], patch: { enabled: false } },
    { scope, change: "patched", keyIds: ["key_3"], patch: { enabled: false, name: "x" } },
    { scope, change: "patched", keyIds: ["key_2"], patch: { enabled: true } },
    { scope, change: "patched", keyIds: ["key_3"], patch: { enabled: false } },
  ]);
  await waitFor(() =>
    expect(listed()?.map((key) => [key.keyId, key.enabled])).toEqual([
      ["key_2", true],
      ["key_3", false],
    ]),
  );
  expect(queryClient().getQueryState(list)?.isInvalidated).toBe(false);
});

test("a page left before the caches' code arrives closes its channel", async () => {
  const { opened, closed } = recordChannels();
  const page = await renderFollowingPage();
  const arrive = await nextImport();
  expect(opened).toHaveLength(1);
  expect(closed).toEqual([]);
  page.unmount();
  expect(closed).toEqual(opened);
  arrive(true);
});

test("past 100 changes before the caches' code arrives, the kept ones are applied and the lists are loaded again", async () => {
  const patches = Array.from({ length: 100 }, (_, index) => ({
    scope,
    change: "patched",
    keyIds: ["key_2"],
    patch: { enabled: index % 2 === 0 },
  }));
  await sendBeforeTheCode([{ scope, change: "deleted", keyId: "key_1" }, ...patches]);
  await waitFor(() => expect(queryClient().getQueryState(list)?.isInvalidated).toBe(true));
  expect(listed()?.map((key) => key.keyId)).toEqual(["key_2", "key_3"]);
});
