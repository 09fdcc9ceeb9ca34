import { describe, expect, test } from "vitest";
import {
  diagnose,
  type DiagnoseContext,
  type Finding,
  type OtherEnvironmentResult,
} from "@/features/troubleshoot/diagnostics/diagnose";
import { checkKey } from "@/lib/check-key";
import type { ApiOutcome, ProbeResults } from "@/features/troubleshoot/diagnostics/probes";
import { InvalidConnectionError, NetworkError, TimeoutError } from "@/lib/api-errors";
import { apiError, BASE_URL, unexpected } from "../error-samples";

const PAGE = "http://127.0.0.1:8787";
const context: DiagnoseContext = {
  baseUrl: BASE_URL,
  pageOrigin: PAGE,
  keyCheck: checkKey("ks_root_Fine1234"),
  asHeader: false,
  otherEnvironmentCount: 0,
  otherEnvironments: [],
};

const readable: ProbeResults["reach"] = { kind: "readable", status: 401, redirectedTo: null, ms: 12 };
const askedForKey: ApiOutcome = {
  kind: "error",
  error: apiError({
    path: "svc/authentication/missing",
    keySent: false,
    detail: "Authentication credentials were not provided",
  }),
  ms: 8,
};
const refused = (error: Parameters<typeof apiError>[0]): ApiOutcome => ({
  kind: "error",
  error: apiError(error),
  ms: 9,
});
const withKey = (outcome: ApiOutcome): ProbeResults => ({ reach: readable, withoutKey: askedForKey, withKey: outcome });

interface Row {
  name: string;
  results: ProbeResults;
  context?: Partial<DiagnoseContext>;
  cause: Finding["cause"];
  summary: RegExp;
  /** What happened, for a finding taken from the catalog. */
  detail?: RegExp;
}

