/**
 * Addresses that came from a server are shown as links only when they are plainly http(s):
 * a `javascript:` or `data:` address from a hostile answer must never become clickable.
 */

// Whitespace or control characters anywhere: the URL parser would silently drop them, so the shown text
// and the address followed could differ.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const INVISIBLE = /[\u0000-\u0020\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** The address itself, unchanged, when it is an absolute http: or https: URL; otherwise null. */
export function toSafeHttpUrl(value: string): string | null {
  if (!/^https?:\/\//i.test(value) || INVISIBLE.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? value : null;
  } catch {
    return null;
  }
}

/** `https://api.example.com` for any absolute http(s) address, or null. */
export function httpOriginOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}
