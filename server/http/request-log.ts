import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./api-env";

export interface RequestLog {
  middleware: MiddlewareHandler<AppEnv>;
  /** Writes out what is buffered; call before exiting. */
  flush(): void;
}

// A path is logged as routed, never its query string; an absurdly long one is cut.
const MAX_LOGGED_PATH = 256;
/** Lines reach the output this long after their request at the latest: nothing a person watching would notice. */
const FLUSH_AFTER_MS = 25;
const FLUSH_AT_BYTES = 64 * 1024;

/**
 * One line per request, `<METHOD> <path> <status> <duration>ms <requestId or ->`, never a header or a body.
 * Lines are buffered and written at most every {@link FLUSH_AFTER_MS} (or once {@link FLUSH_AT_BYTES} are waiting):
 * a write per turn of the event loop cost a busy server about a tenth of its CPU (a profile of a verifyKey flood).
 */
export function createRequestLog(write: (chunk: string) => void): RequestLog {
  let pending = "";
  let timer: NodeJS.Timeout | undefined;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
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
    if (pending.length >= FLUSH_AT_BYTES) flush();
    else timer ??= setTimeout(flush, FLUSH_AFTER_MS);
  };

  return { middleware, flush };
}
