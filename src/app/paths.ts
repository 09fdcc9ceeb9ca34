/** Every route of the app, in one place: links, redirects and the router read them from here. */
export const paths = {
  home: "/",
  connect: "/connect",
  keys: "/keys",
  /** A key's page (the route pattern); links use keyPath. */
  key: "/keys/:keyId",
  /** Every verification of the workspace, filtered by the query (src/features/logs/log-view.ts). */
  logs: "/logs",
  /** The rate-limit namespaces this browser knows; a namespace's page is below it (namespacePath). */
  ratelimits: "/ratelimits",
  namespace: "/ratelimits/:namespace",
  /** The workspace's identities, searched by the query's `search`. */
  identities: "/identities",
  /** An identity's page (the route pattern), by its id; links use identityPath. */
  identity: "/identities/:identityId",
  /** The workspace's roles and permissions, the list and search in the query (src/features/authorization). */
  authorization: "/authorization",
  /** A role's and a permission's pages (the route patterns); links use rolePath and permissionPath. */
  role: "/authorization/roles/:roleId",
  permission: "/authorization/permissions/:permissionId",
  troubleshoot: "/troubleshoot",
} as const;

/** What a page that needs a key hands key entry: where to go once the key is entered. */
export interface ReturnState {
  returnTo: string;
}

/**
 * Where key entry leads once a key is entered: back to the page that sent the user there, read from the
 * history entry's state (never from the URL, which anyone could write), and only to a page of this app.
 */
export function returnPathOf(state: unknown): string {
  const returnTo = typeof state === "object" && state !== null && "returnTo" in state ? state.returnTo : undefined;
  if (
    typeof returnTo !== "string" ||
    !returnTo.startsWith("/") ||
    returnTo.startsWith("//") ||
    returnTo.startsWith("/\\")
  )
    return paths.keys;
  const pathname = returnTo.split(/[?#]/, 1)[0];
  return pathname === paths.connect || pathname === paths.home ? paths.keys : returnTo;
}

/** Where every error panel's "Troubleshooting guide" leads. */
export const TROUBLESHOOT_PATH = paths.troubleshoot;

/** A key's page; the id is encoded, whatever a server sent as one. */
export function keyPath(keyId: string): string {
  return `${paths.keys}/${encodeURIComponent(keyId)}`;
}

/** A rate-limit namespace's page, by its name or id (encoded: a name may hold any character). */
export function namespacePath(namespace: string): string {
  return `${paths.ratelimits}/${encodeURIComponent(namespace)}`;
}

/** An identity's page, by its id (never its external id, which a person chose: it may hold anything). */
export function identityPath(identityId: string): string {
  return `${paths.identities}/${encodeURIComponent(identityId)}`;
}

/** The request-id lookup on the troubleshoot page, with an id filled in when given (a request id is not a secret). */
export function requestLookupPath(requestId?: string): string {
  return requestId === undefined
    ? `${paths.troubleshoot}#request-id`
    : `${paths.troubleshoot}?request=${encodeURIComponent(requestId)}#request-id`;
}

/** A role's page, by its id. */
export function rolePath(roleId: string): string {
  return `${paths.authorization}/roles/${encodeURIComponent(roleId)}`;
}

/** A permission's page, by its id. */
export function permissionPath(permissionId: string): string {
  return `${paths.authorization}/permissions/${encodeURIComponent(permissionId)}`;
}
