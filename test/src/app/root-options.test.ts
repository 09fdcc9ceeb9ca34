import { afterEach, expect, test, vi } from "vitest";
import { rootOptions } from "@/app/root-options";
import { ApiError } from "@/lib/api-errors";

afterEach(() => {
  vi.unstubAllGlobals();
});

const info = { componentStack: "", errorBoundary: undefined };

test("an API refusal caught by a boundary is not reported: the panel explains it", () => {
  const reportError = vi.fn();
  vi.stubGlobal("reportError", reportError);
  const refusal = new ApiError({
    status: 401,
    title: "Unauthorized",
    detail: "Authentication credentials were not provided",
    type: "http://localhost/docs/errors/svc/authentication/missing",
    requestId: "req_1",
    errors: [],
    retryAfterSeconds: null,
    keySent: false,
    url: "http://localhost/v2/keys.listKeys",
  });
  rootOptions.onCaughtError?.(refusal, info);
  expect(reportError).not.toHaveBeenCalled();
});

test("a bug caught by a boundary is still reported", () => {
  const reportError = vi.fn();
  vi.stubGlobal("reportError", reportError);
  const bug = new TypeError("cannot read properties of undefined");
  rootOptions.onCaughtError?.(bug, info);
  expect(reportError).toHaveBeenCalledWith(bug);
});
