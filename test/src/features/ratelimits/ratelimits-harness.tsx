import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { RequireConnection } from "@/app/require-connection";
import { rootOptions } from "@/app/root-options";
import { NamespaceRoute } from "@/app/routes/namespace-route";
import { RatelimitsRoute } from "@/app/routes/ratelimits-route";
import { saveConnection } from "@/features/connect/key-store";

export const KEY = "ks_root_S3cr3tValue42";
export const BASE_URL = "http://127.0.0.1:8799";

/** The Rate limits section and a namespace's page through their routes, with a connection of `apiKey`. */
export function renderRatelimits(queryClient: QueryClient, path: string, apiKey = KEY) {
  saveConnection({ baseUrl: BASE_URL, apiKey });
  const router = createMemoryRouter(
    [
      {
        path: "/",
        Component: RequireConnection,
        children: [
          { path: "ratelimits", Component: RatelimitsRoute },
          { path: "ratelimits/:namespace", Component: NamespaceRoute },
        ],
      },
      { path: "/troubleshoot", element: <p>Troubleshoot</p> },
      { path: "/connect", element: <p>Key entry</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
    { onCaughtError: rootOptions.onCaughtError },
  );
  return { router, user: userEvent.setup() };
}
