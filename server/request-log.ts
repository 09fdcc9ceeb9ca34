import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./api-env";

export interface RequestLog {
  middleware: MiddlewareHandler<AppEnv>;
  /** Writes out what is buffered; call before exiting. */
  flush(): void;
}

// A path is logged as routed, never its query string; an absurdly long one is cut.
const MAX_LOGGED_PATH = 256;

/**
 * One line per request, `<METHOD> <path> <status> <duration>ms <requestId or ->`, never a header or a body.
 * Lines are buffered and written once per turn of the event loop, so a busy server makes one write for many requests.
 */
export function createRequestLog(write: (chunk: string) => void): RequestLog {
  let pending = "";
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    if (pending === "") return;
    const chunk = pending;
    pending = "";
    write(chunk);
  }

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const startedAt = performance.now();
    await next();
    const path = c.req.path;
    const shownPath = path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
    const duration = (performance.now() - startedAt).toFixed(1);
    pending += `${c.req.method} ${shownPath} ${c.res.status} ${duration}ms ${c.get("requestId") ?? "-"}\n`;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };

  return { middleware, flush };
}
