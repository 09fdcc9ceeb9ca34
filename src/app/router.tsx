import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { HomeRedirect } from "./home-redirect";
import { AppLayout, AppLoading } from "./layout";
import { RequireConnection } from "./require-connection";
import { RouteError } from "./route-error";
import { ConnectRoute } from "./routes/connect-route";

/**
 * Key entry is the first screen of a new session, so it ships in the first bundle; the keys page
 * (virtualizer, troubleshooting panels) and the not-found page load when first visited.
 */
export const routes: RouteObject[] = [
  {
    path: "/",
    Component: AppLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: AppLoading,
    children: [
      { index: true, Component: HomeRedirect },
      { path: "connect", Component: ConnectRoute },
      {
        Component: RequireConnection,
        children: [
          {
            path: "keys",
            lazy: async () => ({ Component: (await import("./routes/keys-route")).KeysRoute }),
          },
        ],
      },
      {
        path: "troubleshoot",
        lazy: async () => ({ Component: (await import("./routes/troubleshoot-route")).TroubleshootRoute }),
      },
      {
        path: "*",
        lazy: async () => ({ Component: (await import("./routes/not-found-route")).NotFoundRoute }),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
