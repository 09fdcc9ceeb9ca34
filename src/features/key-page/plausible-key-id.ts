/**
 * Whether the URL's id could name a key at all: letters, digits, `_` and `-`, as every service's ids are (the
 * reference server's and the real one's are `key_` + base58). Anything else (a space, a control character, an
 * undecodable `%`, thousands of characters) is not sent to the API, which would only call the request invalid.
 */
export function isPlausibleKeyId(keyId: string): boolean {
  return keyId.length <= 128 && /^[A-Za-z0-9_-]+$/.test(keyId);
}
