/** Every route of the app, in one place: links, redirects and the router read them from here. */
export const paths = {
  home: "/",
  connect: "/connect",
  keys: "/keys",
  /** A key's page (the route pattern); links use keyPath. */
  key: "/keys/:keyId",
  troubleshoot: "/troubleshoot",
} as const;

/** Where every error panel's "Troubleshooting guide" leads. */
export const TROUBLESHOOT_PATH = paths.troubleshoot;

/** A key's page; the id is encoded, whatever a server sent as one. */
export function keyPath(keyId: string): string {
  return `${paths.keys}/${encodeURIComponent(keyId)}`;
}

/** The request-id lookup on the troubleshoot page, with an id filled in when given (a request id is not a secret). */
export function requestLookupPath(requestId?: string): string {
  return requestId === undefined
    ? `${paths.troubleshoot}#request-id`
    : `${paths.troubleshoot}?request=${encodeURIComponent(requestId)}#request-id`;
}
