import { describe, expect, test } from "vitest";
import { InternalError, NetworkError, toKeyscopeError } from "@/lib/api-errors";
import { CodeLoadError } from "@/lib/retryable-lazy";
import { CATALOG_IDS, describeError } from "@/features/troubleshoot/error-catalog";
import { apiError, BASE_URL, DOCS, REQUEST_URL, samples } from "./error-samples";

describe("choosing the entry", () => {
  test("the samples cover every catalog entry, and each picks its own", () => {
    const table = samples();
    expect(table.map((sample) => describeError(sample.error).entryId)).toEqual(table.map((sample) => sample.entryId));
    expect([...new Set(table.map((sample) => sample.entryId))].sort()).toEqual([...CATALOG_IDS].sort());
  });

  test("the <system> segment does not matter: err:unkey and err:svc pick the same entry", () => {
    const unkey = describeError(apiError({ path: "unkey/authentication/key_not_found" }));
    const svc = describeError(apiError({ path: "svc/authentication/key_not_found" }));
    expect(unkey.entryId).toBe("authentication:key_not_found");
    expect(svc.entryId).toBe(unkey.entryId);
    expect(unkey.code).toBe("err:unkey:authentication:key_not_found");
  });

  test("the real service's 400 invalid_input located in `security` gets the missing-credentials guide", () => {
    const realMissing = {
      status: 400,
      title: "Bad Request",
      path: "unkey/application/invalid_input",
      errors: [{ location: "security", message: "authorization header is missing" }],
    };
    expect(describeError(apiError({ ...realMissing, keySent: false })).entryId).toBe("authentication:missing");
    expect(describeError(apiError(realMissing)).entryId).toBe("authentication:missing:stripped");
  });

  test("a proxy whose upstream is down is the proxy's --upstream, not the API failing on its side", () => {
    const detail =
      "This proxy could not reach its upstream API at http://127.0.0.1:9 (--upstream): connect ECONNREFUSED 127.0.0.1:9.";
    const diagnosis = describeError(
      apiError({ status: 502, title: "Bad Gateway", detail, path: "keyscope/proxy/upstream_unreachable" }),
    );
    expect(diagnosis.entryId).toBe("proxy:upstream_unreachable");
    expect(diagnosis.apiSays?.detail).toContain("http://127.0.0.1:9 (--upstream)");
    expect(diagnosis.fixSteps.join(" ")).toContain("--upstream");
    expect(`${diagnosis.heading} ${diagnosis.fixSteps.join(" ")}`).not.toMatch(
      /failed on its side|whoever runs the API/,
    );
  });

  test("an unknown code falls back on the status", () => {
    expect(describeError(apiError({ status: 502, path: "svc/gateway/bad" })).entryId).toBe("status:5xx");
    expect(describeError(apiError({ status: 418, type: "not a url" })).entryId).toBe("status:other");
  });
});

