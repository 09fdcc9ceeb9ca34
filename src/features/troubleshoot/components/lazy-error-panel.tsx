import { Suspense } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { InternalError, toKeyscopeError } from "@/lib/api-errors";
import { retryFailedLoads, retryableLazy } from "@/lib/retryable-lazy";
import type { ErrorPanelProps } from "./error-panel";

// The panel and its catalog are needed only once something failed: not on the way to a first screen (the
// first bundle, or the keys page before its first row), but loaded once that screen is idle (the app calls
// `preloadErrorPanel`), since a failure is often the server going away.
const ErrorPanel = retryableLazy(
  () => import("./error-panel"),
  (module) => module.ErrorPanel,
);

export const preloadErrorPanel = (): Promise<void> => ErrorPanel.preload();

/** The error panel, loaded on first use; if its code cannot load, the error's message still shows. */
export function LazyErrorPanel(props: ErrorPanelProps) {
  return (
    <ErrorBoundary fallbackRender={() => <PanelCodeFailed error={props.error} onRetry={props.onRetry} />}>
      <Suspense fallback={<p role="status">Something went wrong; loading the details…</p>}>
        <ErrorPanel {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}

/** When the panel's own code cannot load (offline, a stale deploy): the error in a line, never a blank page. */
function PanelCodeFailed({ error, onRetry }: Pick<ErrorPanelProps, "error" | "onRetry">) {
  // Through the one scrub: a foreign error's message could hold the key.
  const failure = toKeyscopeError(error);
  return (
    <div role="alert">
      <h2>Something went wrong</h2>
      <p>{failure instanceof InternalError ? failure.summary : failure.message}</p>
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
              // The panel's code is tried again with the retry.
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
