import { QueryClient } from "@tanstack/react-query";
import { waitFor } from "@testing-library/react";
import { expect, test } from "vitest";
import type { Connection } from "@/lib/api/transport";
import { catalogueChanged, CATALOGUE_CHANGES_CHANNEL, followCatalogueChanges } from "@/lib/catalogue-changes";
import { queryKeys } from "@/lib/query-keys";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };

/** A tab's cache holding a page of roles, a permission and a key, as fresh answers. */
function tabWithAnswers(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(queryKeys.roles.list(connection, ""), "roles");
  client.setQueryData(queryKeys.permissions.detail(connection, "perm_1"), "permission");
  client.setQueryData(queryKeys.keys.detail(connection, "key_1"), "key");
  return client;
}

const stale = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated === true;

test("a change to the catalogue is read again here and in the other tabs, the keys too when what they hold changed", async () => {
  const here = tabWithAnswers();
  const there = tabWithAnswers();
  const stop = followCatalogueChanges(there);
  const heard: unknown[] = [];
  const listener = new BroadcastChannel(CATALOGUE_CHANGES_CHANNEL);
  listener.onmessage = (event: MessageEvent<unknown>) => heard.push(event.data);

  await catalogueChanged(here, { keys: false });
  expect(stale(here, queryKeys.roles.list(connection, ""))).toBe(true);
  expect(stale(here, queryKeys.keys.detail(connection, "key_1"))).toBe(false);
  await waitFor(() => expect(stale(there, queryKeys.permissions.detail(connection, "perm_1"))).toBe(true));
  expect(stale(there, queryKeys.keys.detail(connection, "key_1"))).toBe(false);

  await catalogueChanged(here, { keys: true });
  await waitFor(() => expect(stale(there, queryKeys.keys.detail(connection, "key_1"))).toBe(true));
  // What goes between the tabs is a flag: no name, no id, no key.
  expect(heard).toEqual([{ keys: false }, { keys: true }]);
  stop();
  listener.close();
});
