import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Context } from "hono";
import { MAX_BODY_BYTES } from "../../src/lib/contract";
import type { ApiEnv } from "./api-env";
import { ApiRefusal } from "./api-refusal";
import { BODY_CUT_OFF, readBodyBytes } from "./request-body";

/** Request headers the upstream needs; nothing else of the browser's (cookies above all) is passed on. */
const FORWARDED_REQUEST_HEADERS = ["authorization", "content-type", "accept"] as const;

const RELAYED_RESPONSE_HEADERS = new Set([
  "content-type",
  "content-encoding",
  "content-language",
  "cache-control",
  "expires",
  "etag",
  "last-modified",
  "retry-after",
  "www-authenticate",
  "location",
  "x-request-id",
]);
const RELAYED_RESPONSE_PREFIXES = ["ratelimit", "x-ratelimit-"] as const;

const UPSTREAM_TIMEOUT_MS = 15_000;
const MAX_UPSTREAM_RESPONSE_BYTES = 16 * 1024 * 1024;
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

function isRelayedHeader(name: string): boolean {
  return RELAYED_RESPONSE_HEADERS.has(name) || RELAYED_RESPONSE_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * The upstream's answers are served on the dashboard's own origin, where the root key lives: whatever they are
 * (an HTML error page, a hostile document), a browser that opens one renders it sandboxed, with nothing to run.
 */
const RELAYED_SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
  "x-content-type-options": "nosniff",
} as const;

function relayedHeaders(upstreamHeaders: IncomingHttpHeaders): Headers {
  const headers = new Headers(RELAYED_SECURITY_HEADERS);
  for (const [name, value] of Object.entries(upstreamHeaders)) {
    if (value === undefined || !isRelayedHeader(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

type UpstreamResult =
  { kind: "response"; status: number; headers: IncomingHttpHeaders; body: Buffer } | { kind: "failed"; reason: string };

/**
 * `/v2/*` relayed to `<upstream>/v2/*`: method, path, query and body bytes unchanged, the response's status,
 * body bytes and meaningful headers back. Redirects are relayed, not followed; one to another origin, which a
 * browser could not follow with the key, is answered with the proxy's own envelope. The upstream is asked for
 * `identity` encoding so the bytes need no decoding; if it compresses anyway, its content-encoding goes along.
 */
export function proxyHandler(upstream: URL, timeoutMs = UPSTREAM_TIMEOUT_MS) {
  const isHttps = upstream.protocol === "https:";
  const send = isHttps ? httpsRequest : httpRequest;
  const agent = isHttps ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const basePath = upstream.pathname.replace(/\/+$/, "");
  // Never its user info, should the address carry any.
  const upstreamAddress = upstream.origin + basePath;

  function forward(c: Context<ApiEnv>, body: Uint8Array | undefined): Promise<UpstreamResult> {
    const url = new URL(c.req.url);
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value !== undefined) headers[name] = value;
    }
    if (body !== undefined) headers["content-length"] = String(body.byteLength);

    return new Promise<UpstreamResult>((settle) => {
      // Called only from the request's events, which come after `deadline` is set below.
      const resolve = (result: UpstreamResult) => {
        clearTimeout(deadline);
        settle(result);
      };
      const upstreamRequest = send(
        {
          protocol: upstream.protocol,
          hostname: upstream.hostname,
          port: upstream.port,
          method: c.req.method,
          path: basePath + url.pathname + url.search,
          headers,
          agent,
        },
        (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_UPSTREAM_RESPONSE_BYTES) {
              response.destroy();
              resolve({ kind: "failed", reason: "The upstream's answer is larger than 16 MiB" });
              return;
            }
            chunks.push(chunk);
          });
          response.on("end", () =>
            resolve({
              kind: "response",
              status: response.statusCode ?? 502,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
          response.on("error", (error) => resolve({ kind: "failed", reason: error.message }));
        },
      );
      // One deadline for the whole exchange: a socket idle timeout would never fire on an upstream that trickles.
      const deadline = setTimeout(
        () => upstreamRequest.destroy(new Error(`no complete answer within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      upstreamRequest.on("error", (error) => resolve({ kind: "failed", reason: error.message }));
      upstreamRequest.end(body);
    });
  }

  return async (c: Context<ApiEnv>): Promise<Response> => {
    const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
    const body = hasBody ? await readBodyBytes(c.req.raw, MAX_BODY_BYTES) : undefined;
    if (hasBody && body === undefined) {
      throw new ApiRefusal("err:user:bad_request:request_body_too_large", { headers: { connection: "close" } });
    }
    if (body === BODY_CUT_OFF) {
      throw new ApiRefusal("err:svc:application:invalid_input", {
        errors: [{ location: "body", message: BODY_CUT_OFF }],
      });
    }

    const result = await forward(c, body);
    if (result.kind === "failed" || result.status < 200 || result.status > 599) {
      const reason = result.kind === "failed" ? result.reason : `it answered with status ${result.status}`;
      // The API behind is not at fault: this proxy's --upstream is, and the operator can fix it.
      throw new ApiRefusal("err:keyscope:proxy:upstream_unreachable", {
        detail:
          `This proxy could not reach its upstream API at ${upstreamAddress} (--upstream): ${reason}. ` +
          "Check that the API runs there, or restart the proxy with --upstream set to the API's address.",
      });
    }
    const redirectedTo = crossOriginRedirect(result, upstream);
    if (redirectedTo !== null) {
      // The browser would follow it to another origin, without the key and blocked by CORS: say where it leads.
      throw new ApiRefusal("err:keyscope:proxy:upstream_redirect", {
        detail: `The upstream API at ${upstream.origin} answered ${result.status}, a redirect to ${redirectedTo}`,
        errors: [{ location: "header.location", message: redirectedTo }],
      });
    }
    const nullBody = c.req.method === "HEAD" || NULL_BODY_STATUSES.has(result.status);
    return new Response(nullBody ? null : new Uint8Array(result.body), {
      status: result.status,
      headers: relayedHeaders(result.headers),
    });
  };
}

/** Where an upstream redirect leads when that is another origin than the upstream's, else null. */
function crossOriginRedirect(result: { status: number; headers: IncomingHttpHeaders }, upstream: URL): string | null {
  const location = result.headers.location;
  if (result.status < 300 || result.status > 399 || typeof location !== "string") return null;
  try {
    const target = new URL(location, upstream);
    return target.origin === upstream.origin ? null : target.href;
  } catch {
    return null;
  }
}
