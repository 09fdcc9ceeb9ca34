import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { Connection } from "../lib/api/transport";
import { retryableModule } from "../lib/retryable-lazy";

/** The caches' code (and its message schema) loads after the first screen: nothing on it waits for another tab. */
const KeyCacheCode = retryableModule(() => import("./use-key-cache"));

/**
 * Follows the changes made in the other tabs of this browser (same connection) once its code is here, a moment
 * after the page's first rows: a change made in that moment is missed, as one made before this tab opened is.
 * Code that cannot load is tried again on the next navigation (the next try of any failed load).
 */
export function useKeyChangesFromOtherTabs(connection: Connection): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    let stop: (() => void) | undefined;
    let current = true;
    KeyCacheCode.load().then(
      (code) => {
        if (current) stop = code.followKeyChangesFromOtherTabs(queryClient, connection);
      },
      () => undefined,
    );
    return () => {
      current = false;
      stop?.();
    };
  }, [connection, queryClient]);
}
