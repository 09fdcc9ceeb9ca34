import { focusManager, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  ApiError,
  InternalError,
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
} from "@/lib/api-errors";
import { createQueryClient, retryDelay, shouldRetry } from "@/lib/query-client";

function apiError(status: number) {
  return new ApiError({
    status,
    title: "t",
    detail: "d",
    type: "",
    requestId: null,
    errors: [],
    retryAfterSeconds: null,
    keySent: true,
    url: "/v2/keys.listKeys",
  });
}

function unexpected(status: number) {
  return new UnexpectedResponseError({
    status,
    contentType: null,
    reason: "html",
    bodyExcerpt: "",
    requestId: null,
    url: "/",
  });
}

const network = new NetworkError({ url: "/", offline: false, crossOrigin: false });

test.each([
  ["a NetworkError, first failure", 0, network, true],
  ["a NetworkError, second failure", 1, network, true],
  ["a NetworkError, third failure", 2, network, false],
  [
    "an address this page refuses to call",
    0,
    new NetworkError({ url: "/", offline: false, crossOrigin: true, failure: "blocked-by-page" }),
    false,
  ],
  [
    "a CORS block (something answered)",
    0,
    new NetworkError({ url: "/", offline: false, crossOrigin: true, failure: "cors" }),
    false,
  ],
  ["a 500 ApiError", 0, apiError(500), true],
  ["a 503 ApiError after two retries", 2, apiError(503), false],
  ["a 502 HTML page from a proxy", 1, unexpected(502), true],
  ["a 400 ApiError", 0, apiError(400), false],
  ["a 401 ApiError", 0, apiError(401), false],
  ["a 403 ApiError", 0, apiError(403), false],
  ["a 404 ApiError", 0, apiError(404), false],
  ["a 429 ApiError", 0, apiError(429), false],
  ["an empty 401", 0, unexpected(401), false],
  ["a 200 in the wrong shape", 0, unexpected(200), false],
  ["a TimeoutError", 0, new TimeoutError({ url: "/", timeoutMs: 15_000 }), false],
  ["an invalid base URL", 0, new InvalidConnectionError("base-url-not-http"), false],
  ["a bug in Keyscope", 0, new InternalError("TypeError: x"), false],
  ["anything else thrown", 0, new Error("x"), false],
])("%s (failure count %i) is retried: %s", (_name, failureCount, error, expected) => {
  expect(shouldRetry(failureCount, error)).toBe(expected);
});

test("retries back off: 500 ms, then 1500 ms", () => {
  expect([retryDelay(0), retryDelay(1), retryDelay(5)]).toEqual([500, 1500, 1500]);
});

describe("a query of the app's client", () => {
  afterEach(() => {
    vi.useRealTimers();
    focusManager.setFocused(undefined);
  });

  /** A query function that fails with each of `failures` in turn, then answers. */
  function failingThen(...failures: unknown[]) {
    const calls: number[] = [];
    const queryFn = () => {
      calls.push(Date.now());
      const failure = failures[calls.length - 1];
      return failure === undefined
        ? Promise.resolve("keys")
        : Promise.reject(failure instanceof Error ? failure : new Error("not an error"));
    };
    return { calls, queryFn };
  }

  test("is asked again after a 503 and a server that did not answer, 500 ms then 1500 ms later, and answers", async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const { calls, queryFn } = failingThen(apiError(503), network);
    const answer = client.fetchQuery({ queryKey: ["keys"], queryFn });
    await vi.runAllTimersAsync();
    await expect(answer).resolves.toBe("keys");
    expect(calls.map((time) => time - (calls[0] ?? 0))).toEqual([0, 500, 2000]);
  });

  test("fails at once on a 401, and after three tries on a server that keeps failing", async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const refused = failingThen(apiError(401));
    await expect(client.fetchQuery({ queryKey: ["refused"], queryFn: refused.queryFn })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(refused.calls).toHaveLength(1);

    const down = failingThen(apiError(503), apiError(503), apiError(503), apiError(503));
    const answer = client.fetchQuery({ queryKey: ["down"], queryFn: down.queryFn });
    const settled = answer.catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await settled).toBeInstanceOf(ApiError);
    expect(down.calls).toHaveLength(3);
  });

  test("is not asked again while its answer is under 30 s old, nor when the window regains focus after", async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    // As QueryClientProvider does: a mounted client hears focus and reconnection.
    client.mount();
    const { calls, queryFn } = failingThen();
    const observer = new QueryObserver(client, { queryKey: ["keys"], queryFn });
    const stop = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().data).toBe("keys");
    await vi.advanceTimersByTimeAsync(29_000);
    await client.fetchQuery({ queryKey: ["keys"], queryFn });
    expect(calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(2_000);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    // Stale by now: the next ask goes to the API.
    await client.fetchQuery({ queryKey: ["keys"], queryFn });
    expect(calls).toHaveLength(2);
    stop();
    client.unmount();
  });
});
