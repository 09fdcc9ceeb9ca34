import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";

/**
 * Where the tabs of this browser tell each other that the catalogue of permissions and roles changed: a flag, never
 * a name or a secret. Every tab then reads its lists again; the keys too when what a key holds changed with it (a
 * deleted permission or role, a role's permissions set).
 */
export const CATALOGUE_CHANGES_CHANNEL = "keyscope-catalogue-changes";

export interface CatalogueChange {
  /** Keys' permissions changed with it: what the keys' queries hold is stale. */
  keys: boolean;
}

function isCatalogueChange(data: unknown): data is CatalogueChange {
  return typeof data === "object" && data !== null && "keys" in data && typeof data.keys === "boolean";
}

/** Reads the catalogue again (and the keys, when they changed with it), here. */
export async function refreshCatalogue(queryClient: QueryClient, change: CatalogueChange): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.permissions.all() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.roles.all() }),
    ...(change.keys ? [queryClient.invalidateQueries({ queryKey: queryKeys.keys.all() })] : []),
  ]);
}

/** A change made here: read again here, and told to the other tabs. */
export async function catalogueChanged(queryClient: QueryClient, change: CatalogueChange): Promise<void> {
  if (typeof BroadcastChannel === "function") {
    const channel = new BroadcastChannel(CATALOGUE_CHANGES_CHANNEL);
    channel.postMessage(change);
    channel.close();
  }
  await refreshCatalogue(queryClient, change);
}

/** Follows the other tabs' changes until the returned function is called. */
export function followCatalogueChanges(queryClient: QueryClient): () => void {
  if (typeof BroadcastChannel !== "function") return () => undefined;
  const channel = new BroadcastChannel(CATALOGUE_CHANGES_CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (isCatalogueChange(event.data)) void refreshCatalogue(queryClient, event.data);
  };
  return () => channel.close();
}
