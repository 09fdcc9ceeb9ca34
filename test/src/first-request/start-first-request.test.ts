import { afterEach, expect, test, vi } from "vitest";
import { readConnection, saveConnection } from "@/features/connect/key-store";
import { fetchKeysPage } from "@/features/keys/api/list-keys";
import { FIRST_REQUEST_SYMBOL } from "@/lib/api/first-request";
import type { Connection } from "@/lib/api/transport";
import { ApiError, NetworkError } from "@/lib/api-errors";
import { firstRequestOf, startFirstRequest } from "@/first-request/start-first-request";

const KEY = "ks_root_S3cretK3yValue9876543210";
const BASE_URL = "http://127.0.0.1:8787";
const PAGE = {
  meta: { requestId: "req_1" },
  data: {
    keys: [{ keyId: "key_1", start: "sk_1", enabled: true, name: "Billing worker", createdAt: 1_700_000_000_000 }],
  },
  pagination: { hasMore: false },
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** The browser's fetch, counted: what the app sends itself instead of adopting. */
function network() {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((input: string) => {
      calls.push(input);
      return Promise.resolve(json(PAGE));
    }),
  );
  return calls;
}

/** Runs the early module as index.html would, on this test's sessionStorage and location. */
function startEarly(pathname: string, early: (input: string, init: RequestInit) => Promise<Response>) {
  const handoff = startFirstRequest({ pathname, storage: sessionStorage, fetch: early });
  if (handoff !== null)
    Object.defineProperty(globalThis, Symbol.for(FIRST_REQUEST_SYMBOL), { value: handoff, configurable: true });
  return handoff;
}

function connection(): Connection {
  const stored = readConnection();
  if (stored === null) throw new Error("no stored connection");
  return stored;
}

afterEach(() => {
  Reflect.deleteProperty(globalThis, Symbol.for(FIRST_REQUEST_SYMBOL));
  vi.unstubAllGlobals();
});

test("the keys list adopts the request started early: one request, parsed by the client, and only once", async () => {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  const sent = network();
  const early = vi.fn((_input: string, _init: RequestInit) => Promise.resolve(json(PAGE)));
  expect(startEarly("/keys", early)).not.toBeNull();
  expect(early).toHaveBeenCalledTimes(1);
  expect(early.mock.calls[0]?.[0]).toBe(`${BASE_URL}/v2/keys.listKeys`);

  const page = await fetchKeysPage(connection(), {}, undefined, new AbortController().signal);
  expect(page.keys.map((key) => key.keyId)).toEqual(["key_1"]);
  expect(page.requestId).toBe("req_1");
  expect(sent).toEqual([]);

  // A refresh of the first page is a request of its own.
  await fetchKeysPage(connection(), {}, undefined, new AbortController().signal);
  expect(sent).toEqual([`${BASE_URL}/v2/keys.listKeys`]);
  expect(early).toHaveBeenCalledTimes(1);
});

test("with an API ID, the real service's operation is started early and adopted", async () => {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY, apiId: "api_123" });
  const sent = network();
  const early = vi.fn((_input: string, _init: RequestInit) =>
    Promise.resolve(json({ meta: { requestId: "req_2" }, data: PAGE.data.keys })),
  );
  startEarly("/", early);
  expect(early.mock.calls[0]?.[0]).toBe(`${BASE_URL}/v2/apis.listKeys`);
  expect(early.mock.calls[0]?.[1]?.body).toBe(JSON.stringify({ apiId: "api_123" }));

  const page = await fetchKeysPage(connection(), {}, undefined, new AbortController().signal);
  expect(page.keys.map((key) => key.keyId)).toEqual(["key_1"]);
  expect(sent).toEqual([]);
});

test("an early request that is refused is the client's usual ApiError, with no second request", async () => {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  const sent = network();
  const refusal = {
    meta: { requestId: "req_3" },
    error: {
      status: 401,
      title: "Unauthorized",
      detail: "The key was not found",
      type: "https://unkey.com/docs/errors/unkey/authentication/key_not_found",
    },
  };
  startEarly("/keys", () => Promise.resolve(json(refusal, 401)));

  const failure = await fetchKeysPage(connection(), {}, undefined, new AbortController().signal).catch(
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ApiError);
  expect(failure).toMatchObject({ status: 401, requestId: "req_3" });
  expect(sent).toEqual([]);
});

test("an early request that gets no answer is the client's usual NetworkError", async () => {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  vi.stubGlobal(
    "fetch",
    vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
  );
  startEarly("/keys", () => Promise.reject(new TypeError("Failed to fetch")));

  const failure = await fetchKeysPage(connection(), {}, undefined, new AbortController().signal).catch(
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(NetworkError);
});

test("another key's request is not adopted: the client sends its own", async () => {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  const sent = network();
  const early = vi.fn(() => Promise.resolve(json(PAGE)));
  startEarly("/keys", early);

  await fetchKeysPage(
    { baseUrl: BASE_URL, apiKey: "ks_root_AnotherK3yValue12345678" },
    {},
    undefined,
    new AbortController().signal,
  );
  expect(sent).toEqual([`${BASE_URL}/v2/keys.listKeys`]);
});

test("a key forgotten in another tab after this tab got its copy is not sent early", () => {
  // This tab's copy of the key was stored before any Forget key; then another tab forgot it.
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  sessionStorage.setItem("keyscope.keyForgetMark", "none");
  const start = () => firstRequestOf({ pathname: "/keys", storage: sessionStorage, sharedStorage: localStorage });
  expect(start()).not.toBeNull();
  localStorage.setItem("keyscope.keyForgotten", "forgotten-elsewhere");
  expect(start()).toBeNull();
  // A key entered after that Forget key carries its mark, and is sent.
  sessionStorage.setItem("keyscope.keyForgetMark", "forgotten-elsewhere");
  expect(start()).not.toBeNull();
});

test("nothing is sent early without a key, off the keys page, or when the stored connection is not in the client's form", () => {
  const start = (pathname: string) => firstRequestOf({ pathname, storage: sessionStorage });
  expect(start("/keys")).toBeNull();

  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  expect(start("/keys")).not.toBeNull();
  expect(start("/")).not.toBeNull();
  expect(start("/troubleshoot")).toBeNull();
  expect(start("/keys/key_1")).toBeNull();
  expect(start("/connect")).toBeNull();

  // The client would normalise these (or refuse them): the app sends its own request instead.
  for (const baseUrl of [
    `${BASE_URL}/`,
    " http://127.0.0.1:8787",
    "HTTP://127.0.0.1:8787",
    "http://user:pw@127.0.0.1:8787",
    "",
    "javascript:alert(1)",
  ]) {
    sessionStorage.setItem("keyscope.baseUrl", baseUrl);
    expect(start("/keys"), baseUrl).toBeNull();
  }
  sessionStorage.setItem("keyscope.baseUrl", BASE_URL);
  sessionStorage.setItem("keyscope.apiKey", "two words");
  expect(start("/keys")).toBeNull();
});

test("the key goes in the Authorization header only, never in the address", () => {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  const request = firstRequestOf({ pathname: "/keys", storage: sessionStorage });
  expect(request?.url).not.toContain(KEY);
  expect(request?.init.body).not.toContain(KEY);
  expect(new Headers(request?.init.headers).get("authorization")).toBe(`Bearer ${KEY}`);
});
