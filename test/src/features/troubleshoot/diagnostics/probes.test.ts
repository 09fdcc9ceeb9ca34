import { describe, expect, test, vi } from "vitest";
import { probeList, probeReach, runProbes } from "@/features/troubleshoot/diagnostics/probes";
import { ApiError, InvalidConnectionError } from "@/lib/api-errors";
import { errorEnvelope, jsonResponse, keysEnvelope, makeKeys } from "../../../support/keys-api";

const TARGET = { baseUrl: "https://api.example.com" };

function fakeFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push({ url, init: init ?? {} });
    return Promise.resolve().then(() => handler(url, init ?? {}));
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

describe("reachability", () => {
  test("a readable answer passes, with its status", async () => {
    const { fetch } = fakeFetch(() => jsonResponse(401, {}));
    expect(await probeReach(TARGET, { fetch })).toMatchObject({ kind: "readable", status: 401, redirectedTo: null });
  });

  test("a normal request that fails while a no-cors one resolves is CORS-blocked", async () => {
    const { fetch, calls } = fakeFetch((_url, init) => {
      if (init.mode === "no-cors") return new Response(null, { status: 200 });
      throw new TypeError("Failed to fetch");
    });
    expect(await probeReach(TARGET, { fetch })).toMatchObject({ kind: "cors-blocked" });
    expect(calls.map((call) => call.init.mode)).toEqual([undefined, "no-cors"]);
    // The no-cors request can carry no Authorization header and sends none.
    expect(JSON.stringify(calls[1]?.init.headers)).not.toMatch(/authorization/i);
  });

  test("both failing is unreachable", async () => {
    const { fetch } = fakeFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    expect(await probeReach(TARGET, { fetch })).toMatchObject({ kind: "unreachable", offline: false });
  });
});

describe("the list probes", () => {
  test("without a key, no Authorization header is sent", async () => {
    const { fetch, calls } = fakeFetch(() =>
      errorEnvelope(401, "Unauthorized", "no", "https://d/errors/svc/authentication/missing"),
    );
    const outcome = await probeList(TARGET, null, { fetch });
    expect(outcome.kind === "error" && outcome.error instanceof ApiError && outcome.error.missingCredentials).toBe(
      true,
    );
    expect(new Headers(calls[0]?.init.headers).has("authorization")).toBe(false);
  });

  test("a pasted key is sent exactly as pasted, inner space and all", async () => {
    const { fetch, calls } = fakeFetch(() => keysEnvelope(makeKeys(2)));
    await probeList(TARGET, { value: "ks_root_ab cd", asHeader: false }, { fetch });
    expect(new Headers(calls[0]?.init.headers).get("authorization")).toBe("Bearer ks_root_ab cd");
  });

  test("as a whole header value, nothing is added", async () => {
    const { fetch, calls } = fakeFetch(() => keysEnvelope(makeKeys(2)));
    await probeList(TARGET, { value: "ks_root_abcd", asHeader: true }, { fetch });
    expect(new Headers(calls[0]?.init.headers).get("authorization")).toBe("ks_root_abcd");
  });

  test("a key no header can carry is not sent at all", async () => {
    const { fetch, calls } = fakeFetch(() => keysEnvelope([]));
    const outcome = await probeList(TARGET, { value: "ks_root_ab\ncd", asHeader: false }, { fetch });
    expect(outcome.kind === "error" && outcome.error instanceof InvalidConnectionError).toBe(true);
    expect(calls).toHaveLength(0);
  });

  test("with an API ID, the real service's apis.listKeys is called with it", async () => {
    const { fetch, calls } = fakeFetch(() =>
      jsonResponse(200, { meta: { requestId: "req_1" }, data: makeKeys(3), pagination: { hasMore: false } }),
    );
    const outcome = await probeList({ ...TARGET, apiId: "api_1" }, { value: "k_123", asHeader: false }, { fetch });
    expect(outcome).toMatchObject({ kind: "keys", count: 3, requestId: "req_1" });
    expect(calls[0]?.url).toBe("https://api.example.com/v2/apis.listKeys");
    expect(calls[0]?.init.body).toBe('{"apiId":"api_1"}');
  });
});

test("a run stops after reachability when nothing readable answered, and reports each step", async () => {
  const { fetch } = fakeFetch(() => {
    throw new TypeError("Failed to fetch");
  });
  const progress: string[] = [];
  const results = await runProbes(
    TARGET,
    { value: "k_1", asHeader: false },
    (id, state) => progress.push(`${id}:${state}`),
    { fetch },
  );
  expect(results).toMatchObject({ reach: { kind: "unreachable" }, withoutKey: null, withKey: null });
  expect(progress).toEqual(["reach:running", "reach:done"]);
});
