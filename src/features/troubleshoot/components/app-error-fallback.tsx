import type { FallbackProps } from "react-error-boundary";
import type { ErrorPanelProps } from "./error-panel";
import { LazyErrorPanel } from "./lazy-error-panel";

export type AppErrorFallbackProps = FallbackProps & Omit<ErrorPanelProps, "error" | "onRetry">;

/**
 * A react-error-boundary fallback: whatever was thrown gets the same guided panel, and Retry resets the
 * boundary (inside a QueryErrorResetBoundary that also retries the failed query). Usable as
 * `FallbackComponent`, or through `fallbackRender` to add `onReenterKey`, `baseUrl` or `troubleshootHref`.
 */
export function AppErrorFallback({ error, resetErrorBoundary, ...panel }: AppErrorFallbackProps) {
  return (
    <div className="app-error-fallback">
      <LazyErrorPanel error={error} onRetry={() => resetErrorBoundary()} {...panel} />
    </div>
  );
}
