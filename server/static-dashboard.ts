import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import type { Context } from "hono";

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

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Keyscope: dashboard not built</title>
<style>:root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style></head>
<body>
<h1>The dashboard has not been built</h1>
<p>Run <code>npm run build</code> and reload this page, or start the server without <code>--no-build</code>.</p>
<p>The API at <code>/v2/</code> and the error reference at <a href="/docs">/docs</a> work without it.</p>
</body>
</html>
`;

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

  return async (c: Context): Promise<Response> => {
    const path = c.req.path;
    const filePath = path === "/" ? undefined : resolveInside(root, path);
    if (filePath !== undefined && (await fileSize(filePath)) !== undefined) {
      const isHashedAsset = path.startsWith("/assets/");
      return c.body(await readFile(filePath), 200, {
        "content-type": CONTENT_TYPES[extname(filePath).toLowerCase()] ?? "application/octet-stream",
        "cache-control": isHashedAsset ? HASHED_ASSET_CACHE : REVALIDATE,
        "x-content-type-options": "nosniff",
      });
    }
    // A missing hashed asset is a stale page asking for an old build: answering with HTML would only break its script.
    if (path.startsWith("/assets/")) return c.text("Not Found", 404);

    if ((await fileSize(indexPath)) === undefined) {
      return c.body(NOT_BUILT_PAGE, 503, { "content-type": "text/html; charset=utf-8", "cache-control": REVALIDATE });
    }
    return c.body(await readFile(indexPath), 200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": REVALIDATE,
      "x-content-type-options": "nosniff",
    });
  };
}
