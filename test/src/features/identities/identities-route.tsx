import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { HeaderBar } from "@/app/header-bar";
import { RequireConnection } from "@/app/require-connection";
import { rootOptions } from "@/app/root-options";
import { IdentitiesRoute } from "@/app/routes/identities-route";
import { IdentityRoute } from "@/app/routes/identity-route";
import { saveConnection } from "@/features/connect/key-store";

export const ROOT_KEY = "ks_root_Id3nt1t13sT3st";
export const BASE_URL = "http://127.0.0.1:8799";

/** The Identities routes as the app composes them, the header above them, behind a stored connection. */
export function renderIdentities(queryClient: QueryClient, path: string, apiId?: string) {
  saveConnection({ baseUrl: BASE_URL, apiKey: ROOT_KEY, ...(apiId !== undefined && { apiId }) });
  const router = createMemoryRouter(
    [
      {
        path: "/",
        Component: RequireConnection,
        children: [
          {
            path: "identities",
            element: (
              <>
                <HeaderBar links="router" />
                <IdentitiesRoute />
              </>
            ),
          },
          { path: "identities/:identityId", Component: IdentityRoute },
          { path: "keys/:keyId", element: <p>A key&apos;s page</p> },
          { path: "logs", element: <p>The Logs page</p> },
        ],
      },
      { path: "/troubleshoot", element: <p>Troubleshoot</p> },
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
