import { describe, expect, test, vi } from "vitest";
import { validateBaseUrl, normalizeBaseUrl } from "@/lib/check-base-url";
import { createKey } from "@/lib/api/create-key";
import { listKeys } from "@/lib/api/list-keys";
import { MAX_RESPONSE_BYTES, parseRetryAfter, type Connection } from "@/lib/api/transport";
import {
  ApiError,
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  isKeyscopeError,
} from "@/lib/api-errors";
import { ERROR_KINDS, errorTypeUrl, type ErrorCode } from "@/lib/contract";

const SECRET = "ks_root_S3cretK3yValue9876543210";
const DOCS = "https://docs.example.com";
const connection: Connection = { baseUrl: "https://api.example.com/", apiKey: SECRET };

interface Captured {
  url: string;
  init: RequestInit;
}

/** A fetch that answers every request with what `answer` makes, remembering what was asked. */
function stubFetch(answer: () => Response | Promise<Response>) {
  const calls: Captured[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: input instanceof Request ? input.url : input.toString(), init: init ?? {} });
    return Promise.resolve(answer());
  });
  return { fetch, calls };
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function errorEnvelope(code: ErrorCode, extra: Record<string, unknown> = {}) {
  const kind = ERROR_KINDS[code];
  return {
    meta: { requestId: "req_4dJbNq7Uv2" },
    error: { status: kind.status, title: kind.title, detail: kind.detail, type: errorTypeUrl(DOCS, code), ...extra },
  };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

/** Every string reachable from a value's own properties (message and stack included). */
function allStrings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null || seen.has(value)) return [];
  seen.add(value);
  return Object.getOwnPropertyNames(value).flatMap((name) => [
    name,
    ...allStrings(Object.getOwnPropertyDescriptor(value, name)?.value, seen),
  ]);
}

describe("a successful answer", () => {
  test("the seed's envelope gives the keys from data.keys and its request id", async () => {
    const { fetch } = stubFetch(() =>
      json({ meta: { requestId: "req_1" }, data: { keys: [{ keyId: "key_1", name: "Checkout" }] } }),
    );
    await expect(listKeys(connection, {}, { fetch })).resolves.toEqual({
      keys: [{ keyId: "key_1", name: "Checkout" }],
      cursor: undefined,
      hasMore: false,
      requestId: "req_1",
    });
  });

  test("the real service's shape (data as an array, pagination beside it) gives keys and the next cursor", async () => {
    const { fetch } = stubFetch(() =>
      json({
        meta: { requestId: "req_2" },
        data: [
          { keyId: "key_1", name: "A", start: "sk_12", enabled: true, createdAt: 1700000000000, meta: { team: "x" } },
        ],
        pagination: { cursor: "key_1", hasMore: true },
      }),
    );
    await expect(listKeys(connection, {}, { fetch })).resolves.toEqual({
      keys: [
        { keyId: "key_1", name: "A", start: "sk_12", enabled: true, createdAt: 1700000000000, meta: { team: "x" } },
      ],
      cursor: "key_1",
      hasMore: true,
      requestId: "req_2",
    });
  });

  test("optional key fields of the wrong type are dropped, not trusted", async () => {
    const { fetch } = stubFetch(() =>
      json({
        meta: { requestId: "req_3" },
        data: {
          keys: [{ keyId: "key_1", name: "A", start: 5, enabled: "yes", createdAt: "today", expires: null, meta: [] }],
        },
      }),
    );
    const page = await listKeys(connection, {}, { fetch });
    expect(page.keys).toStrictEqual([{ keyId: "key_1", name: "A" }]);
  });

  test("the request is a POST to /v2/keys.listKeys with exactly the seed's headers and the defined fields", async () => {
    const { fetch, calls } = stubFetch(() => json({ meta: { requestId: "req_1" }, data: { keys: [] } }));
    await listKeys(connection, { limit: 10, cursor: undefined, apiId: "api_1" }, { fetch });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe("https://api.example.com/v2/keys.listKeys");
    expect(call?.init).toMatchObject({
      method: "POST",
      credentials: "omit",
      redirect: "follow",
      referrerPolicy: "no-referrer",
      cache: "no-store",
    });
    expect(call?.init.headers).toEqual({ Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" });
    expect(call?.init.body).toBe('{"limit":10,"apiId":"api_1"}');
  });

  test("the header is exactly `Bearer k` for the key k", async () => {
    const { fetch, calls } = stubFetch(() => json({ meta: { requestId: "req_1" }, data: { keys: [] } }));
    await listKeys({ baseUrl: "http://127.0.0.1:8787", apiKey: "k" }, undefined, { fetch });
    expect(calls[0]?.init.headers).toEqual({ Authorization: "Bearer k", "Content-Type": "application/json" });
  });

  test("an empty key sends no Authorization header at all", async () => {
    const { fetch, calls } = stubFetch(() => json(errorEnvelope("err:svc:authentication:missing"), 401));
    const error = await failure(listKeys({ baseUrl: "", apiKey: "  " }, {}, { fetch }));
    expect(calls[0]?.init.headers).toEqual({ "Content-Type": "application/json" });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ keySent: false, missingCredentials: true });
  });
});

