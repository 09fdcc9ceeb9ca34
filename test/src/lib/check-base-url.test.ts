import { describe, expect, test } from "vitest";
import { baseUrlWarnings, checkBaseUrl, validateBaseUrl } from "@/lib/check-base-url";

describe("checkBaseUrl", () => {
  test.each([
    ["an origin", "https://api.example.com", "https://api.example.com"],
    ["a trailing slash is dropped", "https://api.example.com/", "https://api.example.com"],
    ["a port is kept", "http://127.0.0.1:8799", "http://127.0.0.1:8799"],
    ["a path prefix is kept", "https://gateway.example.com/keys-api/", "https://gateway.example.com/keys-api"],
    ["surrounding whitespace is trimmed", "  https://api.example.com  ", "https://api.example.com"],
  ])("%s", (_, input, baseUrl) => {
    expect(checkBaseUrl(input)).toMatchObject({ ok: true, baseUrl, fixes: [] });
  });

  test("a pasted operation URL is cut back to its base and the user told", () => {
    expect(checkBaseUrl("https://api.example.com/v2/keys.listKeys")).toEqual({
      ok: true,
      baseUrl: "https://api.example.com",
      fixes: ["removed-operation-path"],
      removedPath: "/v2/keys.listKeys",
    });
    expect(checkBaseUrl("https://api.example.com/v2/")).toMatchObject({ ok: true, baseUrl: "https://api.example.com" });
  });

  test.each([
    ["empty is refused", "", /enter the address/i],
    [
      "a missing scheme is refused with a suggestion",
      "api.example.com",
      /start the address with http:\/\/ or https:\/\/, for example https:\/\/api\.example\.com/i,
    ],
    ["another scheme is refused", "ftp://api.example.com", /only http/i],
    ["credentials are refused", "https://user:pass@api.example.com", /user name and password/i],
    ["a query string is refused", "https://api.example.com/?x=1", /query string/i],
    ["a fragment is refused", "https://api.example.com/#top", /fragment/i],
    ["garbage is refused", "https://exa mple.com", /not a valid address/i],
    [
      "a scheme without its colon is suggested without the broken scheme",
      "http//api.example.com",
      /for example https:\/\/api\.example\.com\.$/,
    ],
    ["a scheme with one slash too", "https:/api.example.com", /for example https:\/\/api\.example\.com\.$/],
    [
      "a non-http scheme without slashes is named",
      "javascript:alert(1)",
      /^Only http:\/\/ and https:\/\/ addresses work here, not javascript:\.$/,
    ],
    ["host and port without a scheme get a suggestion", "localhost:8787", /for example https:\/\/localhost:8787\./],
  ])("%s", (_, input, reason) => {
    const check = checkBaseUrl(input);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });
});

describe("one rule set for typed and stored base URLs", () => {
  test("a stored connection may mean this page's origin, and keeps its path as it is", () => {
    expect(checkBaseUrl("", { stored: true })).toEqual({ ok: true, baseUrl: "", fixes: [] });
    expect(checkBaseUrl("/api/", { stored: true })).toEqual({ ok: true, baseUrl: "/api", fixes: [] });
    expect(checkBaseUrl("https://gw.example.com/v2/", { stored: true })).toEqual({
      ok: true,
      baseUrl: "https://gw.example.com/v2",
      fixes: [],
    });
    expect(checkBaseUrl("//evil.example", { stored: true })).toMatchObject({ ok: false, problem: "base-url-not-http" });
  });

  test("the client refuses with the same problem code and reason as key entry", () => {
    for (const input of [
      "ftp://api.example.com",
      "https://user:pass@api.example.com",
      "https://api.example.com/?x=1",
      "http//host",
    ]) {
      const typed = checkBaseUrl(input);
      const stored = validateBaseUrl(input);
      if (typed.ok || stored.ok) throw new Error(`${input} should be refused`);
      expect(stored.error).toMatchObject({ problem: typed.problem, message: typed.reason, field: "baseUrl" });
    }
  });
});

describe("baseUrlWarnings", () => {
  test("the page's own origin needs no warning", () => {
    expect(baseUrlWarnings("http://127.0.0.1:8787", "http://127.0.0.1:8787")).toEqual([]);
  });

  test("another origin warns about CORS", () => {
    expect(baseUrlWarnings("https://api.example.com", "http://127.0.0.1:8787")).toEqual(["cross-origin"]);
  });

  test("plain http to another computer warns that the page's CSP blocks it; this computer and the page's own origin do not", () => {
    expect(baseUrlWarnings("http://192.168.1.20:8787", "http://127.0.0.1:8787")).toEqual([
      "plain-http",
      "cross-origin",
    ]);
    expect(baseUrlWarnings("http://[::1]:8787", "http://127.0.0.1:8787")).toEqual(["ipv6-loopback", "cross-origin"]);
    expect(baseUrlWarnings("http://localhost:9000", "http://127.0.0.1:8787")).toEqual(["cross-origin"]);
    expect(baseUrlWarnings("http://127.0.0.1:9000", "http://127.0.0.1:8787")).toEqual(["cross-origin"]);
    expect(baseUrlWarnings("http://192.168.1.20:8787", "http://192.168.1.20:8787")).toEqual([]);
    expect(baseUrlWarnings("https://api.example.com", "http://192.168.1.20:8787")).toEqual(["cross-origin"]);
  });

  test("http from an https page warns about mixed content, except on loopback", () => {
    expect(baseUrlWarnings("http://api.example.com", "https://keyscope.example.com")).toEqual([
      "mixed-content",
      "cross-origin",
    ]);
    expect(baseUrlWarnings("http://localhost:8787", "https://keyscope.example.com")).toEqual(["cross-origin"]);
  });
});
