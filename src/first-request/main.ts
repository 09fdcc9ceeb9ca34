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
/** Likewise: the app's own entry, which index.html only fetches (a modulepreload) and this module starts. */
declare const __KEYSCOPE_APP__: string;

const FIRST_PAINT = __KEYSCOPE_FIRST_PAINT__;

/**
 * The longest the app's code waits for the keys page to be drawn from the early answer. The app's first render
 * needs that answer too, so the wait costs it nothing; it only keeps the app's own start (its largest task) from
 * running between the answer and the drawing.
 */
const APP_WAIT_MS = 400;

/** Starts the early request, and the drawing of its answer; resolves once that is drawn or will not be. */
function start(): Promise<unknown> {
  let drawn: Promise<unknown> = Promise.resolve();
  const handoff = startFirstRequest({
    pathname: location.pathname,
    // Looked up at each read: a browser that blocks storage throws there, and the read counts as "no key".
    storage: { getItem: (item) => sessionStorage.getItem(item) },
    fetch: (url, init) => fetch(url, init),
    routeFiles: __KEYSCOPE_KEYS_ROUTE_FILES__,
    preload: preloadLink,
    // The page drawn from the answer as soon as it is in, long before the app's code has run (src/app/first-paint.ts).
    draw: (started, response, connection) => {
      drawn = import(/* @vite-ignore */ FIRST_PAINT.script)
        .then((painter: { paintFirstScreen: typeof paintFirstScreen }) =>
          painter.paintFirstScreen({ handoff: started, response, connection, styles: FIRST_PAINT.styles }),
        )
        .catch(() => undefined);
      for (const file of [...FIRST_PAINT.modules, ...FIRST_PAINT.styles]) preloadLink(file, "auto");
      return drawn;
    },
  });
  if (handoff !== null) Object.defineProperty(globalThis, Symbol.for(FIRST_REQUEST_SYMBOL), { value: handoff });
  return drawn;
}

let drawn: Promise<unknown> = Promise.resolve();
try {
  drawn = start();
} catch {
  // Whatever went wrong here, the app still starts, and sends its own request.
}
void Promise.race([drawn, new Promise((resolve) => setTimeout(resolve, APP_WAIT_MS))]).then(() => import(/* @vite-ignore */ __KEYSCOPE_APP__));
