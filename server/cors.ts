import type { MiddlewareHandler } from "hono";

/** CORS for the listed origins only; any other origin gets no CORS header at all. */
export function corsMiddleware(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined || !allowed.has(origin)) {
      await next();
      c.header("vary", "Origin", { append: true });
      return;
    }
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method") !== undefined) {
      return c.body(null, 204, {
        "access-control-allow-origin": origin,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": "Authorization, Content-Type",
        "access-control-max-age": "600",
        vary: "Origin",
      });
    }
    await next();
    c.header("access-control-allow-origin", origin);
    // A page on another origin needs this to read how long a rate-limited request should wait.
    c.header("access-control-expose-headers", "Retry-After");
    c.header("vary", "Origin", { append: true });
  };
}
