import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SERVER_ERROR_CODES, SERVER_ERROR_KINDS } from "../../server/errors";
import { asError, callApi } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

const INDEX_HTML = "<!doctype html><title>Keyscope test build</title><div id=root></div>";
const ASSET_JS = "console.log('hashed asset');";

let server: InProcessServer;
let distDir: string;

beforeAll(() => {
  distDir = mkdtempSync(join(tmpdir(), "keyscope-dist-"));
  mkdirSync(join(distDir, "assets"));
  writeFileSync(join(distDir, "index.html"), INDEX_HTML);
  writeFileSync(join(distDir, "assets", "index-Ab12Cd34.js"), ASSET_JS);
  writeFileSync(join(distDir, "assets", "keys-Ef56Gh78.js"), ASSET_JS);
  writeFileSync(join(distDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  mkdirSync(join(distDir, ".vite"));
  writeFileSync(join(distDir, ".vite", "manifest.json"), "{}");
  server = startInProcess({ distDir });
});

afterAll(() => {
  server.close();
});

function docsPath(code: string): string {
  const [, system, category, kind] = code.split(":");
  return `/docs/errors/${system}/${category}/${kind}`;
}

describe("error docs", () => {
  test.each(SERVER_ERROR_CODES)("%s has a self-contained page naming its code, status and title", async (code) => {
    const response = await server.fetch(server.url + docsPath(code));
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html).toContain(code);
    expect(html).toContain(String(SERVER_ERROR_KINDS[code].status));
    expect(html).toContain(SERVER_ERROR_KINDS[code].title.replaceAll("'", "&#39;"));
    expect(html).toMatch(/How to fix it/);
    expect(html).toMatch(/Common mistakes/);
    expect(html).not.toMatch(/<script|<link|src=/i);
    expect(html).toContain("prefers-color-scheme: dark");
  });

  test("an error's type address is where its page lives", async () => {
    const type = asError(await callApi(server)).error.type;
    const response = await server.fetch(type);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("err:svc:authentication:missing");
  });

  test("the missing-credentials page shows the fix and the four usual causes", async () => {
    const html = await (await server.fetch(`${server.url}/docs/errors/svc/authentication/missing`)).text();
    expect(html).toContain("Authorization: Bearer &#60;API_KEY&#62;");
    expect(html).toMatch(/<code>Bearer<\/code> prefix is omitted/);
    expect(html).toMatch(/proxy or gateway/);
    expect(html).toMatch(/expired or has been revoked/);
    expect(html).toMatch(/wrong environment/);
  });

  test("an unknown kind is a 404 page", async () => {
    const response = await server.fetch(`${server.url}/docs/errors/svc/authentication/nonsense`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain("No such error kind");
  });

  test.each(["/docs", "/docs/", "/docs/errors"])("%s lists every kind", async (path) => {
    const response = await server.fetch(server.url + path);
    const html = await response.text();
    expect(response.status).toBe(200);
    for (const code of SERVER_ERROR_CODES) expect(html).toContain(`href="${docsPath(code)}"`);
  });
});

describe("the dashboard", () => {
  test.each(["/", "/keys", "/troubleshoot/some/deep/route"])("%s is answered with index.html (client-side routing)", async (path) => {
    const response = await server.fetch(server.url + path);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(await response.text()).toBe(INDEX_HTML);
  });

  test.each([
    ["/index.html", "/"],
    ["/index.html?from=bookmark", "/?from=bookmark"],
  ])("%s redirects to the dashboard's home (the router knows no /index.html route)", async (path, location) => {
    const response = await server.fetch(server.url + path, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(location);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("hashed assets are served with a long cache and their type", async () => {
    const response = await server.fetch(`${server.url}/assets/index-Ab12Cd34.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await response.text()).toBe(ASSET_JS);
  });

  test("other files are served and revalidated", async () => {
    const response = await server.fetch(`${server.url}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
  });

  test("a hashed asset, which never changes, is served again once read even if its file is gone", async () => {
    const url = `${server.url}/assets/keys-Ef56Gh78.js`;
    expect(await (await server.fetch(url)).text()).toBe(ASSET_JS);
    rmSync(join(distDir, "assets", "keys-Ef56Gh78.js"));
    const again = await server.fetch(url);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(ASSET_JS);
  });

  test("the build's dot-folders (.vite/) are not served: the path gets index.html", async () => {
    const response = await server.fetch(`${server.url}/.vite/manifest.json`);
    expect(await response.text()).toBe(INDEX_HTML);
  });

  test("a missing hashed asset is a 404, not index.html", async () => {
    expect((await server.fetch(`${server.url}/assets/index-Gone0000.js`)).status).toBe(404);
  });

  test("a path escaping dist/ gets index.html, never the file", async () => {
    const response = await server.fetch(`${server.url}/..%2f..%2fpackage.json`);
    expect(await response.text()).toBe(INDEX_HTML);
  });
});

test("without a built dashboard a page says to run npm run build", async () => {
  const unbuilt = startInProcess({ distDir: mkdtempSync(join(tmpdir(), "keyscope-empty-dist-")) });
  try {
    const response = await unbuilt.fetch(`${unbuilt.url}/keys`);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain("npm run build");
    expect((await callApi(unbuilt)).status).toBe(401);
  } finally {
    unbuilt.close();
  }
});
