import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import type { Context } from "hono";
import { COMMON_SECURITY_HEADERS, DASHBOARD_CSP, staticPageCsp, styleHash } from "./security-headers";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
};

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

async function fileSize(path: string): Promise<number | undefined> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

/** The file under `root` a URL path names, or undefined when it would escape `root` or cannot be decoded. */
function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0")) return undefined;
  const candidate = normalize(join(root, decoded));
  return candidate.startsWith(root + sep) ? candidate : undefined;
}

/** Serves the built dashboard from `distDir`; any other GET gets its index.html (client-side routes). */
export function dashboardHandler(distDir: string) {
  const root = normalize(distDir);
  const indexPath = join(root, "index.html");
  // A file under assets/ never changes (its name is its content's hash): read once, it is served from memory, without
  // the two file-system calls per request that a page's first load makes a dozen times at once.
  const hashedAssets = new Map<string, Buffer<ArrayBuffer>>();

  return async (c: Context): Promise<Response> => {
    const path = c.req.path;
    // The page itself lives at "/": its router has no /index.html route and would show "Page not found".
    if (path === "/index.html") {
      const url = new URL(c.req.url);
      return c.body(null, 301, { location: `/${url.search}`, ...COMMON_SECURITY_HEADERS });
    }
    const isHashedAsset = path.startsWith("/assets/");
    // Dot-folders of the build (.vite/: what the bench reads) are not the dashboard's.
    const filePath = path === "/" || path.includes("/.") ? undefined : resolveInside(root, path);
    const remembered = filePath === undefined ? undefined : hashedAssets.get(filePath);
    if (filePath !== undefined && (remembered !== undefined || (await fileSize(filePath)) !== undefined)) {
      const content = remembered ?? (await readFile(filePath));
      if (isHashedAsset) hashedAssets.set(filePath, content);
      return c.body(content, 200, {
        "content-type": CONTENT_TYPES[extname(filePath).toLowerCase()] ?? "application/octet-stream",
        "cache-control": isHashedAsset ? HASHED_ASSET_CACHE : REVALIDATE,
        ...DASHBOARD_HEADERS,
      });
    }
    // A missing hashed asset is a stale page asking for an old build: answering with HTML would only break its script.
    if (path.startsWith("/assets/")) return c.text("Not Found", 404, COMMON_SECURITY_HEADERS);

    if ((await fileSize(indexPath)) === undefined) {
      return c.body(NOT_BUILT_PAGE, 503, NOT_BUILT_HEADERS);
    }
    return c.body(await readFile(indexPath), 200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": REVALIDATE,
      ...DASHBOARD_HEADERS,
    });
  };
}
