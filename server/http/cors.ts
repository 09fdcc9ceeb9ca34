import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/**
 * CORS for the listed origins only, by Hono's own middleware. Any other origin's request passes by untouched,
 * with no CORS header at all (Hono's would still answer its preflight with the allowed methods and headers).
 */
export function corsMiddleware(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  const forAllowed = cors({
    origin: [...allowed],
    allowMethods: ["POST"],
    allowHeaders: ["Authorization", "Content-Type"],
    // A page on another origin needs this to read how long a rate-limited request should wait.
    exposeHeaders: ["Retry-After"],
    maxAge: 600,
  });
  return (c, next) => (allowed.has(c.req.header("origin") ?? "") ? forAllowed(c, next) : next());
}
