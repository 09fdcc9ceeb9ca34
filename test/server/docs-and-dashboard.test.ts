import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { precompressDir } from "../../tooling/precompress";
import { SERVER_ERROR_CODES, SERVER_ERROR_KINDS } from "../../server/http/errors";
import { asError, callApi } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

const INDEX_HTML = "<!doctype html><title>Keyscope test build</title><div id=root></div>";
const ASSET_JS = "console.log('hashed asset');";
/** Large enough that the build's brotli and gzip copies are smaller than it (tooling/precompress.ts). */
const BIG_ASSET_JS = Array.from(
  { length: 200 },
  (_, row) => `export const row${row} = { keyId: "key_${row}", name: "Row ${row}" };`,
).join("\n");
const BIG_INDEX_HTML = `<!doctype html><title>Keyscope test build</title><div id=root></div>${"<!-- padding to compress -->".repeat(20)}`;

let server: InProcessServer;
let distDir: string;

let compressedDistDir: string;
let compressedServer: InProcessServer;

beforeAll(async () => {
  compressedDistDir = mkdtempSync(join(tmpdir(), "keyscope-compressed-dist-"));
  mkdirSync(join(compressedDistDir, "assets"));
  writeFileSync(join(compressedDistDir, "index.html"), BIG_INDEX_HTML);
  writeFileSync(join(compressedDistDir, "assets", "keys-route-Xy12Zw34.js"), BIG_ASSET_JS);
  writeFileSync(join(compressedDistDir, "assets", "tiny-Tt12Tt34.js"), "0");
  mkdirSync(join(compressedDistDir, "floor"));
  writeFileSync(join(compressedDistDir, "floor", "index.html"), BIG_INDEX_HTML);
  await precompressDir(compressedDistDir);
  compressedServer = startInProcess({ distDir: compressedDistDir });
});

afterAll(() => {
  compressedServer.close();
  rmSync(compressedDistDir, { recursive: true, force: true });
});

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
  rmSync(distDir, { recursive: true, force: true });
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
  test.each(["/", "/keys", "/troubleshoot/some/deep/route"])(
    "%s is answered with index.html (client-side routing)",
    async (path) => {
      const response = await server.fetch(server.url + path);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toBe(INDEX_HTML);
    },
  );

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

