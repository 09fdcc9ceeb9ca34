/** What a failed refresh or "load more" notice says, whether or not the error catalog's code has loaded. */
export type RefreshAction = "refresh" | "load-more";

export function refreshFailureWords(action: RefreshAction): { what: string; kept: string } {
  return action === "refresh"
    ? { what: "Refresh failed", kept: "The list shows the keys loaded before." }
    : { what: "Loading more keys failed", kept: "The keys loaded so far stay listed." };
}
