/**
 * The one classification of a request that got no readable answer, for the Keys page and Troubleshoot alike:
 * offline, refused by this page itself (plain http to another computer), a redirect (to somewhere this page may
 * not read, on its own origin too), CORS (something answered, unreadable to this page), or nothing answering at
 * all (down, or a host name that does not resolve).
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
export async function classifyNetworkFailure(
  url: string,
  baseUrl: string,
  options: ClassifyOptions,
): Promise<NetworkFailureKind> {
  if (isOffline()) return "offline";
  const pageOrigin = options.pageOrigin ?? (typeof location === "undefined" ? null : location.origin);
  if (pageOrigin === null) return "unreachable";
  const target = new URL(baseUrl === "" ? "/" : baseUrl, pageOrigin);
  const sameOrigin = target.origin === pageOrigin;
  // Plain http to another computer, mixed content, [::1]: the page's own policy refused it before anything was sent.
  if (!sameOrigin && baseUrlWarnings(target.href, pageOrigin).some((warning) => warning !== "cross-origin"))
    return "blocked-by-page";
  try {
    // On the page's own origin a redirect is not followed: it comes back as an "opaqueredirect" (where it leads stays
    // hidden from the page). Elsewhere the request must be `no-cors`, which fetch allows only with redirects followed;
    // an opaque answer then means a server answered and only CORS hid it.
    const answer = await untilAborted(
      (options.fetch ?? defaultFetch)(url, {
        method: "POST",
        mode: sameOrigin ? "same-origin" : "no-cors",
        redirect: sameOrigin ? "manual" : "follow",
        body: "{}",
        headers: { "Content-Type": "text/plain" },
        credentials: "omit",
        cache: "no-store",
        referrerPolicy: "no-referrer",
        signal: options.signal,
      }),
      options.signal,
    );
    if (answer.type === "opaqueredirect") return "redirect";
    // The page's own origin answers now, though the request failed: nothing CORS could hide, so a cut connection.
    return sameOrigin ? "unreachable" : "cors";
  } catch {
    return "unreachable";
  }
}
