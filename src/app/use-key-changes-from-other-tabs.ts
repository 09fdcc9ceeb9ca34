import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { Connection } from "../lib/api/transport";
import { retryableModule } from "../lib/retryable-lazy";
import { KEY_CHANGES_CHANNEL } from "./key-changes-channel";

/** The listeners whose caches' code failed to load: each tries again when failed loads are reset (a navigation, a Retry). */
const waitingForCode = new Set<() => void>();
/** The caches' code (and its message schema) loads after the first screen: nothing on it waits for another tab. */
const KeyCacheCode = retryableModule(
  () => import("./use-key-cache"),
  () => {
    for (const retry of waitingForCode) retry();
  },
);
/** Messages kept while the code is on its way; past this many, the lists are loaded again instead. */
const QUEUE_LIMIT = 100;

/**
 * Follows the changes made in the other tabs of this browser (same connection). The channel opens with the page;
 * what comes before the caches' code is kept (as sent: the code parses it) and applied in order once it is here.
 * Code that cannot load is tried again on the next message and on the next try of failed loads (a navigation).
 */
export function useKeyChangesFromOtherTabs(connection: Connection): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(KEY_CHANGES_CHANNEL);
    const queued: unknown[] = [];
    let missed = false;
    let apply: ((data: unknown) => void) | undefined;
    let loading = false;
    let current = true;

    function loadCode(): void {
      if (loading) return;
      loading = true;
      waitingForCode.delete(loadCode);
      KeyCacheCode.load().then(
        (code) => {
          if (!current) return;
          apply = code.keyChangeApplier(queryClient, connection);
          for (const data of queued.splice(0)) apply(data);
          // Last: a change applied after would mark the lists fresh again.
          if (missed) code.keyChangesMissed(queryClient);
        },
        () => {
          loading = false;
          if (current) waitingForCode.add(loadCode);
        },
      );
    }

    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (apply !== undefined) return apply(event.data);
      if (queued.length < QUEUE_LIMIT) queued.push(event.data);
      else missed = true;
      loadCode();
    };
    loadCode();
    return () => {
      current = false;
      waitingForCode.delete(loadCode);
      channel.close();
      queued.length = 0;
    };
  }, [connection, queryClient]);
}
