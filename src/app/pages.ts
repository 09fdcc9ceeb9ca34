import { preloadErrorPanel } from "../features/troubleshoot/components/lazy-error-panel";
import { preloadRefreshErrorNotice } from "../features/troubleshoot/components/lazy-refresh-error-notice";
import { createElement, Suspense, type ComponentType } from "react";
import { retryableLazy, type RetryableLazy } from "../lib/retryable-lazy";
import { PageLoading } from "./page-loading";

/**
 * Each page's own code (key entry, the keys page with its virtualizer, a key's page, the logs, troubleshooting, not
 * found) loads when
 * it is first visited, and a load that failed is tried again on the next visit or Retry.
 */
export const ConnectPage = retryableLazy(
  () => import("./routes/connect-route"),
  (module) => module.ConnectRoute,
);
export const KeysPage = retryableLazy(
  () => import("./routes/keys-route"),
  (module) => module.KeysRoute,
);
/** Not preloaded when idle: its chart library is paid for only by those who open a key. */
export const KeyPage = retryableLazy(
  () => import("./routes/key-route"),
  (module) => module.KeyRoute,
);
/** Not preloaded when idle either: those who open it pay for its table, chart and Live. */
export const LogsPage = retryableLazy(
  () => import("./routes/logs-route"),
  (module) => module.LogsRoute,
);
/** The Rate limits section and a namespace's page: loaded on use, the chart library only with a namespace's history. */
export const RatelimitsPage = retryableLazy(
  () => import("./routes/ratelimits-route"),
  (module) => module.RatelimitsRoute,
);
export const NamespacePage = retryableLazy(
  () => import("./routes/namespace-route"),
  (module) => module.NamespaceRoute,
);
/** The Identities section: not preloaded when idle, paid for by those who open it (an identity's page, its chart). */
export const IdentitiesPage = retryableLazy(
  () => import("./routes/identities-route"),
  (module) => module.IdentitiesRoute,
);
export const IdentityPage = retryableLazy(
  () => import("./routes/identity-route"),
  (module) => module.IdentityRoute,
);
/** The Authorization section's pages, not preloaded either: their lists and dialogs are paid for by those who open them. */
export const AuthorizationPage = retryableLazy(
  () => import("./routes/authorization-route"),
  (module) => module.AuthorizationRoute,
);
export const RolePage = retryableLazy(
  () => import("./routes/role-route"),
  (module) => module.RoleRoute,
);
export const PermissionPage = retryableLazy(
  () => import("./routes/permission-route"),
  (module) => module.PermissionRoute,
);
export const TroubleshootPage = retryableLazy(
  () => import("./routes/troubleshoot-route"),
  (module) => module.TroubleshootRoute,
);
export const NotFoundPage = retryableLazy(
  () => import("./routes/not-found-route"),
  (module) => module.NotFoundRoute,
);

/**
 * How long the router waits for a page's code before it shows the page's loading line: past this (a slow network,
 * a server that does not answer) the URL's page says it is loading inside the layout, whose header and navigation
 * stay usable, instead of the app's loading screen (or the previous page) for as long as the code takes, or for ever.
 */
const PAGE_CODE_WAIT_MS = 1500;

/**
 * A route's `lazy`: the router loads the page's code while it runs the route's loader, and never sees a
 * failure (it would keep it forever); a page whose code failed to load throws that error when rendered, into
 * the route's error boundary, and loads again on the next try. The wait is bounded: past PAGE_CODE_WAIT_MS the
 * page renders in a Suspense boundary of its own, new with the route, so its loading line shows even in the
 * router's transition (which keeps a boundary already shown, the layout's, on the previous page).
 */
export function lazyRoute(Page: RetryableLazy<object>): () => Promise<{ Component: ComponentType }> {
  return async () => {
    await Promise.race([Page.preload(), new Promise((resolve) => setTimeout(resolve, PAGE_CODE_WAIT_MS))]);
    if (Page.isLoaded()) return { Component: Page };
    return { Component: () => createElement(Suspense, { fallback: createElement(PageLoading) }, createElement(Page)) };
  };
}

/** Set when the code needed while the server is away (Troubleshoot, the error panel) has loaded. */
export const CODE_READY_MARK = "keyscope:code-ready";

/**
 * Diagnostics are needed exactly when the server is down, so their code must not be fetched at that moment:
 * once the first screen is idle, load Troubleshoot, the error panel and the refresh notice (and the other pages,
 * which are small).
 */
export function preloadWhenIdle(): () => void {
  // Browsers without requestIdleCallback (and jsdom) load each page on first use.
  if (typeof requestIdleCallback !== "function") return () => undefined;
  const handle = requestIdleCallback(() => {
    void Promise.all([
      TroubleshootPage.preload(),
      preloadErrorPanel(),
      preloadRefreshErrorNotice(),
      ConnectPage.preload(),
      KeysPage.preload(),
      NotFoundPage.preload(),
    ]).then(() => performance.mark(CODE_READY_MARK));
  });
  return () => cancelIdleCallback(handle);
}
