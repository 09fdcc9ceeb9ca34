import type { InfiniteData, InfiniteQueryObserverResult } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { KeysPage } from "@/lib/api/list-keys";
import { ApiError, NetworkError } from "@/lib/api-errors";

/**
 * Loading pages after the first, one after another, until a goal is met or there are none left: for
 * "load more", "load all", a filter that finds nothing yet, an export of everything, and the pages a refresh
 * loads again. It never stops
 * silently: a 429 waits for Retry-After and goes on, offline waits for the connection, the person may stop it,
 * and any other failure ends it as "failed" for the list to show.
 */
export type LoadPurpose = "more" | "all" | "search" | "export" | "refresh";

export type LoadState =
  | { phase: "idle" }
  | { phase: "loading"; purpose: LoadPurpose }
  | { phase: "rate-limited"; purpose: LoadPurpose; until: number }
  | { phase: "offline"; purpose: LoadPurpose }
  | { phase: "stopped"; purpose: LoadPurpose }
  | { phase: "done"; purpose: LoadPurpose }
  | { phase: "failed"; purpose: LoadPurpose };

/** When the API sends no Retry-After with a 429, wait this long before the next page. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 10_000;

type Data = InfiniteData<KeysPage, unknown>;
/** Whether the pages loaded so far are enough. */
export type LoadGoal = (pages: readonly KeysPage[]) => boolean;
type NextPage = (options?: { cancelRefetch?: boolean }) => Promise<InfiniteQueryObserverResult<Data>>;

export interface KeysLoader {
  state: LoadState;
  /** Loads until `goal` holds for the loaded pages, or no page is left. */
  start: (purpose: LoadPurpose, goal?: LoadGoal) => Promise<void>;
  /** Goes on with the last run, stopped or failed: its purpose and its goal. */
  resume: () => Promise<void>;
  stop: () => void;
  /** Back to idle (a new filter, a refresh): any run in progress ends without a word, its purpose gone. */
  reset: () => void;
}

export function useKeysLoader(fetchNextPage: NextPage): KeysLoader {
  const [state, setState] = useState<LoadState>({ phase: "idle" });
  const running = useRef<AbortController | null>(null);
  const lastRun = useRef<{ purpose: LoadPurpose; goal?: LoadGoal }>({ purpose: "more" });

  useEffect(() => () => running.current?.abort(), []);

  const reset = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState({ phase: "idle" });
  }, []);

  const stop = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState((current) =>
      "purpose" in current && current.phase !== "done" ? { phase: "stopped", purpose: current.purpose } : current,
    );
  }, []);

  const start = useCallback(
    async (purpose: LoadPurpose, goal?: LoadGoal) => {
      lastRun.current = { purpose, goal };
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      const { signal } = controller;
      setState({ phase: "loading", purpose });
      for (;;) {
        const result = await fetchNextPage({ cancelRefetch: false });
        if (signal.aborted) return;
        if (result.isFetchNextPageError || (result.isError && result.data !== undefined)) {
          const error = result.error;
          if (error instanceof ApiError && error.status === 429) {
            const until = error.retryAt ?? Date.now() + DEFAULT_RATE_LIMIT_WAIT_MS;
            setState({ phase: "rate-limited", purpose, until });
            if (!(await sleep(until - Date.now(), signal))) return;
          } else if (error instanceof NetworkError && !navigator.onLine) {
            setState({ phase: "offline", purpose });
            if (!(await backOnline(signal))) return;
          } else {
            setState({ phase: "failed", purpose });
            running.current = null;
            return;
          }
          setState({ phase: "loading", purpose });
          continue;
        }
        const pages = result.data?.pages ?? [];
        if (purpose === "more" || !result.hasNextPage || (goal?.(pages) ?? false)) {
          setState(purpose === "more" ? { phase: "idle" } : { phase: "done", purpose });
          running.current = null;
          return;
        }
      }
    },
    [fetchNextPage],
  );

  const resume = useCallback(() => start(lastRun.current.purpose, lastRun.current.goal), [start]);

  return { state, start, resume, stop, reset };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      },
      Math.max(0, ms),
    );
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Resolves true when the browser is online again, or false as soon as `signal` aborts. */
function backOnline(signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    if (navigator.onLine) return resolve(true);
    const onOnline = () => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    };
    const onAbort = () => {
      window.removeEventListener("online", onOnline);
      resolve(false);
    };
    window.addEventListener("online", onOnline, { once: true });
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
