import { serveStatic } from "@hono/node-server/serve-static";
import { existsSync } from "node:fs";
import { join, normalize } from "node:path";
import type { Context, Env } from "hono";
import { COMMON_SECURITY_HEADERS, DASHBOARD_CSP, staticPageCsp, styleHash } from "./security-headers";

// Vite puts a content hash in every name under assets/: such a file never changes, so it can be cached for good.
const HASHED_ASSET_CACHE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

const NOT_BUILT_STYLE = ":root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}";
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Keyscope: dashboard not built</title>
<style>${NOT_BUILT_STYLE}</style></head>
<body>
<h1>The dashboard has not been built</h1>
<p>Run <code>npm run build</code> and reload this page, or start the server without <code>--no-build</code>.</p>
<p>The API at <code>/v2/</code> and the error reference at <a href="/docs">/docs</a> work without it.</p>
</body>
</html>
`;

/** On every file of the dashboard: harmless on a script or stylesheet, and it covers any HTML file in dist/. */
const DASHBOARD_HEADERS = { ...COMMON_SECURITY_HEADERS, "content-security-policy": DASHBOARD_CSP } as const;
const NOT_BUILT_HEADERS = {
  ...COMMON_SECURITY_HEADERS,
  "content-security-policy": staticPageCsp([styleHash(NOT_BUILT_STYLE)]),
  "content-type": "text/html; charset=utf-8",
  "cache-control": REVALIDATE,
} as const;

/** The response with `headers` set on top of its own (serveStatic's type, length and date). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, headers: merged });
}

/** A middleware run for its answer alone: undefined when it found nothing to serve. */
const NOTHING_NEXT = () => Promise.resolve();

/**
 * Serves the built dashboard from `distDir` (the files by `@hono/node-server`'s serveStatic, with the dashboard's
 * headers); any other GET gets its index.html (client-side routes).
 */
export function dashboardHandler(distDir: string) {
  const root = normalize(distDir);
  // serveStatic refuses `.`/`..` segments, doubled slashes, backslashes and encoded characters: those paths are no
  // file of the dashboard's, and get index.html below.
  const files = serveStatic({ root });
  const index = serveStatic({ root, path: "index.html" });
  // A file under assets/ never changes (its name is its content's hash): read once, it is served from memory, without
  // the file-system calls per request that a page's first load makes a dozen times at once.
  const hashedAssets = new Map<string, { content: ArrayBuffer; type: string }>();

  return async (c: Context<Env, string>): Promise<Response> => {
    const path = c.req.path;
    // The page itself lives at "/": its router has no /index.html route and would show "Page not found".
    if (path === "/index.html") {
      const url = new URL(c.req.url);
      return c.body(null, 301, { location: `/${url.search}`, ...COMMON_SECURITY_HEADERS });
    }
    const isHashedAsset = path.startsWith("/assets/");
    const headers = { "cache-control": isHashedAsset ? HASHED_ASSET_CACHE : REVALIDATE, ...DASHBOARD_HEADERS };
    const remembered = hashedAssets.get(path);
    if (remembered !== undefined) return c.body(remembered.content, 200, { ...headers, "content-type": remembered.type });
    // Dot-folders of the build (.vite/: what the bench reads) are not the dashboard's; "/" is index.html, below.
    const served = path === "/" || path.includes("/.") ? undefined : await files(c, NOTHING_NEXT);
    if (served instanceof Response) {
      if (isHashedAsset && served.status === 200) {
        const content = await served.arrayBuffer();
        const type = served.headers.get("content-type") ?? "application/octet-stream";
        hashedAssets.set(path, { content, type });
        return c.body(content, 200, { ...headers, "content-type": type });
      }
      return withHeaders(served, headers);
    }
    // A missing hashed asset is a stale page asking for an old build: answering with HTML would only break its script.
    if (isHashedAsset) return c.text("Not Found", 404, COMMON_SECURITY_HEADERS);

    const page = existsSync(join(root, "index.html")) ? await index(c, NOTHING_NEXT) : undefined;
    if (!(page instanceof Response)) return c.body(NOT_BUILT_PAGE, 503, NOT_BUILT_HEADERS);
    return withHeaders(page, { "cache-control": REVALIDATE, ...DASHBOARD_HEADERS });
  };
}
