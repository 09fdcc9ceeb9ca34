/**
 * The first module index.html runs (a separate, tiny entry: server/first-request-plugin.ts puts it ahead of the
 * app's): when the tab holds a key and opens on the keys page, the list's first request and the page's code
 * start now, while the app's own code is still loading.
 */
import { FIRST_REQUEST_SYMBOL, preloadLink, startFirstRequest } from "./start-first-request";

/** Replaced at build time with the keys page's files (server/first-request-plugin.ts); only a build runs this module. */
declare const __KEYSCOPE_KEYS_ROUTE_FILES__: readonly string[];

const handoff = startFirstRequest({
  pathname: location.pathname,
  // Looked up at each read: a browser that blocks storage throws there, and the read counts as "no key".
  storage: { getItem: (item) => sessionStorage.getItem(item) },
  fetch: (url, init) => fetch(url, init),
  routeFiles: __KEYSCOPE_KEYS_ROUTE_FILES__,
  preload: preloadLink,
});
if (handoff !== null) Object.defineProperty(globalThis, Symbol.for(FIRST_REQUEST_SYMBOL), { value: handoff });