describe("every error kind of the contract is an ApiError", () => {
  const codes = Object.keys(ERROR_KINDS).filter((code): code is ErrorCode => code in ERROR_KINDS);

  test.each(codes)("%s keeps its code, status, title, detail, type and request id", async (code) => {
    const kind = ERROR_KINDS[code];
    const { fetch } = stubFetch(() => json(errorEnvelope(code), kind.status));
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code,
      status: kind.status,
      title: kind.title,
      detail: kind.detail,
      type: errorTypeUrl(DOCS, code),
      requestId: "req_4dJbNq7Uv2",
      keySent: true,
      url: "https://api.example.com/v2/keys.listKeys",
      missingCredentials: code === "err:svc:authentication:missing",
    });
  });

  test("a rate-limited answer carries Retry-After in seconds", async () => {
    const { fetch } = stubFetch(() =>
      json(errorEnvelope("err:user:too_many_requests:rate_limited"), 429, { "retry-after": "12" }),
    );
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({ retryAfterSeconds: 12 });
  });

  test("invalid input keeps its errors[] entries and drops the malformed ones", async () => {
    const entries = [{ location: "body.limit", message: "must be ≤ 100", fix: "Use 1 to 100" }, { location: 3 }, "x"];
    const { fetch } = stubFetch(() =>
      json(errorEnvelope("err:svc:application:invalid_input", { errors: entries }), 400),
    );
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toMatchObject({
      errors: [{ location: "body.limit", message: "must be ≤ 100", fix: "Use 1 to 100" }],
    });
  });

  test("problem+json is read the same way", async () => {
    const body = errorEnvelope("err:svc:authentication:key_not_found");
    const { fetch } = stubFetch(
      () =>
        new Response(JSON.stringify(body), { status: 401, headers: { "content-type": "application/problem+json" } }),
    );
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({
      code: "err:svc:authentication:key_not_found",
      status: 401,
    });
  });

  test("a top-level RFC 9457 problem document is an ApiError too", async () => {
    const body = {
      type: `${DOCS}/errors/unkey/authentication/malformed`,
      title: "Bad Request",
      status: 400,
      detail: "x",
    };
    const { fetch } = stubFetch(
      () =>
        new Response(JSON.stringify(body), { status: 400, headers: { "content-type": "application/problem+json" } }),
    );
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({
      code: "err:unkey:authentication:malformed",
      requestId: null,
    });
  });

  test("the real service's 400 invalid_input located in `security` means the credentials were missing", async () => {
    const body = {
      meta: { requestId: "req_r" },
      error: {
        status: 400,
        title: "Bad Request",
        detail: "We were unable to validate the request",
        type: "https://docs.example.com/errors/unkey/application/invalid_input",
        errors: [{ location: "security", message: "authorization header is missing" }],
      },
    };
    const { fetch } = stubFetch(() => json(body, 400));
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toMatchObject({ code: "err:unkey:application:invalid_input", status: 400, missingCredentials: true });
  });

  test("missing title and detail fall back to the HTTP status text", async () => {
    const { fetch } = stubFetch(() => json({ error: { type: `${DOCS}/errors/svc/authorization/key_disabled` } }, 403));
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toMatchObject({ title: "Forbidden", detail: "Forbidden", requestId: null, status: 403 });
  });

  test("an error envelope on a 200 is still an ApiError, with the status it states", async () => {
    const { fetch } = stubFetch(() => json(errorEnvelope("err:svc:application:unexpected_error"), 200));
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({
      name: "ApiError",
      status: 500,
      code: "err:svc:application:unexpected_error",
    });
  });
});

