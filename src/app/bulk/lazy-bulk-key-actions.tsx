import { Suspense } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { RetryLoadButton } from "../../components/retry-load-button";
import { retryableLazy } from "../../lib/retryable-lazy";
import type { BulkKeyActionsProps } from "./bulk-key-actions";

// Loaded when a first key is selected, with the catalog that names its failures: never on the way to the first row.
const BulkKeyActions = retryableLazy(
  () => import("./bulk-key-actions"),
  (module) => module.BulkKeyActions,
);

/** The bulk actions, loaded on first use; if their code cannot load, a line says so with a way to try again. */
export function LazyBulkKeyActions(props: BulkKeyActionsProps) {
  return (
    <ErrorBoundary
      fallbackRender={({ resetErrorBoundary }) => (
        <span role="alert">
          The bulk actions could not be loaded. <RetryLoadButton onRetry={resetErrorBoundary} />
        </span>
      )}
    >
      <Suspense fallback={<span role="status">Loading the bulk actions…</span>}>
        <BulkKeyActions {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