const rows: Row[] = [
  {
    name: "an unusable base URL ends the run with the catalog's finding, not a spinner",
    results: {
      reach: {
        kind: "invalid",
        error: new InvalidConnectionError(
          "base-url-not-http",
          "Start the address with http:// or https://, for example https://api.example.com.",
        ),
        ms: 0,
      },
      withoutKey: null,
      withKey: null,
    },
    cause: "invalid-connection:base-url",
    summary: /^The base URL cannot be used\.$/,
    detail: /Start the address with http:\/\//,
  },
  {
    name: "this page's own origin answering unreadably is a redirect elsewhere, not CORS",
    results: { reach: { kind: "cors-blocked", ms: 3 }, withoutKey: null, withKey: null },
    context: { baseUrl: "", pageOrigin: PAGE },
    cause: "redirect",
    summary: /^The address http:\/\/127\.0\.0\.1:8787 answers, but with a redirect to another site/,
  },
  {
    name: "the proxy's upstream redirecting is named with where it goes",
    results: {
      reach: readable,
      withoutKey: refused({
        status: 502,
        path: "keyscope/proxy/upstream_redirect",
        keySent: false,
        errors: [{ location: "header.location", message: "https://sso.example.net/login" }],
      }),
      withKey: null,
    },
    cause: "proxy:upstream_redirect",
    summary: /redirects to another site/,
    detail: /a redirect to https:\/\/sso\.example\.net\/login/,
  },
  {
    name: "a key that lists keys is all good",
    results: withKey({ kind: "keys", count: 25, hasMore: false, requestId: "req_1", ms: 30 }),
    cause: "all-good",
    summary: /^All good: the key works and lists 25 keys\.$/,
  },
  {
    name: "a full first page says at least",
    results: withKey({ kind: "keys", count: 100, hasMore: true, requestId: "req_1", ms: 30 }),
    cause: "all-good",
    summary: /lists at least 100 keys/,
  },
  {
    name: "no answer at all is a server that is down",
    results: { reach: { kind: "unreachable", offline: false, ms: 3 }, withoutKey: null, withKey: null },
    cause: "server-down",
    summary: /^Nothing answers at https:\/\/api\.example\.com: the server is down/,
  },
  {
    name: "no answer from plain http on another computer is the page refusing to send the key unencrypted",
    results: { reach: { kind: "page-blocked", ms: 1 }, withoutKey: null, withKey: null },
    context: { baseUrl: "http://10.0.0.5:8787" },
    cause: "insecure-blocked",
    summary:
      /^The browser sent nothing to http:\/\/10\.0\.0\.5:8787: this page may call plain http only on this computer/,
  },
  {
    name: "no answer while offline is the browser being offline",
    results: { reach: { kind: "unreachable", offline: true, ms: 3 }, withoutKey: null, withKey: null },
    cause: "offline",
    summary: /offline/,
  },
  {
    name: "an opaque answer to no-cors only is CORS",
    results: { reach: { kind: "cors-blocked", ms: 3 }, withoutKey: null, withKey: null },
    cause: "cors",
    summary: /answers, but it sends no CORS headers for this page \(http:\/\/127\.0\.0\.1:8787\)/,
  },
  {
    name: "the key sent and the answer saying missing is a stripping proxy",
    results: withKey(refused({ path: "svc/authentication/missing", keySent: true })),
    cause: "authentication:missing:stripped",
    summary: /^Something between your browser and the API stripped the Authorization header\.$/,
  },
  {
    name: "the real service's 400 security answer to a sent key is stripping too",
    results: withKey(
      refused({
        status: 400,
        path: "unkey/application/invalid_input",
        errors: [{ location: "security", message: "missing" }],
      }),
    ),
    cause: "authentication:missing:stripped",
    summary: /stripped the Authorization header/,
  },
  {
    name: "an answer from another origin after a redirect is the redirect",
    results: withKey(
      refused({
        path: "svc/authentication/missing",
        keySent: true,
        redirectedTo: "https://login.example.net/v2/keys.listKeys",
      }),
    ),
    cause: "redirect",
    summary:
      /^The base URL redirects to https:\/\/login\.example\.net, another origin, and browsers drop the Authorization header/,
  },
  {
    name: "a redirect within the same origin is not blamed",
    results: withKey(
      refused({ path: "svc/authentication/missing", keySent: true, redirectedTo: `${BASE_URL}/v2/keys.listKeys` }),
    ),
    cause: "authentication:missing:stripped",
    summary: /stripped/,
  },
  {
    name: "a key that key entry's checks refuse is not sent, and the finding is their reason",
    results: { reach: readable, withoutKey: askedForKey, withKey: null },
    context: { keyCheck: checkKey("ks_root_abc def") },
    cause: "key-refused",
    summary:
      /^The key was not sent, because key entry's checks refuse it: The key contains a space after “ks_root_…”\./,
  },
  {
    name: "malformed, because Bearer was pasted along with the key",
    results: withKey(refused({ status: 400, path: "svc/authentication/malformed" })),
    context: { keyCheck: checkKey("Bearer ks_root_Fine1234") },
    cause: "authentication:malformed",
    summary: /^The Authorization header is not in the form the API expects\.$/,
    detail: /became “Bearer Bearer …”/,
  },
  {
    name: "malformed, a whole header value without Bearer",
    results: withKey(refused({ status: 400, path: "svc/authentication/malformed" })),
    context: { asHeader: true },
    cause: "authentication:malformed",
    summary: /not in the form the API expects/,
    detail: /has no `Bearer ` prefix/,
  },
  {
    name: "a key no header can carry was not sent",
    results: withKey({ kind: "error", error: new InvalidConnectionError("key-has-invalid-characters"), ms: 0 }),
    cause: "invalid-connection:api-key",
    summary: /^The API key cannot be sent as it is\.$/,
  },
  {
    name: "key_not_found is an unknown or revoked key",
    results: withKey(refused({})),
    cause: "authentication:key_not_found",
    summary: /^The API does not know this root key\.$/,
    detail: /it never existed there, or it was revoked/,
  },
  {
    name: "a disabled key",
    results: withKey(refused({ status: 403, path: "svc/authorization/key_disabled" })),
    cause: "authorization:key_disabled",
    summary: /disabled/,
  },
  {
    name: "a key without read permission",
    results: withKey(refused({ status: 403, path: "svc/authorization/insufficient_permissions" })),
    cause: "authorization:insufficient_permissions",
    summary: /may not list keys/,
  },
  {
    name: "rate limited, with the wait",
    results: withKey(refused({ status: 429, path: "user/too_many_requests/rate_limited", retryAfterSeconds: 42 })),
    cause: "too_many_requests:rate_limited",
    summary: /^Too many requests: wait a moment\.$/,
    detail: /the countdown shows how long is left/,
  },
  {
    name: "a 5xx is the server's own error",
    results: withKey(refused({ status: 503, path: "svc/application/unexpected_error" })),
    cause: "application:unexpected_error",
    summary: /ran into an error of its own/,
  },
  {
    name: "a CORS failure on the keyed request alone",
    results: withKey({
      kind: "error",
      error: new NetworkError({ url: BASE_URL, offline: false, crossOrigin: true }),
      ms: 5,
    }),
    cause: "network:cors",
    summary: /sends no CORS headers/,
  },
  {
    name: "a timeout",
    results: withKey({ kind: "error", error: new TimeoutError({ url: BASE_URL, timeoutMs: 8000 }), ms: 8000 }),
    cause: "timeout",
    summary: /took too long to answer/,
    detail: /within 8 s/,
  },
  {
    name: "an HTML page is not the API",
    results: withKey({ kind: "error", error: unexpected("html", 502), ms: 5 }),
    cause: "unexpected:html",
    summary: /A web page answered instead of the API/,
    detail: /HTTP 502/,
  },
  {
    name: "a server without keys.listKeys needs an API ID",
    results: withKey({ kind: "error", error: new InvalidConnectionError("api-id-required"), ms: 5 }),
    cause: "invalid-connection:api-id",
    summary: /enter an API ID/,
  },
  {
    name: "without a key to test, an API asking for one is fine",
    results: { reach: readable, withoutKey: askedForKey, withKey: null },
    cause: "no-key",
    summary: /answers and asks for a key, as it should/,
  },
  {
    name: "an API that lists keys without a key is open",
    results: {
      reach: readable,
      withoutKey: { kind: "keys", count: 3, hasMore: false, requestId: null, ms: 4 },
      withKey: null,
    },
    cause: "open-api",
    summary: /without any key/,
  },
];

