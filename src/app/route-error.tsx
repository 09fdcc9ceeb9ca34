import { useLocation, useNavigate, useRouteError } from "react-router-dom";
import { AppErrorFallback } from "../features/troubleshoot/components/app-error-fallback";
import { retryFailedLoads } from "../lib/retryable-lazy";
import { FallbackShell } from "./fallback-shell";
import { TROUBLESHOOT_PATH } from "./paths";

/**
 * What the router shows when a page fails to render (its code too): the same panel as every other error,
 * inside the layout, so the header and its navigation stay. Retry loads failed code again.
 */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  // Navigating to the same place again makes the router render the page afresh.
  return (
    <AppErrorFallback
      error={error}
      resetErrorBoundary={() => {
        retryFailedLoads();
        void navigate(location, { replace: true });
      }}
      troubleshootHref={TROUBLESHOOT_PATH}
    />
  );
}

/** When the layout itself failed: the panel in a frame with the same landmarks and links. */
export function RootRouteError() {
  return (
    <FallbackShell>
      <RouteError />
    </FallbackShell>
  );
}
