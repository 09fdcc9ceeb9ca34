import { expect, test } from "vitest";
import { ApiError, isApiErrorOf, type ApiErrorInit } from "@/lib/api-errors";

function answer(status: number, type: string): ApiError {
  const init: ApiErrorInit = {
    status,
    title: "Not Found",
    detail: "",
    type,
    requestId: null,
    errors: [],
    retryAfterSeconds: null,
    keySent: true,
    url: "https://api.example.com/v2/apis.getApi",
  };
  return new ApiError(init);
}

test("an error's kind is read from its code, the same for the real service's system and the reference server's", () => {
  const real = answer(404, "https://unkey.com/docs/errors/unkey/data/api_not_found");
  const reference = answer(404, "https://keyscope.local/docs/errors/svc/data/api_not_found");
  for (const error of [real, reference]) {
    expect(error.kind).toBe("data:api_not_found");
    expect(isApiErrorOf(error, "data:api_not_found")).toBe(true);
    expect(isApiErrorOf(error, "data:key_not_found")).toBe(false);
  }
});

test("an answer whose type only mentions a kind's words is not of that kind", () => {
  // A proxy's own 404, linking to a page about missing APIs: not the service saying the API does not exist.
  const proxy = answer(404, "https://proxy.example.com/help/api_not_found.html");
  expect(proxy.kind).toBeNull();
  expect(isApiErrorOf(proxy, "data:api_not_found")).toBe(false);
  expect(isApiErrorOf(new Error("data:api_not_found"), "data:api_not_found")).toBe(false);
});

test("only the contract's kinds can be asked for", () => {
  const error = answer(404, "https://unkey.com/docs/errors/unkey/data/api_not_found");
  // @ts-expect-error a kind the contract does not name
  expect(isApiErrorOf(error, "data:api_gone")).toBe(false);
});
