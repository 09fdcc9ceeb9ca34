// Tokens and element defaults first, so feature styles imported by the app refine them.
import "./app/theme.css";
import "./app/base.css";
import "./app/app.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { rootOptions } from "./app/root-options";
import { KeysPage } from "./app/pages";
import { paths } from "./app/paths";
import { joinOtherTabs, readConnection } from "./features/connect/key-store";
import { watchFailedStylesheets } from "./lib/retryable-lazy";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// Before the first render: a new tab asks the open ones for the key instead of showing key entry.
joinOtherTabs();
watchFailedStylesheets();

function render(into: HTMLElement): void {
  createRoot(into, rootOptions).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// A tab that holds a key and opens on the keys page renders once that page's code is here (src/first-request/
// fetched it with the list, alongside this file): the first render is the page, not a loading shell before it.
const opensOnKeys = readConnection() !== null && [paths.home, paths.keys, `${paths.keys}/`].includes(location.pathname);
if (opensOnKeys) void KeysPage.preload().then(() => render(container));
else render(container);
