import { Component, Suspense, type ReactNode } from "react";
import { retryFailedLoads, retryableLazy } from "../../../lib/retryable-lazy";
import type { ErrorPanelProps } from "./error-panel";

// The panel and its catalog are needed only once something failed: not on the way to a first screen (the
// first bundle, or the keys page before its first row), but loaded once that screen is idle (the app calls
// `preloadErrorPanel`), since a failure is often the server going away.
const ErrorPanel = retryableLazy(async () => (await import("./error-panel")).ErrorPanel);

export const preloadErrorPanel = (): Promise<void> => ErrorPanel.preload();

/** The error panel, loaded on first use; if its code cannot load, the error's message still shows. */
export function LazyErrorPanel(props: ErrorPanelProps) {
  return (
    <PanelLoadFailed error={props.error} onRetry={props.onRetry}>
      <Suspense fallback={<p role="status">Something went wrong; loading the details…</p>}>
        <ErrorPanel {...props} />
      </Suspense>
    </PanelLoadFailed>
  );
}

interface PanelLoadFailedProps {
  error: unknown;
  onRetry: (() => void) | undefined;
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
        </button>
        {onRetry && (
          <>
            {" "}
            <button
              type="button"
              className="button"
              onClick={() => {
                retryFailedLoads();
                onRetry();
              }}
            >
              Retry
            </button>
          </>
        )}
      </div>
    );
  }
}
