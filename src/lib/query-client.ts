/** The one QueryClient setup: which failures are worth retrying, and the error type every query reports. */
import { QueryClient } from "@tanstack/react-query";
import { ApiError, NetworkError, UnexpectedResponseError, type KeyscopeError } from "./api-errors";

declare module "@tanstack/react-query" {
  interface Register {
    defaultError: KeyscopeError;
  }
}

const MAX_RETRIES = 2;
const RETRY_DELAYS_MS = [500, 1500];

/**
 * Retry only what may go away by itself: an API that did not answer and 5xx answers, at most twice.
 * A 4xx, a timeout (already 15 s of waiting), a 2xx in the wrong shape, or a bad setting will not.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  // Only a server that did not answer may come back; a page-refused address or a CORS block stays so.
  if (error instanceof NetworkError) return error.failure === "unreachable" || error.failure === "offline";
  if (error instanceof ApiError || error instanceof UnexpectedResponseError) return error.status >= 500;
  return false;
}

export function retryDelay(failureCount: number): number {
  return RETRY_DELAYS_MS[Math.min(failureCount, RETRY_DELAYS_MS.length - 1)] ?? 1500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: {
        retry: false,
        // Sent even when the browser says it is offline, so that it fails at once and says so in place: paused, a
        // change showed as made (optimistic) while nothing had been sent, until the connection came back.
        networkMode: "always",
      },
    },
  });
}