describe("compressed delivery of the build's brotli and gzip copies", () => {
  const asset = "/assets/keys-route-Xy12Zw34.js";
  const get = (path: string, acceptEncoding?: string, init: RequestInit = {}) =>
    compressedServer.fetch(compressedServer.url + path, {
      ...init,
      headers: { ...(acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding }), ...init.headers },
    });
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
  const fileBytes = (file: string) => readFileSync(join(compressedDistDir, file));

  test("the build wrote both copies beside the file, each smaller, and none of a file they would not shrink", () => {
    expect(fileBytes("assets/keys-route-Xy12Zw34.js.br").length).toBeLessThan(BIG_ASSET_JS.length);
    expect(fileBytes("assets/keys-route-Xy12Zw34.js.gz").length).toBeLessThan(BIG_ASSET_JS.length);
    expect(() => fileBytes("assets/tiny-Tt12Tt34.js.br")).toThrow(/ENOENT/);
  });

  test("a browser's Accept-Encoding gets the brotli copy, with its type, length and Vary; it decodes to the file", async () => {
    const response = await get(asset, "gzip, deflate, br, zstd");
    const body = await bytesOf(response);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(body).toEqual(fileBytes("assets/keys-route-Xy12Zw34.js.br"));
    expect(brotliDecompressSync(body).toString()).toBe(BIG_ASSET_JS);
  });

  test.each([["gzip"], ["br;q=0, gzip"], ["br;q=0.5, gzip"], ["*;q=0.1, gzip"]])(
    "%j gets the gzip copy",
    async (acceptEncoding) => {
      const response = await get(asset, acceptEncoding);
      const body = await bytesOf(response);
      expect(response.headers.get("content-encoding")).toBe("gzip");
      expect(response.headers.get("content-length")).toBe(String(body.length));
      expect(gunzipSync(body).toString()).toBe(BIG_ASSET_JS);
    },
  );

  test.each([[undefined], ["identity"], ["gzip;q=0.5, identity"], ["compress, zstd"], ["br;q=0, gzip;q=0"]])(
    "%j gets the file as it is, still marked as varying",
    async (acceptEncoding) => {
      const response = await get(asset, acceptEncoding);
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(response.headers.get("content-length")).toBe(String(BIG_ASSET_JS.length));
      expect(await response.text()).toBe(BIG_ASSET_JS);
    },
  );

  test("a client refusing every coding, identity too, still gets the file as it is (never an error)", async () => {
    const response = await get(asset, "*;q=0");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toBe(BIG_ASSET_JS);
  });

  test("a file without copies (too small to shrink) is sent as it is to a client asking for brotli", async () => {
    const response = await get("/assets/tiny-Tt12Tt34.js", "br, gzip");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toBe("0");
  });

  test("the memory holds each coding apart: brotli, gzip and identity in turn each get their own bytes", async () => {
    for (const round of [1, 2]) {
      const br = await get(asset, "br");
      const gzip = await get(asset, "gzip");
      const identity = await get(asset, "identity");
      expect([
        round,
        br.headers.get("content-encoding"),
        gzip.headers.get("content-encoding"),
        identity.headers.get("content-encoding"),
      ]).toEqual([round, "br", "gzip", null]);
      expect(brotliDecompressSync(await bytesOf(br)).toString()).toBe(BIG_ASSET_JS);
      expect(gunzipSync(await bytesOf(gzip)).toString()).toBe(BIG_ASSET_JS);
      expect(await identity.text()).toBe(BIG_ASSET_JS);
    }
  });

  test("HEAD tells the chosen copy's length and coding, without a body", async () => {
    const response = await get(asset, "gzip", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("content-length")).toBe(String(fileBytes("assets/keys-route-Xy12Zw34.js.gz").length));
    expect(await response.text()).toBe("");
  });

  test("a range is cut from the representation sent: the file's bytes without a coding, the copy's with one", async () => {
    const plain = await get(asset, undefined, { headers: { range: "bytes=0-9" } });
    expect(plain.status).toBe(206);
    expect(plain.headers.get("content-range")).toBe(`bytes 0-9/${BIG_ASSET_JS.length}`);
    expect(await plain.text()).toBe(BIG_ASSET_JS.slice(0, 10));

    const gzipFile = fileBytes("assets/keys-route-Xy12Zw34.js.gz");
    const gzip = await get(asset, "gzip", { headers: { range: "bytes=0-9" } });
    expect(gzip.status).toBe(206);
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.headers.get("content-range")).toBe(`bytes 0-9/${gzipFile.length}`);
    expect(await bytesOf(gzip)).toEqual(gzipFile.subarray(0, 10));
  });

  test.each(["/", "/keys"])("the page at %s is index.html's brotli copy, revalidated, as HTML", async (path) => {
    const response = await get(path, "gzip, deflate, br");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(brotliDecompressSync(await bytesOf(response)).toString()).toBe(BIG_INDEX_HTML);
  });

  test.each(["gzip, deflate, br", "identity"])(
    "a folder's own index.html (the bench's floors) is HTML whatever the coding (%s)",
    async (accept) => {
      const response = await get("/floor/", accept);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const body = await bytesOf(response);
      expect((response.headers.get("content-encoding") === "br" ? brotliDecompressSync(body) : body).toString()).toBe(
        BIG_INDEX_HTML,
      );
    },
  );

  test("the page without a coding asked for is index.html as it is", async () => {
    const response = await get("/keys");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toBe(BIG_INDEX_HTML);
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