describe("the missing-credentials guide", () => {
  const missing = { path: "svc/authentication/missing", detail: "Authentication credentials were not provided" };

  test("gives the seed's fix as a copyable header and the seed's likely causes", () => {
    const diagnosis = describeError(apiError({ ...missing, keySent: false }));
    expect(diagnosis.snippets.map((snippet) => snippet.text)).toEqual(["Authorization: Bearer <API_KEY>"]);
    expect(diagnosis.apiSays).toEqual({
      title: "Unauthorized",
      detail: "Authentication credentials were not provided",
    });
    expect(diagnosis.status).toBe(401);
    expect(diagnosis.code).toBe("err:svc:authentication:missing");
    const causes = diagnosis.likelyCauses.join("\n");
    for (const cause of [
      /`Bearer ` prefix was left out/,
      /proxy or gateway .* strips/,
      /expired or was revoked/,
      /wrong environment \(development/,
    ]) {
      expect(causes).toMatch(cause);
    }
  });

  test("when the key was sent, it leads with the stripped header and a command to check it", () => {
    const diagnosis = describeError(apiError(missing));
    expect(diagnosis.heading).toBe("Something between your browser and the API stripped the Authorization header");
    expect(diagnosis.whatHappened).toMatch(
      /^Keyscope sent your key in the `Authorization` header, but the API says no credentials arrived/,
    );
    expect(diagnosis.likelyCauses[0]).toMatch(/proxy or API gateway/);
    const [header, curl] = diagnosis.snippets;
    expect(header?.text).toBe("Authorization: Bearer <API_KEY>");
    expect(curl?.text).toContain(`curl -i -X POST '${REQUEST_URL}'`);
    expect(curl?.text).toContain('-H "Authorization: Bearer $API_KEY"');
  });

  test("names a redirect when the request was redirected", () => {
    const diagnosis = describeError(
      apiError({ ...missing, redirectedTo: "https://other.example.com/v2/keys.listKeys" }),
    );
    expect(diagnosis.whatHappened).toContain("redirected (to https://other.example.com/v2/keys.listKeys)");
  });
});

describe("specifics", () => {
  test("the docs link is error.type exactly, only when it is http(s)", () => {
    const type = `${DOCS}/errors/svc/authentication/key_not_found?ref=x#top`;
    expect(describeError(apiError({ type }))).toMatchObject({ docsHref: type, docsText: null });
    for (const hostile of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "/docs/errors/svc/a/b",
      " https://evil.example",
      "https://evil.example/\u202egnp.exe",
      "JAVASCRIPT:alert(1)//https://x",
    ]) {
      expect(describeError(apiError({ type: hostile }))).toMatchObject({ docsHref: null, docsText: hostile });
    }
    expect(describeError(apiError({ type: "" }))).toMatchObject({ docsHref: null, docsText: null });
  });

  test("api_not_found says the real service also answers it when the key lacks read permission", () => {
    const diagnosis = describeError(apiError({ status: 404, path: "unkey/data/api_not_found" }));
    expect(diagnosis.whatHappened).toMatch(/same answer when the key lacks read permission/);
    // Listing an API's keys there asks both read permissions: naming read_key alone sent people to the wrong fix.
    expect(diagnosis.fixSteps.join(" ")).toMatch(/read_key`.*and `api\.<apiId>\.read_api`/);
  });

  test("invalid input passes its errors[] on", () => {
    const errors = [{ location: "body.limit", message: "too big", fix: "Use 100 or less" }];
    const diagnosis = describeError(apiError({ status: 400, path: "svc/application/invalid_input", errors }));
    expect(diagnosis.problems).toEqual(errors);
  });

  test("a rate limit with Retry-After gives the moment a retry makes sense", () => {
    const diagnosis = describeError(
      apiError({
        status: 429,
        path: "user/too_many_requests/rate_limited",
        retryAfterSeconds: 12,
        receivedAt: 1_000_000,
      }),
    );
    expect(diagnosis.retryAt).toBe(1_012_000);
    // The wait is the live countdown only: a frozen "12 s" beside it would soon contradict it.
    expect(diagnosis.whatHappened).not.toContain("12 s");
    expect(describeError(apiError({ status: 429, path: "user/too_many_requests/rate_limited" })).retryAt).toBeNull();
  });

  test("CORS gives the proxy-mode command for the API's origin", () => {
    const error = new NetworkError({ url: `${BASE_URL}/prefix/v2/keys.listKeys`, offline: false, crossOrigin: true });
    const diagnosis = describeError(error, { pageOrigin: "http://127.0.0.1:5173" });
    expect(diagnosis.snippets[0]?.text).toBe(`npm start -- --upstream ${BASE_URL}`);
    expect(diagnosis.whatHappened).toMatch(/sends no CORS headers/);
    expect(diagnosis.fixSteps.join("\n")).toContain("--cors-origin http://127.0.0.1:5173");
    expect(describeError(error, { baseUrl: "https://other.example:8443/x" }).snippets[0]?.text).toBe(
      "npm start -- --upstream https://other.example:8443",
    );
  });

  test("a relative request URL is made absolute with the page's origin for the curl command", () => {
    const error = new NetworkError({ url: "/v2/keys.listKeys", offline: false, crossOrigin: false });
    expect(describeError(error, { pageOrigin: "http://127.0.0.1:8787" }).snippets[0]?.text).toContain(
      "'http://127.0.0.1:8787/v2/keys.listKeys'",
    );
    expect(describeError(error).snippets[0]?.text).toContain("'<base URL>/v2/keys.listKeys'");
  });

  test("a quote in the URL cannot break out of the shell command", () => {
    const error = new NetworkError({
      url: "https://a.example/x'$(rm -rf ~)'/v2/keys.listKeys",
      offline: false,
      crossOrigin: false,
    });
    expect(describeError(error).snippets[0]?.text).toContain(
      `'https://a.example/x'\\''$(rm -rf ~)'\\''/v2/keys.listKeys'`,
    );
  });

  test("an unexpected answer shows what came back, labelled with its content type", () => {
    const diagnosis = describeError(
      samples().find((sample) => sample.entryId === "unexpected:html")?.error ?? new InternalError(""),
    );
    expect(diagnosis.excerpt).toEqual({ label: "What came back (text/html)", text: "502 Bad Gateway nginx" });
    expect(diagnosis.status).toBe(502);
  });
});

describe("anything thrown", () => {
  test("becomes a KeyscopeError: a foreign error or value is an InternalError with a summary", () => {
    expect(toKeyscopeError(new TypeError("x is undefined"))).toMatchObject({
      name: "InternalError",
      summary: "TypeError: x is undefined",
    });
    expect(toKeyscopeError("oops")).toMatchObject({ name: "InternalError", summary: "Thrown value: oops" });
    expect(toKeyscopeError(Object.create(null))).toMatchObject({
      name: "InternalError",
      summary: "A value that cannot be shown was thrown",
    });
    const network = new NetworkError({ url: "/", offline: false, crossOrigin: false });
    expect(toKeyscopeError(network)).toBe(network);
  });

  test("a page's code that did not arrive is the server's or the network's doing, not called a bug in Keyscope", () => {
    const failed = new CodeLoadError(
      new TypeError("Failed to fetch dynamically imported module: http://127.0.0.1:8787/assets/connect-route-x1.js"),
    );
    const diagnosis = describeError(toKeyscopeError(failed));
    expect(diagnosis.entryId).toBe("code-load");
    expect(diagnosis.heading).not.toMatch(/problem of its own/);
    expect(`${diagnosis.whatHappened} ${diagnosis.likelyCauses.join(" ")}`).not.toMatch(/bug|inside Keyscope/i);
    expect(diagnosis.heading).toContain("could not be loaded");
    expect(diagnosis.actions[0]).toBe("retry");
  });

  test("scrubs the key from a foreign error when given it", () => {
    const error = toKeyscopeError(new Error("failed for ks_root_abc123"), ["ks_root_abc123"]);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain("ks_root_abc123");
  });
});

describe("network failures, one classification", () => {
  test("plain http to another computer, an unresolvable host, CORS and offline each get their own guide", () => {
    const url = "http://10.0.0.5:8787/v2/keys.listKeys";
    const entry = (failure: NetworkError["failure"]) =>
      describeError(new NetworkError({ url, offline: failure === "offline", crossOrigin: true, failure }), {
        pageOrigin: "http://127.0.0.1:8787",
      });
    expect(entry("blocked-by-page").entryId).toBe("network:blocked-by-page");
    expect(entry("blocked-by-page").fixSteps.join(" ")).not.toContain("--cors-origin");
    expect(entry("unreachable")).toMatchObject({
      entryId: "network",
      whatHappened: expect.stringContaining("host name may not resolve") as unknown,
    });
    expect(entry("cors").entryId).toBe("network:cors");
    expect(entry("offline").entryId).toBe("network:offline");
  });

  test("a redirect through the proxy names where it goes", () => {
    const diagnosis = describeError(
      apiError({
        status: 502,
        path: "keyscope/proxy/upstream_redirect",
        errors: [{ location: "header.location", message: "https://sso.example.net/login" }],
      }),
    );
    expect(diagnosis.whatHappened).toContain("a redirect to https://sso.example.net/login");
  });

  test("the proxy command never points the proxy at this page itself", () => {
    const own = describeError(
      new NetworkError({ url: "http://127.0.0.1:8787/v2/keys.listKeys", offline: false, crossOrigin: true }),
      {
        baseUrl: "http://127.0.0.1:8787",
        pageOrigin: "http://127.0.0.1:8787",
      },
    );
    expect(own.snippets.map((snippet) => snippet.text).join("\n")).not.toContain("--upstream");
  });
});

describe("a refused key change", () => {
  test.each([
    ["keys.updateKey", "This root key may not change keys", "api.*.update_key"],
    ["keys.deleteKey", "This root key may not delete keys", "api.*.delete_key"],
  ])(
    "a 403 for %s names the permission that change needs, not the one to list keys",
    (operation, heading, permission) => {
      const diagnosis = describeError(
        apiError({
          status: 403,
          title: "Forbidden",
          detail: `Missing one of these permissions: ${permission}`,
          path: "unkey/authorization/insufficient_permissions",
          url: `${BASE_URL}/v2/${operation}`,
        }),
        { baseUrl: BASE_URL },
      );
      expect(diagnosis.heading).toBe(heading);
      expect(diagnosis.fixSteps[0]).toContain(permission);
    },
  );

  test.each([
    ["keys.deleteKey", "delete_key", "api.*.delete_key or api.api_1.delete_key", "api.api_1.delete_key"],
    ["keys.updateKey", "update_key", "api.*.update_key or api.api_9.update_key", "api.api_9.update_key"],
    ["keys.deleteKey", "delete_key", "unkey:v1:ws_1:keyspaces/ks_1/keys/*#delete_key", "api.<apiId>.delete_key"],
  ])(
    "a 403 for %s says both forms of %s at once: every API's and the one API's, named when the service named it",
    (operation, action, detail, perApi) => {
      const diagnosis = describeError(
        apiError({
          status: 403,
          title: "Forbidden",
          detail: `Missing one of these permissions: ${detail}`,
          path: "unkey/authorization/insufficient_permissions",
          url: `${BASE_URL}/v2/${operation}`,
        }),
        { baseUrl: BASE_URL },
      );
      expect(diagnosis.whatHappened).toContain(`: \`api.*.${action}\` (every API) or \`${perApi}\` (that API only).`);
      expect(diagnosis.fixSteps[0]).toContain(`(or \`${perApi}\` for one API)`);
    },
  );
});

