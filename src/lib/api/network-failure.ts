/**
 * The one classification of a request that got no readable answer, for the Keys page and Troubleshoot alike:
 * offline, refused by this page itself (plain http to another computer), CORS (something answered, unreadable
 * to this page), or nothing answering at all (down, or a host name that does not resolve).
 */
import type { NetworkFailureKind } from "../api-errors";
import { baseUrlWarnings } from "../check-base-url";
import { defaultFetch, isOffline, untilAborted } from "./fetch-tools";

export interface ClassifyOptions {
  fetch?: typeof fetch | undefined;
  /** Aborts the check (the caller's signal together with its deadline). */
  signal: AbortSignal;
  /** This page's origin; the browser's own by default. */
  pageOrigin?: string | undefined;
}

/** Why `url` (under `baseUrl`) gave no readable answer. Sends at most one `no-cors` request, which carries no key. */
export async function classifyNetworkFailure(url: string, baseUrl: string, options: ClassifyOptions): Promise<NetworkFailureKind> {
  if (isOffline()) return "offline";
  const pageOrigin = options.pageOrigin ?? (typeof location === "undefined" ? null : location.origin);
  if (pageOrigin === null) return "unreachable";
  const target = new URL(baseUrl === "" ? "/" : baseUrl, pageOrigin);
  if (target.origin === pageOrigin) return "unreachable";
  // Plain http to another computer, mixed content, [::1]: the page's own policy refused it before anything was sent.
  if (baseUrlWarnings(target.href, pageOrigin).some((warning) => warning !== "cross-origin")) return "blocked-by-page";
  try {
    // An opaque answer to a `no-cors` request means a server answered and only CORS hid it.
    await untilAborted(
      (options.fetch ?? defaultFetch)(url, {
        method: "POST",
        mode: "no-cors",
        body: "{}",
        headers: { "Content-Type": "text/plain" },
        credentials: "omit",
        cache: "no-store",
        referrerPolicy: "no-referrer",
        signal: options.signal,
      }),
      options.signal,
    );
    return "cors";
  } catch {
    return "unreachable";
  }
}
