import { createHash } from "node:crypto";

/**
 * The headers every HTML page of this server carries. The dashboard holds a root key and renders what servers
 * send, so its page may run only its own scripts, talk only to the base URLs a user may choose, and never be
 * framed; the docs pages are static text and may run nothing at all.
 */

/** `'sha256-…'` of an inline `<style>` element's text, for a style-src that allows exactly that element. */
export function styleHash(css: string): string {
  return `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
}

/**
 * Base URLs a user may enter: this origin, any https origin, and plain http only on this computer (a local
 * reference server or a hostile test server). An IPv6 literal such as http://[::1]:* is not a valid CSP source
 * (Chromium reports it and ignores it), so [::1] is reachable only as the page's own origin ('self').
 * React sets style properties through the CSSOM, which style-src does not govern, so the app needs no inline style.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' https: http://127.0.0.1:* http://localhost:*",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'self'",
].join("; ");

/** A page of static text with inline CSS (whose hashes are given) and nothing else. */
export function staticPageCsp(styleHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src ${styleHashes.join(" ")}`,
    "img-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** Besides a CSP, every response of ours that a browser may render. */
export const COMMON_SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;
