import { QueryClientProvider, type InfiniteData } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { expect, test } from "vitest";
import { useKeyChangesFromOtherTabs } from "@/app/use-key-changes-from-other-tabs";
import type { KeysPage } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { connectionScopeId } from "@/lib/connection-scope";
import { queryKeys } from "@/lib/query-keys";
import { freshQueryClientPerTest } from "../support/query-tests";

const queryClient = freshQueryClientPerTest();
const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };

test("a page that follows the other tabs applies their changes once its code is here, and stops when it goes", async () => {
  const list = queryKeys.keys.list(connection, {});
  const page: KeysPage = {
    keys: [{ keyId: "key_1" }, { keyId: "key_2" }],
    cursor: undefined,
    hasMore: false,
    requestId: null,
  };
  queryClient().setQueryData<InfiniteData<KeysPage>>(list, { pages: [page], pageParams: [undefined] });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>
  );
  const page1 = renderHook(() => useKeyChangesFromOtherTabs(connection), { wrapper });
  const ids = () =>
    queryClient()
      .getQueryData<InfiniteData<KeysPage>>(list)
      ?.pages[0]?.keys.map((key) => key.keyId);

  const channel = new BroadcastChannel("keyscope-key-changes");
  const scope = connectionScopeId(connection);
  // Sent once: the page listens from its first render and applies it once its code has loaded, a moment after.
  channel.postMessage({ scope, change: "deleted", keyId: "key_1" });
  await waitFor(() => expect(ids()).toEqual(["key_2"]));

  page1.unmount();
  queryClient().setQueryData<InfiniteData<KeysPage>>(list, { pages: [page], pageParams: [undefined] });
  channel.postMessage({ scope, change: "deleted", keyId: "key_2" });
  // A message goes out through the event loop: one more message, to this test's own listener, says it went.
  const echo = new BroadcastChannel("keyscope-key-changes");
  const received = new Promise((resolve) => (echo.onmessage = resolve));
  channel.postMessage({ scope: "elsewhere", change: "deleted", keyId: "key_x" });
  await received;
  expect(ids()).toEqual(["key_1", "key_2"]);
  echo.close();
  channel.close();
});
