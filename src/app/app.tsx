import type { QueryClient } from "@tanstack/react-query";
import { ErrorBoundary } from "react-error-boundary";
import { AppErrorFallback } from "../features/troubleshoot/components/app-error-fallback";
import { FallbackShell } from "./fallback-shell";
import { TROUBLESHOOT_PATH } from "./paths";
import { AppProviders } from "./providers";
import { AppRouter } from "./router";

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    // The last line of defence: anything the routes' own boundaries miss still gets a panel.
    <ErrorBoundary
      fallbackRender={(props) => (
        <FallbackShell>
          <AppErrorFallback {...props} troubleshootHref={TROUBLESHOOT_PATH} />
        </FallbackShell>
      )}
    >
      <AppProviders client={queryClient}>
        <AppRouter />
      </AppProviders>
    </ErrorBoundary>
  );
}
