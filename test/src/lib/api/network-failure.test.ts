import { expect, test } from "vitest";
import { classifyNetworkFailure } from "@/lib/api/network-failure";

const PAGE = "https://keyscope.example";
const signal = new AbortController().signal;

/** A fetch that answers the classifier's probe as a browser would: `type` is what it gives the page. */
function answering(type: ResponseType, seen: RequestInit[] = []): typeof fetch {
  return (_input, init) => {
    seen.push(init ?? {});
    const response = new Response(null, { status: 200 });
    Object.defineProperty(response, "type", { value: type });
    return Promise.resolve(response);
  };
}

test("the page's own origin answering with a redirect is a redirect, not 'nothing answers'", async () => {
  const seen: RequestInit[] = [];
  expect(
    await classifyNetworkFailure(`${PAGE}/v2/keys.listKeys`, "", {
      fetch: answering("opaqueredirect", seen),
      signal,
      pageOrigin: PAGE,
    }),
  ).toBe("redirect");
  // The probe does not follow it, and carries no key.
  expect(seen[0]?.redirect).toBe("manual");
  expect(JSON.stringify(seen[0]?.headers)).not.toMatch(/authorization/i);
});

test("another origin is probed no-cors, following redirects as fetch requires there; an opaque answer is CORS", async () => {
  const api = "https://api.example";
  const seen: RequestInit[] = [];
  expect(
    await classifyNetworkFailure(`${api}/v2/keys.listKeys`, api, {
      fetch: answering("opaque", seen),
      signal,
      pageOrigin: PAGE,
    }),
  ).toBe("cors");
  // A browser refuses a no-cors request that does not follow redirects (and logs an error), so the probe must not ask.
  expect(seen[0]).toMatchObject({ mode: "no-cors", redirect: "follow" });
});

test("the page's own origin not answering at all is unreachable", async () => {
  const refusing: typeof fetch = () => Promise.reject(new TypeError("Failed to fetch"));
  expect(
    await classifyNetworkFailure(`${PAGE}/v2/keys.listKeys`, "", { fetch: refusing, signal, pageOrigin: PAGE }),
  ).toBe("unreachable");
});
