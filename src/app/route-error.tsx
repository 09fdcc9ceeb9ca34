import { useLocation, useNavigate, useRouteError } from "react-router-dom";
import { AppErrorFallback } from "../features/troubleshoot/components/app-error-fallback";
import { TROUBLESHOOT_PATH } from "./paths";

/** What the router shows when a page fails to render: the same panel as every other error, never a blank page. */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  // Navigating to the same place again makes the router render the page afresh.
  return (
    <AppErrorFallback
      error={error}
      resetErrorBoundary={() => void navigate(location, { replace: true })}
      troubleshootHref={TROUBLESHOOT_PATH}
    />
  );
}
