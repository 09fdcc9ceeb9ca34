/** What the Authorization page shows, in its address: which list, and the search asked of the server. */

export type CatalogueTab = "roles" | "permissions";

export interface AuthorizationView {
  tab: CatalogueTab;
  /** As typed; the server is asked it trimmed (src/lib/catalogue-query.ts). */
  search: string;
}

export const DEFAULT_VIEW: AuthorizationView = { tab: "roles", search: "" };

/** The view an address holds: `?tab=permissions&q=docs`; anything else is the default. */
export function readAuthorizationView(params: URLSearchParams): AuthorizationView {
  return {
    tab: params.get("tab") === "permissions" ? "permissions" : "roles",
    search: (params.get("q") ?? "").slice(0, 256),
  };
}

/** The address's query of a view ("" for the default). */
export function authorizationSearch(view: AuthorizationView): string {
  const params = new URLSearchParams();
  if (view.tab !== DEFAULT_VIEW.tab) params.set("tab", view.tab);
  if (view.search !== "") params.set("q", view.search);
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}