describe("a refused rate-limit operation", () => {
  test.each([
    ["ratelimit.setOverride", "set_override", "This root key may not set rate-limit overrides"],
    ["ratelimit.deleteOverride", "delete_override", "This root key may not delete rate-limit overrides"],
    ["ratelimit.listOverrides", "read_override", "This root key may not read rate-limit overrides"],
    ["analytics.getRatelimits", "read_analytics", "This root key may not read rate-limit analytics"],
  ])(
    "a 403 for %s names ratelimit.*.%s and the namespace's own, by the id the service named",
    (operation, action, heading) => {
      const diagnosis = describeError(
        apiError({
          status: 403,
          title: "Forbidden",
          detail: `Missing one of these permissions: 'ratelimit.rlns_7Qx.${action}' or 'ratelimit.*.${action}'`,
          path: "unkey/authorization/insufficient_permissions",
          url: `${BASE_URL}/v2/${operation}`,
        }),
        { baseUrl: BASE_URL },
      );
      expect(diagnosis.heading).toBe(heading);
      expect(diagnosis.whatHappened).toContain(
        `\`ratelimit.*.${action}\` (every namespace) or \`ratelimit.rlns_7Qx.${action}\` (that namespace only).`,
      );
      expect(diagnosis.snippets[0]?.text).toContain(`ratelimit.*.${action}`);
    },
  );
});
