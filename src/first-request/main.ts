/**
 * The first module index.html runs (a separate, tiny entry: server/first-request-plugin.ts puts it ahead of the
 * app's): when the tab holds a key and opens on the keys page, the list's first request and the page's code
 * start now, while the app's own code is still loading.
 */
import type { paintFirstScreen } from "../app/first-paint";
import { FIRST_REQUEST_SYMBOL, preloadLink, startFirstRequest } from "./start-first-request";

/** Replaced at build time with the keys page's files (server/first-request-plugin.ts); only a build runs this module. */
declare const __KEYSCOPE_KEYS_ROUTE_FILES__: readonly string[];
/** Likewise: src/app/first-paint.ts as a file of its own, and the stylesheets it draws with. */
declare const __KEYSCOPE_FIRST_PAINT__: { script: string; modules: readonly string[]; styles: readonly string[] };

const FIRST_PAINT = __KEYSCOPE_FIRST_PAINT__;

function start(): void {
  const handoff = startFirstRequest({
    pathname: location.pathname,
    // Looked up at each read: a browser that blocks storage throws there, and the read counts as "no key".
    storage: { getItem: (item) => sessionStorage.getItem(item) },
    fetch: (url, init) => fetch(url, init),
    routeFiles: __KEYSCOPE_KEYS_ROUTE_FILES__,
    preload: preloadLink,
    // The page drawn from the answer as soon as it is in, long before the app's code has run (src/app/first-paint.ts).
    draw: (started, response, connection) => {
      for (const file of [...FIRST_PAINT.modules, ...FIRST_PAINT.styles]) preloadLink(file, "auto");
      import(/* @vite-ignore */ FIRST_PAINT.script)
        .then((painter: { paintFirstScreen: typeof paintFirstScreen }) => painter.paintFirstScreen({ handoff: started, response, connection, styles: FIRST_PAINT.styles }))
        .catch(() => undefined);
    },
  });
  if (handoff !== null) Object.defineProperty(globalThis, Symbol.for(FIRST_REQUEST_SYMBOL), { value: handoff });
}

// Loaded `async`, this usually runs before the app's code; when it does not, the app sends its own request
// (src/lib/api/first-request.ts's closeEarlyStart) and nothing starts here.
if (!(Symbol.for(FIRST_REQUEST_SYMBOL) in globalThis)) start();
