import { useState } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { RouterProvider } from "react-router-dom";
import { AppErrorFallback } from "../features/troubleshoot/components/app-error-fallback";
import { createQueryClient } from "../lib/query-client";
import { FallbackShell } from "./fallback-shell";
import { TROUBLESHOOT_PATH } from "./paths";
import { AppProviders } from "./providers";
import { reportCaughtError } from "./root-options";
import { createAppRouter } from "./router";

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  return (
    // The last line of defence: anything the routes' own boundaries miss still gets a panel.
    <ErrorBoundary
      fallbackRender={(props) => (
        <FallbackShell>
          <AppErrorFallback {...props} troubleshootHref={TROUBLESHOOT_PATH} />
        </FallbackShell>
      )}
    >
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} onError={reportCaughtError} />
      </AppProviders>
    </ErrorBoundary>
  );
}
