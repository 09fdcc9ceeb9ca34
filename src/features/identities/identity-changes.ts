import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { Connection } from "@/lib/api/transport";
import { connectionScopeId } from "@/lib/connection-scope";
import { queryKeys } from "@/lib/query-keys";

/**
 * Where the tabs of this browser tell each other that an identity changed: the connection's scope (a fingerprint,
 * never the root key) and the identity's id, nothing else. Every tab of the same connection then reads its lists and
 * that identity again, and the keys (which carry their identity's limits).
 */
const CHANNEL = "keyscope-identity-changes";

/** This tab, so that it does not follow its own messages (a channel hears the other objects of its name, here too). */
// getRandomValues, not randomUUID: the dashboard may be served over plain http, where randomUUID is absent.
const TAB = Array.from(crypto.getRandomValues(new Uint32Array(4)), (part) => part.toString(36)).join("");

interface IdentityChange {
  tab: string;
  scope: string;
  identityId: string;
  deleted: boolean;
}

function isIdentityChange(data: unknown): data is IdentityChange {
  return (
    typeof data === "object" &&
    data !== null &&
    "tab" in data &&
    typeof data.tab === "string" &&
    "scope" in data &&
    typeof data.scope === "string" &&
    "identityId" in data &&
    typeof data.identityId === "string" &&
    "deleted" in data &&
    typeof data.deleted === "boolean"
  );
}

function refresh(queryClient: QueryClient, connection: Connection, change: IdentityChange): void {
  const detail = queryKeys.identities.detail(connection, change.identityId);
  if (change.deleted) queryClient.removeQueries({ queryKey: detail });
  else void queryClient.invalidateQueries({ queryKey: detail });
  void queryClient.invalidateQueries({ queryKey: queryKeys.identities.lists(connection) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.keys.all() });
}

/** Tells the other tabs that an identity changed here (this tab's caches are the change's own to update). */
export function tellOtherTabs(connection: Connection, identityId: string, deleted = false): void {
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ tab: TAB, scope: connectionScopeId(connection), identityId, deleted } satisfies IdentityChange);
  channel.close();
}

/** While mounted, an identity changed in another tab of this connection is read again here. */
export function useIdentityChangesFromOtherTabs(connection: Connection): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel !== "function") return;
    const channel = new BroadcastChannel(CHANNEL);
    const scope = connectionScopeId(connection);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const change = event.data;
      if (isIdentityChange(change) && change.tab !== TAB && change.scope === scope)
        refresh(queryClient, connection, change);
    };
    return () => channel.close();
  }, [queryClient, connection]);
}