describe("an answer that is not the envelope", () => {
  test("an HTML 502 from a proxy is an UnexpectedResponseError `html` with its status and readable text", async () => {
    const page =
      "<html><head><style>h1{}</style></head><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>";
    const { fetch } = stubFetch(() => new Response(page, { status: 502, headers: { "content-type": "text/html" } }));
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({
      reason: "html",
      status: 502,
      contentType: "text/html",
      bodyExcerpt: "502 Bad Gateway nginx",
    });
  });

  test("an empty 401 is `empty`", async () => {
    const { fetch } = stubFetch(() => new Response("", { status: 401 }));
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({ reason: "empty", status: 401 });
  });

  test("a truncated JSON body is `invalid-json`", async () => {
    const { fetch } = stubFetch(
      () =>
        new Response('{"meta":{"requestId":"req_1"},"data":{"ke', { headers: { "content-type": "application/json" } }),
    );
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({
      reason: "invalid-json",
      status: 200,
    });
  });

  test("keys with fields of the wrong type are `not-envelope`, not a half-parsed list", async () => {
    const { fetch } = stubFetch(() =>
      json({ meta: { requestId: "req_1" }, data: { keys: [{ keyId: 7, name: "A" }] } }),
    );
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({
      reason: "not-envelope",
      requestId: "req_1",
    });
  });

  test("JSON of another shape on an error status is `not-envelope`", async () => {
    const { fetch } = stubFetch(() => json({ message: "Unauthorized" }, 401));
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({
      reason: "not-envelope",
      status: 401,
    });
  });

  test("a 10 MB answer is `too-large`, and the rest of it is never downloaded", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    let pulled = 0;
    const cancel = vi.fn();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 10) controller.close();
        else controller.enqueue(chunk);
      },
      cancel,
    });
    const { fetch } = stubFetch(() => new Response(body, { status: 200 }));
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toMatchObject({ name: "UnexpectedResponseError", reason: "too-large" });
    expect(cancel).toHaveBeenCalled();
    expect(pulled * chunk.byteLength).toBeLessThan(MAX_RESPONSE_BYTES + 3 * chunk.byteLength);
  });

  test("a declared Content-Length over the cap is refused before reading", async () => {
    const { fetch } = stubFetch(
      () =>
        new Response("{}", {
          headers: { "content-length": String(10 * 1024 * 1024), "content-type": "application/json" },
        }),
    );
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({ reason: "too-large" });
  });

  test("the excerpt is plain text of at most 500 characters", async () => {
    const { fetch } = stubFetch(
      () => new Response("x".repeat(10_000), { status: 500, headers: { "content-type": "text/plain" } }),
    );
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toMatchObject({ reason: "not-envelope", status: 500 });
    expect(error instanceof UnexpectedResponseError && error.bodyExcerpt.length).toBeLessThanOrEqual(500);
  });
});

