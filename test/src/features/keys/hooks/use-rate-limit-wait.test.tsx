import { renderHook } from "@testing-library/react";
import { expect, test } from "vitest";
import { useRateLimitWait } from "@/features/keys/hooks/use-rate-limit-wait";
import { apiError } from "../../troubleshoot/error-samples";

test("a 429 on the list's own query makes refresh and paging wait until Retry-After", () => {
  const error = apiError({ status: 429, retryAfterSeconds: 30, receivedAt: Date.now() });
  const { result } = renderHook(() => useRateLimitWait({ phase: "idle" }, error));
  expect(result.current.waitSeconds).toBe(30);
  expect(result.current.secondsLeft).toBe(30);
});

test("a load of pages that met the rate limit waits until the time it was told", () => {
  const { result } = renderHook(() =>
    useRateLimitWait({ phase: "rate-limited", purpose: "all", until: Date.now() + 5_000 }, null),
  );
  expect(result.current.waitSeconds).toBe(5);
});

test("without a rate limit, or once it has passed, nothing waits", () => {
  expect(renderHook(() => useRateLimitWait({ phase: "idle" }, apiError({ status: 500 }))).result.current).toEqual({
    secondsLeft: null,
    waitSeconds: null,
  });
  const passed = apiError({ status: 429, retryAfterSeconds: 1, receivedAt: Date.now() - 10_000 });
  expect(renderHook(() => useRateLimitWait({ phase: "idle" }, passed)).result.current).toEqual({
    secondsLeft: 0,
    waitSeconds: null,
  });
});
