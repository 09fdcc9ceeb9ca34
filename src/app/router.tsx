import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router-dom";
import { readConnection } from "../features/connect/key-store";
import { retryFailedLoads } from "../lib/retryable-lazy";
import { AwaitKeyHandOver } from "./await-key-hand-over";
import { HomeRedirect } from "./home-redirect";
import { AppLayout, AppLoading } from "./layout";
import {
  AuthorizationPage,
  ConnectPage,
  IdentitiesPage,
  IdentityPage,
  KeyPage,
  KeysPage,
  lazyRoute,
  LogsPage,
  NamespacePage,
  NotFoundPage,
  PermissionPage,
  RolePage,
  RatelimitsPage,
  TroubleshootPage,
} from "./pages";
import { paths } from "./paths";
import { RequireConnection } from "./require-connection";
import { reportCaughtError } from "./root-options";
import { RootRouteError, RouteError } from "./route-error";

/**
 * The first bundle holds the shell both first screens share; each page's own code loads when it is first
 * visited (./pages.ts), or when the first screen is idle. Given the app's query client, the keys page's first
 * request starts as soon as the route matches, while the page's code loads, instead of after it (`npm run
 * bench` times the first key row). In a tab holding a key, src/first-request/ has started both before this runs:
 * the query adopts that request. A page that fails keeps the header and its navigation: its error shows
 * inside the layout. Paths are those of ./paths.
 */
export function appRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.home,
      Component: AppLayout,
      ErrorBoundary: RootRouteError,
      HydrateFallback: AppLoading,
      children: [
        {
          ErrorBoundary: RouteError,
          children: [
            { index: true, Component: HomeRedirect },
            // What a server or a bookmark may name the home page.
            { path: "index.html", Component: HomeRedirect },
            { Component: AwaitKeyHandOver, children: [{ path: paths.connect.slice(1), lazy: lazyRoute(ConnectPage) }] },
            {
              Component: RequireConnection,
              children: [
                keysRoute(queryClient),
                // Its own chunk: the chart library loads with a key's page, never with the keys list.
                { path: paths.key.slice(1), lazy: lazyRoute(KeyPage) },
                { path: paths.logs.slice(1), lazy: lazyRoute(LogsPage) },
                { path: paths.ratelimits.slice(1), lazy: lazyRoute(RatelimitsPage) },
                { path: paths.namespace.slice(1), lazy: lazyRoute(NamespacePage) },
                { path: paths.identities.slice(1), lazy: lazyRoute(IdentitiesPage) },
                { path: paths.identity.slice(1), lazy: lazyRoute(IdentityPage) },
                { path: paths.authorization.slice(1), lazy: lazyRoute(AuthorizationPage) },
                { path: paths.role.slice(1), lazy: lazyRoute(RolePage) },
                { path: paths.permission.slice(1), lazy: lazyRoute(PermissionPage) },
              ],
            },
            { path: paths.troubleshoot.slice(1), lazy: lazyRoute(TroubleshootPage) },
            { path: "*", lazy: lazyRoute(NotFoundPage) },
          ],
        },
      ],
    },
  ];
}

/**
 * The keys page's route. When its code is already here (main.tsx waits for it in a tab that opens on the keys
 * page holding a key), the route is plain: the router starts with it matched and the first render draws the page
 * at once, instead of a loading shell first and the page in a later, time-sliced render. Otherwise the router
 * loads the code, and starts the first page of keys meanwhile.
 */
function keysRoute(queryClient: QueryClient): RouteObject {
  const path = paths.keys.slice(1);
  if (!KeysPage.isLoaded()) {
    // Started, not awaited: the page shows its own loading state.
    const loader = () => {
      void prefetchKeys(queryClient).catch(() => undefined);
      return null;
    };
    return { path, loader, lazy: lazyRoute(KeysPage) };
  }
  // main.tsx started the first page already; otherwise the list's query starts as the page mounts.
  return { path, Component: KeysPage };
}

/**
 * Starts the first page of keys (the list picks up the request in flight). The query's module is small and loads
 * beside the page's code; imported statically it would put the infinite-query observer in the first bundle.
 * Resolves once the page is in the cache or failed there, at once when no key is stored; rejects only when the
 * query's own code could not be loaded.
 */
export async function prefetchKeys(queryClient: QueryClient): Promise<void> {
  const connection = readConnection();
  if (connection === null) return;
  const { listKeysInfiniteQueryOptions } = await import("../features/keys/api/list-keys");
  await queryClient.prefetchInfiniteQuery(listKeysInfiniteQueryOptions(connection));
}

/** The app's router, made once, on the one query client the providers made. */
export function AppRouter() {
  const queryClient = useQueryClient();
  const [router] = useState(() => createAppRouter(queryClient));
  return <RouterProvider router={router} onError={reportCaughtError} />;
}

function createAppRouter(queryClient: QueryClient) {
  const router = createBrowserRouter(appRoutes(queryClient));
  // A navigation is the next try of code that failed to load. Subscribed before the RouterProvider is, so
  // this runs before the new page renders; a render never retries by itself (it would hammer a server that is down).
  let locationKey = router.state.location.key;
  router.subscribe((state) => {
    if (state.location.key === locationKey) return;
    locationKey = state.location.key;
    retryFailedLoads();
  });
  return router;
}
