import { useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import * as v from "valibot";
import type { KeysPage } from "../lib/api/list-keys";
import type { Connection } from "../lib/api/transport";
import { connectionScopeId, isScopeOf } from "../lib/connection-scope";
import type { Key } from "../lib/contract";
import { keyQueryOptions } from "../lib/key-query";
import { listedBy, queryKeys } from "../lib/query-keys";
import type { KeyCache } from "../features/key-actions/key-cache";
import { KEY_CHANGES_CHANNEL } from "./key-changes-channel";

type Pages = InfiniteData<KeysPage>;

/** `scope`: the connection's (connectionScopeId), so a tab of another connection ignores it. */
const ChangeMessageSchema = v.variant("change", [
  v.object({
    scope: v.string(),
    change: v.picklist(["changed", "created", "deleted"]),
    keyId: v.string(),
    /** A created key's API, when it is not the connection's. */
    apiId: v.optional(v.string()),
  }),
  /** Keys whose fields the service confirmed changed: applied as they are, with no request. Only these fields pass. */
  v.object({
    scope: v.string(),
    change: v.literal("patched"),
    keyIds: v.array(v.string()),
    patch: v.strictObject({ enabled: v.boolean() }),
  }),
]);
type ChangeMessage = v.InferOutput<typeof ChangeMessageSchema>;

/** Whether a list query shows a key just created in `apiId` through `connection`: same connection, same API, no externalId filter. */
function listHoldsNewKey(queryKey: readonly unknown[], connection: Connection, apiId: string | undefined): boolean {
  const list = listedBy(queryKey);
  if (list === undefined || !isScopeOf(list.scope, connection) || list.externalId !== undefined) return false;
  // A list without an API lists every key of the workspace (the reference server); one with an API, that API's keys.
  return list.apiId === undefined || list.apiId === (apiId ?? connection.apiId)?.trim();
}

/** The API of a loaded list of this connection that shows `keyId` (a list scoped to one API), if any. */
export function apiOfListedKey(queryClient: QueryClient, connection: Connection, keyId: string): string | undefined {
  for (const [queryKey, data] of queryClient.getQueriesData<Pages>({ queryKey: queryKeys.keys.lists() })) {
    const list = listedBy(queryKey);
    if (list === undefined || !isScopeOf(list.scope, connection) || list.apiId === undefined) continue;
    if (data?.pages.some((page) => page.keys.some((key) => key.keyId === keyId))) return list.apiId;
  }
  return undefined;
}

function mapListKeys(queryClient: QueryClient, change: (keys: Key[], pageIndex: number) => Key[]): void {
  queryClient.setQueriesData<Pages>({ queryKey: queryKeys.keys.lists() }, (data) =>
    data === undefined
      ? data
      : { ...data, pages: data.pages.map((page, index) => ({ ...page, keys: change(page.keys, index) })) },
  );
}

function findListedKey(queryClient: QueryClient, keyId: string): Key | undefined {
  for (const [, data] of queryClient.getQueriesData<Pages>({ queryKey: queryKeys.keys.lists() })) {
    const key = data?.pages.flatMap((page) => page.keys).find((listed) => listed.keyId === keyId);
    if (key !== undefined) return key;
  }
  return undefined;
}

/** The caches of this tab, without telling the others. */
function localCache(
  queryClient: QueryClient,
  connection: Connection,
): KeyCache & { keyDeletedElsewhere: (keyId: string) => void } {
  const keyQuery = (keyId: string) => keyQueryOptions(connection, keyId);
  const patchEverywhere = (keyId: string, patch: (key: Key) => Key) => {
    queryClient.setQueryData(keyQuery(keyId).queryKey, (key) => (key === undefined ? key : patch(key)));
    mapListKeys(queryClient, (keys) => keys.map((key) => (key.keyId === keyId ? patch(key) : key)));
  };
  return {
    patchKey: (keyId, patch) => {
      const before = queryClient.getQueryData(keyQuery(keyId).queryKey) ?? findListedKey(queryClient, keyId);
      patchEverywhere(keyId, (key) => ({ ...key, ...patch }));
      // Undoes the patched fields of this key only, where they still show the patch: pages loaded since, other keys'
      // changes and this key's other fields stay.
      return () => {
        if (before === undefined) return;
        patchEverywhere(keyId, (key) => {
          const undone: Record<string, unknown> = { ...key };
          for (const field of Object.keys(patch) as (keyof Key)[]) {
            if (JSON.stringify(key[field]) !== JSON.stringify(patch[field])) continue;
            if (field in before) undone[field] = before[field];
            else delete undone[field];
          }
          return undone as unknown as Key;
        });
      };
    },
    keysPatched: (keyIds, patch) => {
      for (const keyId of keyIds) {
        patchEverywhere(keyId, (key) => ({ ...key, ...patch }));
        // Its other fields (updatedAt) are the service's to say when the key is next shown.
        void queryClient.invalidateQueries({ queryKey: keyQuery(keyId).queryKey, exact: true, refetchType: "none" });
      }
    },
    refreshKey: async (keyId) => {
      try {
        const fresh = await queryClient.fetchQuery({ ...keyQuery(keyId), staleTime: 0 });
        patchEverywhere(keyId, () => fresh);
      } catch {
        // The key's page shows its own failure when it reloads; a list keeps what it showed.
      }
    },
    keyCreated: async (keyId, apiId) => {
      const created = await queryClient
        .fetchQuery({ ...keyQuery(keyId), staleTime: 0 })
        .catch(() => ({ keyId }) satisfies Key);
      for (const [queryKey, data] of queryClient.getQueriesData<Pages>({ queryKey: queryKeys.keys.lists() })) {
        if (data === undefined) continue;
        if (!listHoldsNewKey(queryKey, connection, apiId)) {
          // Another connection, API or filter: whether the key is listed there is the service's to say.
          void queryClient.invalidateQueries({ queryKey, exact: true });
          continue;
        }
        const pages = data.pages.map((page, index) =>
          index === 0 && !page.keys.some((key) => key.keyId === keyId)
            ? { ...page, keys: [created, ...page.keys] }
            : page,
        );
        queryClient.setQueryData<Pages>(queryKey, { ...data, pages });
      }
    },
    keyDeleted: (keyId) => {
      queryClient.removeQueries({ queryKey: keyQuery(keyId).queryKey });
      mapListKeys(queryClient, (keys) => keys.filter((key) => key.keyId !== keyId));
    },
    // Reset, not removed: a page here that shows the key keeps a removed query and would show the key as it was;
    // reset, it asks again and shows what the service says (not found).
    keyDeletedElsewhere: (keyId) => {
      void queryClient.resetQueries({ queryKey: keyQuery(keyId).queryKey, exact: true });
      mapListKeys(queryClient, (keys) => keys.filter((key) => key.keyId !== keyId));
    },
  };
}

function post(message: ChangeMessage): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(KEY_CHANGES_CHANNEL);
  channel.postMessage(message);
  channel.close();
}