describe("no readable answer", () => {
  test("fetch rejecting is a NetworkError, cross-origin when the API is on another origin than the page", async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError("Failed to fetch")));
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ url: "https://api.example.com/v2/keys.listKeys", crossOrigin: true, offline: false });
  });

  test("a NetworkError for the page's own origin is not blamed on CORS", async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError("Failed to fetch")));
    const error = await failure(listKeys({ baseUrl: location.origin, apiKey: SECRET }, {}, { fetch }));
    expect(error).toMatchObject({ name: "NetworkError", crossOrigin: false });
    const relative = await failure(listKeys({ baseUrl: "", apiKey: SECRET }, {}, { fetch }));
    expect(relative).toMatchObject({ name: "NetworkError", crossOrigin: false, url: "/v2/keys.listKeys" });
  });

  test("a NetworkError says so when the browser is offline", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const fetch = vi.fn(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(failure(listKeys(connection, {}, { fetch }))).resolves.toMatchObject({ offline: true });
  });

  test("a fetch that never answers ends in a TimeoutError", async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => undefined));
    const error = await failure(listKeys(connection, {}, { fetch, timeoutMs: 20 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 20, url: "https://api.example.com/v2/keys.listKeys" });
  });

  test("a body that stops arriving ends in a TimeoutError too", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"meta":'));
      },
    });
    const { fetch } = stubFetch(() => new Response(body));
    await expect(failure(listKeys(connection, {}, { fetch, timeoutMs: 20 }))).resolves.toBeInstanceOf(TimeoutError);
  });

  test("the caller's abort is re-thrown as is, so react-query can cancel", async () => {
    const controller = new AbortController();
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => {
            const reason: unknown = init.signal?.reason;
            reject(reason instanceof Error ? reason : new Error("aborted"));
          });
        }),
    );
    const pending = listKeys(connection, {}, { fetch, signal: controller.signal });
    controller.abort();
    const error = await failure(pending);
    expect(error).toBe(controller.signal.reason);
    expect(error).toMatchObject({ name: "AbortError" });
  });

  test("an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const { fetch } = stubFetch(() => json({}));
    await expect(failure(listKeys(connection, {}, { fetch, signal: controller.signal }))).resolves.toBe(
      controller.signal.reason,
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("the key is a secret", () => {
  const echoes: [string, () => Response][] = [
    [
      "an error envelope echoing it",
      () =>
        json(
          {
            meta: { requestId: SECRET },
            error: {
              status: 401,
              title: SECRET,
              detail: `Bearer ${SECRET} is unknown`,
              type: `${DOCS}/errors/svc/authentication/${SECRET}`,
              errors: [{ location: SECRET, message: SECRET, fix: SECRET }],
            },
          },
          401,
          { "x-request-id": SECRET },
        ),
    ],
    [
      "an HTML page echoing it",
      () =>
        new Response(`<p>Authorization: Bearer ${SECRET}</p>`, {
          status: 502,
          headers: { "content-type": `text/html; ${SECRET}` },
        }),
    ],
    [
      "invalid JSON echoing it",
      () => new Response(`{"key": "${SECRET}`, { status: 400, headers: { "content-type": "application/json" } }),
    ],
    ["a foreign JSON shape echoing it", () => json({ meta: { requestId: SECRET }, seen: SECRET }, 403)],
    ["a 401 echoing it URL-encoded", () => new Response(encodeURIComponent(`${SECRET}`), { status: 401 })],
  ];

  test.each(echoes)("never appears in the error from %s", async (_name, answer) => {
    const { fetch } = stubFetch(answer);
    const error = await failure(listKeys(connection, {}, { fetch }));
    expect(isKeyscopeError(error)).toBe(true);
    const strings = allStrings(error);
    expect(strings.length).toBeGreaterThan(3);
    expect(strings.filter((text) => text.includes(SECRET))).toEqual([]);
  });

  test("never appears in a NetworkError or a TimeoutError, even when pasted into the base URL", async () => {
    const leaky: Connection = { baseUrl: `https://api.example.com/${SECRET}`, apiKey: SECRET };
    const rejected = await failure(listKeys(leaky, {}, { fetch: () => Promise.reject(new TypeError(SECRET)) }));
    const timedOut = await failure(
      listKeys(leaky, {}, { fetch: () => new Promise<Response>(() => undefined), timeoutMs: 5 }),
    );
    for (const error of [rejected, timedOut]) {
      expect(isKeyscopeError(error)).toBe(true);
      expect(allStrings(error).filter((text) => text.includes(SECRET))).toEqual([]);
    }
  });

  test("a new key's secret in a malformed createKey answer is not in the error either", async () => {
    const created = "sk_NewSecretInAMalformedAnswer77";
    const { fetch } = stubFetch(() => json({ meta: { requestId: "req_1" }, data: { keyId: 42, key: created } }));
    const error = await failure(createKey(connection, { apiId: "api_1" }, { fetch }));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({
      reason: "not-envelope",
      bodyExcerpt: expect.stringContaining('"keyId":42') as unknown,
    });
    expect(allStrings(error).filter((text) => text.includes(created))).toEqual([]);
  });

  test("a key that cannot travel in a header is refused before anything is sent", async () => {
    const { fetch } = stubFetch(() => json({}));
    const error = await failure(listKeys({ baseUrl: "", apiKey: "“sk_quoted”" }, {}, { fetch }));
    expect(error).toBeInstanceOf(InvalidConnectionError);
    expect(error).toMatchObject({ field: "apiKey" });
    expect(allStrings(error).join("\n")).not.toContain("sk_quoted");
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("base URLs", () => {
  test.each([
    [" https://api.example.com/ ", "https://api.example.com"],
    ["https://api.example.com///", "https://api.example.com"],
    ["http://127.0.0.1:8787", "http://127.0.0.1:8787"],
    ["https://example.com/unkey/", "https://example.com/unkey"],
    ["", ""],
    ["/", ""],
    ["/api/", "/api"],
  ])("%j is normalized to %j", (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  test.each([
    ["javascript:alert(1)", "base-url-not-http"],
    ["ftp://example.com", "base-url-not-http"],
    ["localhost:8787", "base-url-not-http"],
    ["//evil.example", "base-url-not-http"],
    ["https://user:pass@example.com", "base-url-has-credentials"],
    ["https://example.com/?a=1", "base-url-has-query"],
    ["https://exa mple.com", "base-url-unparsable"],
  ])("%j is refused as %s", (input, problem) => {
    expect(() => normalizeBaseUrl(input)).toThrow(InvalidConnectionError);
    expect(validateBaseUrl(input)).toMatchObject({ ok: false, error: { problem, field: "baseUrl" } });
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  test.each([
    ["12", 12],
    [" 0 ", 0],
    ["Thu, 01 Jan 2026 00:00:30 GMT", 30],
    ["Wed, 31 Dec 2025 23:59:00 GMT", 0],
    ["-5", null],
    ["soon", null],
    [null, null],
  ])("%j means %j seconds", (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });
});
