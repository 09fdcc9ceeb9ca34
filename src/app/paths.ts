/** Where every error panel's "Troubleshooting guide" leads. */
export const TROUBLESHOOT_PATH = "/troubleshoot";
export const KEYS_PATH = "/keys";

/** The route of a key's page. */
export const KEY_PATH_PATTERN = `${KEYS_PATH}/:keyId`;

/** A key's page; the id is encoded, whatever a server sent as one. */
export function keyPath(keyId: string): string {
  return `${KEYS_PATH}/${encodeURIComponent(keyId)}`;
}

/** The request-id lookup on the troubleshoot page, with an id filled in when given (a request id is not a secret). */
export function requestLookupPath(requestId?: string): string {
  return requestId === undefined ? `${TROUBLESHOOT_PATH}#request-id` : `${TROUBLESHOOT_PATH}?request=${encodeURIComponent(requestId)}#request-id`;
}