function tell(connection: Connection, change: "changed" | "created" | "deleted", keyId: string, apiId?: string): void {
  post({ scope: connectionScopeId(connection), change, keyId, ...(apiId !== undefined && { apiId }) });
}

/**
 * The key actions' view of the caches, composed here because the keys list and the key's page belong to other
 * features: a change shows in both at once, the key's page reloads what the service says after it, and the
 * other tabs of this browser are told which key changed (and, after a bulk run, how, so they need no request).
 */
export function useKeyCache(connection: Connection): KeyCache {
  const queryClient = useQueryClient();
  return useMemo((): KeyCache => {
    const local = localCache(queryClient, connection);
    return {
      patchKey: local.patchKey,
      keysPatched: (keyIds, patch) => {
        local.keysPatched(keyIds, patch);
        post({ scope: connectionScopeId(connection), change: "patched", keyIds: [...keyIds], patch });
      },
      refreshKey: async (keyId) => {
        await local.refreshKey(keyId);
        tell(connection, "changed", keyId);
      },
      keyCreated: async (keyId, apiId) => {
        await local.keyCreated(keyId, apiId);
        tell(connection, "created", keyId, apiId);
      },
      keyDeleted: (keyId) => {
        local.keyDeleted(keyId);
        tell(connection, "deleted", keyId);
      },
    };
  }, [connection, queryClient]);
}

/**
 * What applies a message another tab posted on the key changes' channel to this tab's caches (same connection):
 * the key reloaded, added or removed, or the fields a bulk run set. The message is parsed here; anything else is
 * ignored. Loaded after the first screen: the channel is opened and followed by use-key-changes-from-other-tabs.
 */
export function keyChangeApplier(queryClient: QueryClient, connection: Connection): (data: unknown) => void {
  const local = localCache(queryClient, connection);
  const scope = connectionScopeId(connection);
  return (data) => {
    const parsed = v.safeParse(ChangeMessageSchema, data);
    if (!parsed.success || parsed.output.scope !== scope) return;
    const message = parsed.output;
    if (message.change === "patched") local.keysPatched(message.keyIds, message.patch);
    else if (message.change === "deleted") local.keyDeletedElsewhere(message.keyId);
    else if (message.change === "created") void local.keyCreated(message.keyId, message.apiId);
    else void local.refreshKey(message.keyId);
  };
}

/** More changes came from other tabs than were kept before this code arrived: the keys shown are the service's to say again. */
export function keyChangesMissed(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.keys.all() });
}
