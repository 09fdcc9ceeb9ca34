import { ErrorBoundary } from "react-error-boundary";
import { AppErrorFallback } from "../features/troubleshoot/components/app-error-fallback";
import { TROUBLESHOOT_PATH } from "./paths";
import { AppProviders } from "./providers";
import { AppRouter } from "./router";

export function App() {
  return (
    // The last line of defence: anything the routes' own boundaries miss still gets a panel.
    <ErrorBoundary fallbackRender={(props) => <AppErrorFallback {...props} troubleshootHref={TROUBLESHOOT_PATH} />}>
      <AppProviders>
        <AppRouter />
      </AppProviders>
    </ErrorBoundary>
  );
}
