/**
 * index.html's script, a small entry of its own: in a tab that holds a key and opens on the keys page, it starts
 * the list's first request and the keys page's code, then the app, so that the request and the code download
 * together rather than one after the other (the client adopts the request: src/lib/api/first-request.ts).
 * Anywhere else it only starts the app.
 */
import { FIRST_REQUEST_SYMBOL } from "../lib/api/first-request";
import { startFirstRequest } from "./start-first-request";

try {
  const handoff = startFirstRequest({
    pathname: location.pathname,
    // Looked up at each read: a browser that blocks storage throws there, and the read counts as "no key".
    storage: { getItem: (item) => sessionStorage.getItem(item) },
    sharedStorage: { getItem: (item) => localStorage.getItem(item) },
    fetch: (url, init) => fetch(url, init),
  });
  if (handoff !== null) {
    Object.defineProperty(globalThis, Symbol.for(FIRST_REQUEST_SYMBOL), { value: handoff });
    // Fetched beside the app's own files (Vite preloads each chunk's imports at once); a failure here is the
    // router's to report when it loads the page itself.
    import("../app/routes/keys-route").catch(() => undefined);
  }
} catch {
  // Whatever went wrong here, the app still starts, and sends its own request.
}
import("../main").catch(showAppCodeFailed);

/**
 * The app's own code did not arrive (the server went away, or a deploy removed the file since this page loaded):
 * a few DOM calls, since neither React nor the error catalog is here, so that the page is never blank.
 */
function showAppCodeFailed(): void {
  const root = document.getElementById("root");
  if (root === null || root.childElementCount > 0) return;
  const panel = document.createElement("div");
  panel.setAttribute("role", "alert");
  panel.style.cssText =
    "max-width: 40rem; margin: 3rem auto; padding: 0 1rem; font-family: system-ui, sans-serif; line-height: 1.5";
  const heading = document.createElement("h1");
  heading.textContent = "Keyscope could not be loaded";
  const text = document.createElement("p");
  text.textContent =
    "Its code did not arrive from the server: it is down or unreachable, or Keyscope was updated since this page loaded. Reload once it answers.";
  const reload = document.createElement("button");
  reload.type = "button";
  reload.textContent = "Reload";
  reload.addEventListener("click", () => location.reload());
  panel.append(heading, text, reload);
  root.append(panel);
}
