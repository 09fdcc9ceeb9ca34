import { Suspense, type ReactNode } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { CodeLoadError } from "../lib/retryable-lazy";
import { RetryLoadButton } from "./retry-load-button";

export interface LateCodeBoundaryProps {
  /** What the part is, to start the sentence said when its code cannot load ("The export"). */
  what: string;
  /** Shown while the code comes. */
  loading?: ReactNode;
  /** A line inside running text (beside a button) rather than a paragraph of its own. */
  inline?: boolean;
  children: ReactNode;
}

/**
 * Around a part whose code loads late: `loading` while it comes; if it cannot come (offline, the server down, a
 * stale deploy), a line in the part's place says so with Retry, and the page around it stays. Any other error
 * goes on to the page's boundary: it is not the network's doing, and "could not be loaded" would be untrue.
 */
export function LateCodeBoundary({ what, loading = null, inline = false, children }: LateCodeBoundaryProps) {
  const Line = inline ? "span" : "p";
  return (
    <ErrorBoundary
      fallbackRender={({ error, resetErrorBoundary }) => {
        if (!(error instanceof CodeLoadError)) throw error;
        return (
          <Line role="alert">
            {what} could not be loaded from the server. <RetryLoadButton onRetry={resetErrorBoundary} />
          </Line>
        );
      }}
    >
      <Suspense fallback={loading}>{children}</Suspense>
    </ErrorBoundary>
  );
}
