import { serveStatic } from "@hono/node-server/serve-static";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, normalize } from "node:path";
import type { Context, Env, MiddlewareHandler } from "hono";
import { getMimeType } from "hono/utils/mime";
import {
  PRECOMPRESSED_CODINGS,
  preferredCodings,
  type ContentCoding,
  type PrecompressedCoding,
} from "./content-coding";
import { COMMON_SECURITY_HEADERS, DASHBOARD_CSP, staticPageCsp, styleHash } from "../http/security-headers";

// Vite puts a content hash in every name under assets/: such a file never changes, so it can be cached for good.
const HASHED_ASSET_CACHE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

const NOT_BUILT_STYLE =
  ":root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}";
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

/** Vite's names under assets/: a name and a content hash, no folder, no leading dot (the bench adds the floor app's). */
const HASHED_ASSET_PATH = /^\/assets\/[\w-][\w.-]*$/;

/** A hashed asset as read once: its type, its bytes, and its bytes in each coding the build wrote. */
interface HashedAsset {
  type: string;
  identity: ArrayBuffer;
  encoded: Map<PrecompressedCoding, ArrayBuffer>;
}

async function readIfPresent(file: string): Promise<ArrayBuffer | undefined> {
  try {
    const content = await readFile(file);
    return content.buffer.slice(content.byteOffset, content.byteOffset + content.byteLength);
  } catch {
    return undefined;
  }
}

/**
 * The codings to try, in turn, for a client preferring `preferred`: those it prefers to an uncompressed body, then
 * the body as it is, always there (a client refusing it too gets it anyway: RFC 9110 lets a server ignore the header).
 */
function codingsToTry(preferred: readonly ContentCoding[]): ContentCoding[] {
  const identityAt = preferred.indexOf("identity");
  return [...(identityAt === -1 ? preferred : preferred.slice(0, identityAt)), "identity"];
}

/** The headers of a body in `coding`: every answer that could have been compressed varies by Accept-Encoding. */
function codingHeaders(coding: ContentCoding): Record<string, string> {
  return coding === "identity" ? { vary: "Accept-Encoding" } : { vary: "Accept-Encoding", "content-encoding": coding };
}

/**
 * Serves the built dashboard from `distDir` (the files by `@hono/node-server`'s serveStatic, with the dashboard's
 * headers); any other GET gets its index.html (client-side routes). A file the build compressed
 * (tooling/precompress.ts) is sent as its `.br` or `.gz` copy when the request's `Accept-Encoding` prefers it.
 */
export function dashboardHandler(distDir: string) {
  const root = normalize(distDir);
  // serveStatic refuses `.`/`..` segments, doubled slashes, backslashes and encoded characters: those paths are no
  // file of the dashboard's, and get index.html below. One per coding, each reading the file's copy in it.
  const files = codingServers(root, undefined);
  const index = codingServers(root, "index.html");
  // A file under assets/ never changes (its name is its content's hash): read once, it is served from memory, without
  // the file-system calls per request that a page's first load makes a dozen times at once.
  const hashedAssets = new Map<string, Promise<HashedAsset | undefined>>();
  const readHashedAsset = async (path: string): Promise<HashedAsset | undefined> => {
    const file = join(root, path);
    const identity = await readIfPresent(file);
    if (identity === undefined) return undefined;
    const encoded = new Map<PrecompressedCoding, ArrayBuffer>();
    for (const { coding, suffix } of PRECOMPRESSED_CODINGS) {
      const body = await readIfPresent(file + suffix);
      if (body !== undefined) encoded.set(coding, body);
    }
    return { type: getMimeType(path) ?? "application/octet-stream", identity, encoded };
  };

  return async (c: Context<Env, string>): Promise<Response> => {
    const path = c.req.path;
    // The page itself lives at "/": its router has no /index.html route and would show "Page not found".
    if (path === "/index.html") {
      const url = new URL(c.req.url);
      return c.body(null, 301, { location: `/${url.search}`, ...COMMON_SECURITY_HEADERS });
    }
    const codings = codingsToTry(preferredCodings(c.req.header("accept-encoding")));
    const isHashedAsset = path.startsWith("/assets/");
    const headers = { "cache-control": isHashedAsset ? HASHED_ASSET_CACHE : REVALIDATE, ...DASHBOARD_HEADERS };
    // A range is cut from the file on disk by serveStatic, below.
    if (isHashedAsset && HASHED_ASSET_PATH.test(path) && c.req.header("range") === undefined) {
      let asset = hashedAssets.get(path);
      if (asset === undefined) {
        asset = readHashedAsset(path);
        hashedAssets.set(path, asset);
      }
      const found = await asset;
      if (found === undefined) hashedAssets.delete(path);
      else {
        const coding =
          codings.find((candidate) => candidate === "identity" || found.encoded.has(candidate)) ?? "identity";
        const body = (coding === "identity" ? undefined : found.encoded.get(coding)) ?? found.identity;
        return c.body(body, 200, {
          ...headers,
          ...codingHeaders(coding),
          "content-type": found.type,
          "content-length": String(body.byteLength),
        });
      }
    }
    // Dot-folders of the build (.vite/: what the bench reads) are not the dashboard's; "/" is index.html, below.
    const served = path === "/" || path.includes("/.") ? undefined : await serveInCoding(c, files, codings, path);
    if (served !== undefined) return withHeaders(served, headers);
    // A missing hashed asset is a stale page asking for an old build: answering with HTML would only break its script.
    if (isHashedAsset) return c.text("Not Found", 404, COMMON_SECURITY_HEADERS);

    const page = existsSync(join(root, "index.html"))
      ? await serveInCoding(c, index, codings, "index.html")
      : undefined;
    if (page === undefined) return c.body(NOT_BUILT_PAGE, 503, NOT_BUILT_HEADERS);
    return withHeaders(page, { "cache-control": REVALIDATE, ...DASHBOARD_HEADERS });
  };
}

type CodingServers = Map<ContentCoding, MiddlewareHandler>;

/** serveStatic for each coding: the file itself for identity, its `.br` or `.gz` copy for the others. */
function codingServers(root: string, path: string | undefined): CodingServers {
  const servers: CodingServers = new Map([["identity", serveStatic({ root, path })]]);
  for (const { coding, suffix } of PRECOMPRESSED_CODINGS) {
    servers.set(
      coding,
      serveStatic({
        root,
        path: path === undefined ? undefined : path + suffix,
        rewriteRequestPath: (file) => file + suffix,
      }),
    );
  }
  return servers;
}

/**
 * The file at `path` in the first of `codings` it was written in (HEAD and ranges by serveStatic, a range counting
 * the bytes sent); undefined when there is no such file.
 */
async function serveInCoding(
  c: Context<Env, string>,
  servers: CodingServers,
  codings: readonly ContentCoding[],
  path: string,
): Promise<Response | undefined> {
  for (const coding of codings) {
    const served = await servers.get(coding)?.(c, NOTHING_NEXT);
    if (served instanceof Response) {
      // serveStatic typed the file it read: a copy's type is the original's, which a folder's index.html names itself.
      if (coding === "identity") return withHeaders(served, codingHeaders(coding));
      return withHeaders(served, {
        ...codingHeaders(coding),
        "content-type": getMimeType(path) ?? "application/octet-stream",
      });
    }
  }
  return undefined;
}
