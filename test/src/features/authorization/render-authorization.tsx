import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { paths } from "@/app/paths";
import { RequireConnection } from "@/app/require-connection";
import { rootOptions } from "@/app/root-options";
import { AuthorizationRoute } from "@/app/routes/authorization-route";
import { PermissionRoute } from "@/app/routes/permission-route";
import { RoleRoute } from "@/app/routes/role-route";
import { saveConnection } from "@/features/connect/key-store";

export const BASE_URL = "http://127.0.0.1:8799";
const KEY = "ks_root_S3cr3tValue42";

/** The Authorization section's routes as the app composes them, at `path`, with a stored connection. */
export function renderAuthorization(queryClient: QueryClient, path: string = paths.authorization) {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  const router = createMemoryRouter(
    [
      {
        path: "/",
        Component: RequireConnection,
        children: [
          { path: paths.authorization.slice(1), Component: AuthorizationRoute },
          { path: paths.role.slice(1), Component: RoleRoute },
          { path: paths.permission.slice(1), Component: PermissionRoute },
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
