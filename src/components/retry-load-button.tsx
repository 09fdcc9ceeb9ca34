import { retryFailedLoads } from "../lib/retryable-lazy";

/**
 * Retry for a part whose code could not load: every failed load is tried again, then `onRetry` runs (an error
 * boundary's reset; a part that reads its code with useLateCode needs none).
 */
export function RetryLoadButton({
  onRetry,
  className = "button button--small",
}: {
  onRetry?: () => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        retryFailedLoads();
        onRetry?.();
      }}
    >
      Retry
    </button>
  );
}
