import { expect, test } from "vitest";
import {
  ApiError,
  InternalError,
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../../src/lib/api-errors";
import { createQueryClient, retryDelay, shouldRetry } from "../../../src/lib/query-client";

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
  return new UnexpectedResponseError({ status, contentType: null, reason: "html", bodyExcerpt: "", requestId: null, url: "/" });
}

const network = new NetworkError({ url: "/", offline: false, crossOrigin: false });

test.each([
  ["a NetworkError, first failure", 0, network, true],
  ["a NetworkError, second failure", 1, network, true],
  ["a NetworkError, third failure", 2, network, false],
  ["an address this page refuses to call", 0, new NetworkError({ url: "/", offline: false, crossOrigin: true, failure: "blocked-by-page" }), false],
  ["a CORS block (something answered)", 0, new NetworkError({ url: "/", offline: false, crossOrigin: true, failure: "cors" }), false],
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

test("the query client uses the retry policy and does not refetch on focus", () => {
  const defaults = createQueryClient().getDefaultOptions().queries;
  expect(defaults).toMatchObject({ retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 });
});
