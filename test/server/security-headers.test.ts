import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";

let server: StartedServer;
let unbuilt: StartedServer;

beforeAll(async () => {
  const distDir = mkdtempSync(join(tmpdir(), "keyscope-dist-"));
  mkdirSync(join(distDir, "assets"));
  writeFileSync(join(distDir, "index.html"), "<!doctype html><title>t</title><div id=root></div>");
  writeFileSync(join(distDir, "assets", "index-Ab12Cd34.js"), "export {};");
  [server, unbuilt] = await Promise.all([
    startServer({ args: ["--dist-dir", distDir] }),
    startServer({ args: ["--dist-dir", mkdtempSync(join(tmpdir(), "keyscope-nodist-"))] }),
  ]);
});

afterAll(async () => {
  await Promise.all([server.stop(), unbuilt.stop()]);
});

/** The directives of a CSP header, by name. */
function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

/** Nothing on any page of ours may run an inline script, be framed, change its base or embed plugins. */
function expectLockedDown(csp: Map<string, string[]>) {
  const scripts = csp.get("script-src") ?? csp.get("default-src") ?? [];
  expect(scripts.some((source) => /unsafe-inline|unsafe-eval|\*|data:|https?:/.test(source))).toBe(false);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'none'"]);
  expect(csp.get("object-src")).toEqual(["'none'"]);
}

describe("the dashboard page", () => {
  test.each(["/", "/connect", "/keys", "/no/such/route", "/index.html"])(
    "%s allows only its own scripts and the base URLs a user may choose",
    async (path) => {
      const response = await fetch(server.url + path);
      expect(response.status).toBe(200);
      const csp = directives(response.headers.get("content-security-policy"));
      expectLockedDown(csp);
      expect(csp.get("script-src")).toEqual(["'self'"]);
      expect(csp.get("style-src")).toEqual(["'self'"]);
      expect(csp.get("form-action")).toEqual(["'self'"]);
      expect(csp.get("connect-src")).toEqual(["'self'", "https:", "http://127.0.0.1:*", "http://localhost:*"]);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    },
  );

  test("a hashed asset is served with nosniff and no referrer", async () => {
    const response = await fetch(`${server.url}/assets/index-Ab12Cd34.js`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  test("the not-built page allows exactly its own inline style and no script", async () => {
    const response = await fetch(unbuilt.url);
    expect(response.status).toBe(503);
    const html = await response.text();
    const csp = directives(response.headers.get("content-security-policy"));
    expectLockedDown(csp);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("style-src")).toEqual(inlineStyleHashes(html));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

/** `'sha256-…'` of every inline <style> element of a page. */
function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (match) =>
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "")
        .digest("base64")}'`,
  );
}

describe("the error docs", () => {
  test.each([
    "/docs",
    "/docs/errors/svc/authentication/missing",
    "/docs/errors/user/too_many_requests/rate_limited",
    "/docs/errors/no/such/kind",
  ])("%s may run nothing, and allows exactly its own stylesheet by hash", async (path) => {
    const response = await fetch(server.url + path);
    const html = await response.text();
    const csp = directives(response.headers.get("content-security-policy"));
    expectLockedDown(csp);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'none'"]);
    expect(inlineStyleHashes(html)).toHaveLength(1);
    expect(csp.get("style-src")).toEqual(inlineStyleHashes(html));
    expect(html).not.toMatch(/<script|\son[a-z]+=/i);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });
});
