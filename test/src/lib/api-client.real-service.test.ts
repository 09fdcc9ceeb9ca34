import { describe, expect, test, vi } from "vitest";
import { listKeys } from "@/lib/api/list-keys";
import { ApiError, InvalidConnectionError, UnexpectedResponseError } from "@/lib/api-errors";

const BASE = "https://api.example.com";
const KEY = "unkey_S3cr3tRealKey";

function fakeFetch(answers: Record<string, () => Response>) {
  const calls: { url: string; body: string; authorization: string | null }[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    calls.push({
      url,
      body: typeof init?.body === "string" ? init.body : "",
      authorization: new Headers(init?.headers).get("authorization"),
    });
    const path = new URL(url).pathname;
    const answer = answers[path];
    return Promise.resolve(
      answer ? answer() : new Response("404 Not Found", { status: 404, headers: { "content-type": "text/plain" } }),
    );
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const realPage = () =>
  new Response(
    JSON.stringify({
      meta: { requestId: "req_1" },
      data: [{ keyId: "key_1", name: "Billing" }],
      pagination: { hasMore: true, cursor: "c2" },
    }),
    {
      status: 200,
      headers: { "content-type": "application/json" },
    },
  );

describe("listKeys against the real service", () => {
  test("with the connection's API ID: apis.listKeys, the apiId in the body, data as an array, pagination beside it", async () => {
    const { fetch, calls } = fakeFetch({ "/v2/apis.listKeys": realPage });
    const page = await listKeys({ baseUrl: BASE, apiKey: KEY, apiId: "api_1" }, {}, { fetch });
    expect(page).toEqual({
      keys: [{ keyId: "key_1", name: "Billing" }],
      cursor: "c2",
      hasMore: true,
      requestId: "req_1",
    });
    expect(calls).toEqual([
      { url: `${BASE}/v2/apis.listKeys`, body: '{"apiId":"api_1"}', authorization: `Bearer ${KEY}` },
    ]);
  });

  test("with an API ID against the reference server (no apis.listKeys), keys.listKeys with the same body", async () => {
    const { fetch, calls } = fakeFetch({ "/v2/keys.listKeys": realPage });
    await listKeys({ baseUrl: BASE, apiKey: KEY, apiId: "api_1" }, { limit: 5 }, { fetch });
    expect(calls.map((call) => call.url)).toEqual([`${BASE}/v2/apis.listKeys`, `${BASE}/v2/keys.listKeys`]);
    expect(calls[1]?.body).toBe('{"limit":5,"apiId":"api_1"}');
  });

  test("no keys.listKeys and no API ID: an InvalidConnectionError that asks for one", async () => {
    const { fetch } = fakeFetch({});
    const error = await listKeys({ baseUrl: BASE, apiKey: KEY }, {}, { fetch }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidConnectionError);
    expect(error).toMatchObject({ field: "apiId", problem: "api-id-required" });
  });

  test("neither operation exists even with an API ID: the 404 itself", async () => {
    const { fetch } = fakeFetch({});
    const error = await listKeys({ baseUrl: BASE, apiKey: KEY, apiId: "api_1" }, {}, { fetch }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
  });

  test("the service's own 404 envelope is not mistaken for a missing operation", async () => {
    const { fetch, calls } = fakeFetch({
      "/v2/apis.listKeys": () =>
        new Response(
          JSON.stringify({
            meta: { requestId: "req_2" },
            error: {
              title: "Not Found",
              detail: "no such api",
              status: 404,
              type: "https://x/docs/errors/unkey/data/api_not_found",
            },
          }),
          { status: 404, headers: { "content-type": "application/problem+json" } },
        ),
    });
    const error = await listKeys({ baseUrl: BASE, apiKey: KEY, apiId: "api_x" }, {}, { fetch }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "err:unkey:data:api_not_found", requestId: "req_2" });
    expect(calls).toHaveLength(1);
  });

  test("a missing header answered 400 invalid_input in `security` is missing credentials", async () => {
    const { fetch } = fakeFetch({
      "/v2/apis.listKeys": () =>
        new Response(
          JSON.stringify({
            meta: { requestId: "req_3" },
            error: {
              title: "Bad Request",
              detail: "invalid",
              status: 400,
              type: "https://x/docs/errors/unkey/application/invalid_input",
              errors: [{ location: "security", message: "required" }],
            },
          }),
          { status: 400, headers: { "content-type": "application/problem+json" } },
        ),
    });
    const error = await listKeys({ baseUrl: BASE, apiKey: "", apiId: "api_1" }, {}, { fetch }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ missingCredentials: true, keySent: false, status: 400 });
  });

  test("an Authorization value given as is goes out unchanged and is scrubbed from what comes back", async () => {
    const { fetch, calls } = fakeFetch({
      "/v2/keys.listKeys": () =>
        new Response(
          JSON.stringify({
            meta: { requestId: "req_4" },
            error: {
              title: "Bad Request",
              detail: `bad header: bearer ${KEY}`,
              status: 400,
              type: "https://x/docs/errors/svc/authentication/malformed",
            },
          }),
          { status: 400, headers: { "content-type": "application/json" } },
        ),
    });
    const error = await listKeys({ baseUrl: BASE, apiKey: KEY }, {}, { fetch, authorization: `bearer ${KEY}` }).catch(
      (caught: unknown) => caught,
    );
    expect(calls[0]?.authorization).toBe(`bearer ${KEY}`);
    expect(error).toBeInstanceOf(ApiError);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect((error as ApiError).detail).not.toContain(KEY);
  });
});
