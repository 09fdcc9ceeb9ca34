import { ApiError } from "@/lib/api-errors";
import { useSecondsUntil } from "@/lib/hooks/use-seconds-until";
import type { LoadState } from "./use-keys-loader";

/**
 * A spent rate limit, met by a load of many pages or by the list's own query: nothing may be asked of the API
 * before Retry-After, neither a refresh nor a page.
 */
export function useRateLimitWait(loadState: LoadState, queryError: unknown) {
  const until =
    loadState.phase === "rate-limited"
      ? loadState.until
      : queryError instanceof ApiError && queryError.status === 429
        ? queryError.retryAt
        : null;
  const secondsLeft = useSecondsUntil(until);
  const waiting = secondsLeft !== null && secondsLeft > 0;
  return {
    /** Seconds until Retry-After (0 once it has passed); null without a rate limit. */
    secondsLeft,
    /** Seconds to wait before asking again, or null when the API may be asked now. */
    waitSeconds: waiting ? secondsLeft : null,
  };
}
