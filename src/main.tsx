// Tokens and element defaults first, so feature styles imported by the app refine them.
import "./app/theme.css";
import "./app/base.css";
import "./app/app.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { rootOptions } from "./app/root-options";
import { KeysPage } from "./app/pages";
import { prefetchKeys } from "./app/router";
import { paths } from "./app/paths";
import { joinOtherTabs } from "./features/connect/key-hand-over";
import { readConnection } from "./features/connect/key-store";
import { readEnvironments } from "./features/environments/environment-store";
import { createQueryClient } from "./lib/query-client";
import { watchFailedStylesheets } from "./lib/retryable-lazy";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// Before the first render: a new tab asks the open ones for the key instead of showing key entry.
joinOtherTabs();
// The header's switcher loads lazily (app-header.tsx); with environments saved it is needed at once.
if (readEnvironments().length > 0) void import("./features/environments/components/environment-switcher");
watchFailedStylesheets();

const queryClient = createQueryClient();

function render(into: HTMLElement): void {
  createRoot(into, rootOptions).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
}

/** How long the first render waits for the keys page's code: past this (a slow network) the app shows its loading state. */
const PAGE_CODE_WAIT_MS = 400;
/** How long it then waits for the first page of keys: past this, the page shows that it is loading them. */
const FIRST_PAGE_WAIT_MS = 50;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A tab that holds a key and opens on the keys page renders once that page's code is here, and its first page of
 * keys if that comes soon (src/first-request/ started both before this file loaded, so both are often in by now):
 * the first render is the page with its rows, not a loading shell, then the page, then its rows. Never a blank
 * page for long: each wait is bounded.
 */
async function firstScreenReady(): Promise<void> {
  const keys = prefetchKeys(queryClient).catch(() => undefined);
  const pageCode = KeysPage.preload();
  await Promise.race([pageCode, delay(PAGE_CODE_WAIT_MS)]);
  await Promise.race([keys, delay(FIRST_PAGE_WAIT_MS)]);
}

const opensOnKeys = readConnection() !== null && [paths.home, paths.keys, `${paths.keys}/`].includes(location.pathname);
if (opensOnKeys) void firstScreenReady().then(() => render(container));
else render(container);
