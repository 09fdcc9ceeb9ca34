import { Component, lazy, Suspense, type ReactNode } from "react";
import type { FallbackProps } from "react-error-boundary";
import type { ErrorPanelProps } from "./error-panel";

export type AppErrorFallbackProps = FallbackProps & Omit<ErrorPanelProps, "error" | "onRetry">;

// The panel and its catalog are a tenth of the first screen's JavaScript and are needed only once something
// failed: they load then (the keys page, which shows them often, has them in its own chunk already).
const ErrorPanel = lazy(async () => ({ default: (await import("./error-panel")).ErrorPanel }));

/**
 * A react-error-boundary fallback: whatever was thrown gets the same guided panel, and Retry resets the
 * boundary (inside a QueryErrorResetBoundary that also retries the failed query). Usable as
 * `FallbackComponent`, or through `fallbackRender` to add `onReenterKey`, `baseUrl` or `troubleshootHref`.
 */
export function AppErrorFallback({ error, resetErrorBoundary, ...panel }: AppErrorFallbackProps) {
  const retry = () => resetErrorBoundary();
  return (
    <div className="app-error-fallback">
      <PanelLoadFailed error={error} onRetry={retry}>
        <Suspense fallback={<p role="status">Something went wrong; loading the details…</p>}>
          <ErrorPanel error={error} onRetry={retry} {...panel} />
        </Suspense>
      </PanelLoadFailed>
    </div>
  );
}

interface PanelLoadFailedProps {
  error: unknown;
  onRetry: () => void;
  children: ReactNode;
}

/** When the panel's own code cannot load (offline, a stale deploy), the error still shows, never a blank page. */
class PanelLoadFailed extends Component<PanelLoadFailedProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const { error, onRetry } = this.props;
    return (
      <div role="alert">
        <h2>Something went wrong</h2>
        <p>{error instanceof Error ? error.message : String(error)}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>{" "}
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
}
