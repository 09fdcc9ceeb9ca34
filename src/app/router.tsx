import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router-dom";
import { readConnection } from "../features/connect/key-store";
import { HomeRedirect } from "./home-redirect";
import { paths } from "./paths";
import { AppLayout, AppLoading } from "./layout";
import { RequireConnection } from "./require-connection";
import { RouteError } from "./route-error";

/**
 * The first bundle holds the shell both first screens share; each page's own code (key entry, the keys page
 * with its virtualizer, troubleshooting, not found) loads when it is first visited. Given the app's query
 * client, the keys page's first request starts as soon as the route matches, while the page's code loads,
 * instead of after it (`npm run bench` times the first key row). Paths are those of ./paths.
 */
export function appRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.home,
      Component: AppLayout,
      ErrorBoundary: RouteError,
      HydrateFallback: AppLoading,
      children: [
        { index: true, Component: HomeRedirect },
        {
          path: paths.connect.slice(1),
          lazy: async () => ({ Component: (await import("./routes/connect-route")).ConnectRoute }),
        },
        {
          Component: RequireConnection,
          children: [
            {
              path: paths.keys.slice(1),
              loader: () => prefetchKeys(queryClient),
              lazy: async () => ({ Component: (await import("./routes/keys-route")).KeysRoute }),
            },
            {
              // Its own chunk: the chart library loads with a key's page, never with the keys list.
              path: paths.key.slice(1),
              lazy: async () => ({ Component: (await import("./routes/key-route")).KeyRoute }),
            },
          ],
        },
        {
          path: paths.troubleshoot.slice(1),
          lazy: async () => ({ Component: (await import("./routes/troubleshoot-route")).TroubleshootRoute }),
        },
        {
          path: "*",
          lazy: async () => ({ Component: (await import("./routes/not-found-route")).NotFoundRoute }),
        },
      ],
    },
  ];
}

/**
 * Starts the first page of keys without waiting for it (the list picks up the request in flight). The query's
 * module is small and loads beside the page's code; imported statically it would put the infinite-query
 * observer in the first bundle.
 */
function prefetchKeys(queryClient: QueryClient): null {
  const connection = readConnection();
  if (connection !== null) {
    void import("../features/keys/api/list-keys").then(({ listKeysInfiniteQueryOptions }) =>
      queryClient.prefetchInfiniteQuery(listKeysInfiniteQueryOptions(connection)),
    );
  }
  return null;
}

/** The app's router, made once, on the one query client the providers made. */
export function AppRouter() {
  const queryClient = useQueryClient();
  const [router] = useState(() => createBrowserRouter(appRoutes(queryClient)));
  return <RouterProvider router={router} />;
}