describe("diagnose", () => {
  test.each(rows)("$name", ({ results, context: overrides, cause, summary, detail }) => {
    const found = diagnose(results, { ...context, ...overrides });
    expect(found.cause).toBe(cause);
    expect(found.summary).toMatch(summary);
    if (detail) expect(found.detail).toMatch(detail);
    expect(found.fix.length).toBeGreaterThan(10);
    // One sentence: it ends with a full stop and has no second sentence start after one.
    expect(found.summary.trim()).toMatch(/[.]$/);
  });

  test("a rate-limited finding carries when the next request may go, for its countdown", () => {
    const error = apiError({
      status: 429,
      path: "user/too_many_requests/rate_limited",
      retryAfterSeconds: 42,
      receivedAt: 1_000_000,
    });
    expect(diagnose(withKey({ kind: "error", error, ms: 3 }), context).retryAt).toBe(1_042_000);
  });

  test("the CORS finding carries the exact proxy-mode command for the API's origin", () => {
    const found = diagnose({ reach: { kind: "cors-blocked", ms: 1 }, withoutKey: null, withKey: null }, context);
    expect(found.command?.text).toBe("npm start -- --upstream https://api.example.com");
  });

  test("no finding ever suggests a proxy pointed at this page itself", () => {
    for (const reach of [
      { kind: "cors-blocked", ms: 1 },
      { kind: "page-blocked", ms: 1 },
    ] as const) {
      const found = diagnose({ reach, withoutKey: null, withKey: null }, { ...context, baseUrl: PAGE });
      expect(found.command?.text ?? "").not.toContain(`--upstream ${PAGE}`);
    }
  });

  test("an unknown key offers the other environments only when there are some", () => {
    expect(diagnose(withKey(refused({})), context).offerOtherEnvironments).toBe(false);
    expect(diagnose(withKey(refused({})), { ...context, otherEnvironmentCount: 1 }).offerOtherEnvironments).toBe(true);
  });

  test("a key that works in another environment names it and offers to switch", () => {
    const others: OtherEnvironmentResult[] = [
      { id: "env_a", name: "Staging", outcome: { kind: "error", error: apiError({}), ms: 3 } },
      {
        id: "env_b",
        name: "Production",
        outcome: { kind: "keys", count: 7, hasMore: false, requestId: "req_9", ms: 3 },
      },
    ];
    const found = diagnose(withKey(refused({})), { ...context, otherEnvironmentCount: 2, otherEnvironments: others });
    expect(found.cause).toBe("wrong-environment");
    expect(found.summary).toBe(
      "This key belongs to Production: the API at https://api.example.com does not know it, but Production accepts it and lists 7 keys.",
    );
    expect(found.workingEnvironment).toEqual({ id: "env_b", name: "Production", count: 7 });
  });

  test("refused in every other environment too, it stays an unknown key", () => {
    const others: OtherEnvironmentResult[] = [
      { id: "env_a", name: "Staging", outcome: { kind: "error", error: apiError({}), ms: 3 } },
    ];
    expect(
      diagnose(withKey(refused({})), { ...context, otherEnvironmentCount: 1, otherEnvironments: others }).cause,
    ).toBe("authentication:key_not_found");
  });
});
