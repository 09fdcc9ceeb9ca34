/**
 * index.html's only script (a separate, tiny entry: server/first-request-plugin.ts puts it there in place of the
 * app's): when the tab holds a key and opens on the keys page, it starts the list's first request and draws the page
 * from the answer (src/app/first-paint.ts, which index.html fetches with this module); then it starts the app.
 */
import type { paintFirstScreen } from "../app/first-paint";
import { FIRST_REQUEST_SYMBOL, preloadLink, startFirstRequest } from "./start-first-request";

/** Replaced at build time with the keys page's files (server/first-request-plugin.ts); only a build runs this module. */
declare const __KEYSCOPE_KEYS_ROUTE_FILES__: readonly string[];
/** Likewise: src/app/first-paint.ts as a file of its own (index.html preloads it), and the stylesheets it draws with. */
declare const __KEYSCOPE_FIRST_PAINT__: { script: string; styles: readonly string[] };
/** Likewise: the app's own entry, which this module starts, and the modules it imports statically. */
declare const __KEYSCOPE_APP__: { entry: string; modules: readonly string[] };

const FIRST_PAINT = __KEYSCOPE_FIRST_PAINT__;
const APP = __KEYSCOPE_APP__;

/**
 * The longest the app's code waits for the keys page to be drawn from the early answer and put on the screen, before
 * it is even fetched. The app's first render needs that answer too, so the wait costs it little; it keeps the app's
 * files (a third of a megabyte) and its start (its largest task) from taking the connections and the main thread
 * that the answer, the drawing and its first frame need.
 */
const APP_WAIT_MS = 400;

/**
 * Resolves once the next frame is made (a timer set in an animation-frame callback runs after the frame's style,
 * layout and paint), or at once in a hidden tab, which makes none; the wait for it is capped by APP_WAIT_MS below.
 * The drawn page's first frame is its costliest: files arriving meanwhile, compiled as they come, held it back by
 * about 130 ms on two busy cores.
 */
function afterNextFrame(): Promise<void> {
  if (document.visibilityState !== "visible") return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

/** Starts the early request, and the drawing of its answer; resolves once that is on the screen or will not be. */
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
        .then(() => (started.firstPaint === "drawn" ? afterNextFrame() : undefined))
        .catch(() => undefined);
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
void Promise.race([drawn, new Promise((resolve) => setTimeout(resolve, APP_WAIT_MS))]).then(() => {
  // The app's modules all at once, rather than each only once the one importing it has been read.
  for (const file of APP.modules) preloadLink(file, "auto");
  return import(/* @vite-ignore */ APP.entry);
});
