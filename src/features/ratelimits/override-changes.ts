/**
 * The tabs of this browser tell each other which namespace's overrides changed, so that a namespace's page open in
 * another tab of the same connection asks for them again: the connection's scope (the base URL and a fingerprint of
 * the root key) and the namespace's name, never a key.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import * as v from "valibot";
import type { Connection } from "@/lib/api/transport";
import { connectionScope, isScopeOf } from "@/lib/connection-scope";
import { queryKeys } from "@/lib/query-keys";

export const OVERRIDE_CHANGES_CHANNEL = "keyscope-override-changes";

const MessageSchema = v.object({
  scope: v.object({ baseUrl: v.string(), keyFingerprint: v.string() }),
  namespace: v.pipe(v.string(), v.maxLength(512)),
});

export function tellOtherTabs(connection: Connection, namespace: string): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(OVERRIDE_CHANGES_CHANNEL);
  channel.postMessage({ scope: connectionScope(connection), namespace });
  channel.close();
}

/** While mounted, a change another tab of this connection made to a namespace's overrides has them asked again. */
export function useOverrideChangesFromOtherTabs(connection: Connection): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(OVERRIDE_CHANGES_CHANNEL);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const message = v.safeParse(MessageSchema, event.data);
      if (!message.success || !isScopeOf(message.output.scope, connection)) return;
      void queryClient.invalidateQueries({
        queryKey: queryKeys.ratelimits.overrides(connection, message.output.namespace),
      });
    };
    return () => channel.close();
  }, [queryClient, connection]);
}
