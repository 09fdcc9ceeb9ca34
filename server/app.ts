import { Hono, type MiddlewareHandler } from "hono";
import { METHOD_NAME_ALL } from "hono/router";
import type { AnalyticsEngine } from "./analytics/engine";
import type { RateLimit } from "./auth/rate-limit";
import { dashboardHandler } from "./dashboard/static-dashboard";
import { newId } from "./db/ids";
import type { ApiDependencies, ApiEnv, AppEnv } from "./http/api-env";
import { ApiRefusal, refusalResponse } from "./http/api-refusal";
import { corsMiddleware } from "./http/cors";
import { proxyHandler } from "./http/proxy";
import type { RequestLog } from "./http/request-log";
import { analyticsRoutes } from "./routes/analytics";
import { HOURLY_ANALYTICS_QUOTA } from "./routes/analytics/analytics-query";
import { apisRoutes } from "./routes/apis";
import { docsRoutes } from "./routes/docs";
import { identitiesRoutes } from "./routes/identities";
import { keysRoutes } from "./routes/keys";
import { livenessRoutes } from "./routes/liveness";
import { permissionsRoutes } from "./routes/permissions";
import { ratelimitRoutes } from "./routes/ratelimit";

const UNEXPECTED = "err:svc:application:unexpected_error";

export type AppMode =
  | ({ kind: "direct" } & ApiDependencies)
  /** `upstreamTimeoutMs`: how long a whole upstream answer may take (15 s by default). */
  | { kind: "proxy"; upstream: URL; upstreamTimeoutMs?: number };

export interface AppOptions {
  mode: AppMode;
  /** `{docs_url}` of error types; by default the request's own origin + `/docs`. */
  docsUrl?: string;
  /** Origins allowed to call `/v2/*` from a browser (direct mode only). */
  corsOrigins?: readonly string[];
  /** Where the built dashboard lives. */
  distDir: string;
  requestLog?: RequestLog;
  /** The analytics engine (direct mode): `analytics.getVerifications` and `getRatelimits` are served when given. */
  analytics?: { engine: AnalyticsEngine; quota?: RateLimit };
  /** Hears about every unexpected error; the client only ever gets the generic envelope. */
  reportError?: (error: unknown, requestId: string | undefined) => void;
}

const API_PREFIX = "/v2";

type DocsUrlResolver = (requestUrl: string) => string;

function docsUrlResolver(configured: string | undefined): DocsUrlResolver {
  if (configured !== undefined) {
    const docsUrl = configured.replace(/\/+$/, "");
    return () => docsUrl;
  }
  // The origin ends at the first "/" after "scheme://".
  return (requestUrl) => `${requestUrl.slice(0, requestUrl.indexOf("/", requestUrl.indexOf("//") + 2))}/docs`;
}

/** Sets what every `/v2` answer carries: its request id, and where its error types point. */
function apiContext(docsUrlFor: DocsUrlResolver): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    c.set("requestId", newId("req"));
    c.set("docsUrl", docsUrlFor(c.req.url));
    await next();
  };
}

/** Each operation's path answers any other method with 405 and the method it takes. */
function refuseOtherMethods(api: Hono<ApiEnv>): void {
  const methods = new Map<string, string>();
  for (const route of api.routes) if (route.method !== METHOD_NAME_ALL) methods.set(route.path, route.method);
  for (const [path, allow] of methods) {
    api.all(path, () => {
      throw new ApiRefusal("err:keyscope:routing:method_not_allowed", { headers: { allow } });
    });
  }
}

/** The API served here: each resource's operations (routes/), mounted with one line each. */
function directApi(
  deps: ApiDependencies,
  docsUrlFor: DocsUrlResolver,
  corsOrigins: readonly string[],
  analytics: AppOptions["analytics"],
): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  api.use(`${API_PREFIX}/*`, apiContext(docsUrlFor));
  if (corsOrigins.length > 0) api.use(`${API_PREFIX}/*`, corsMiddleware(corsOrigins));
  api.route("/", keysRoutes(deps));
  api.route("/", apisRoutes(deps));
  api.route("/", permissionsRoutes(deps));
  api.route("/", identitiesRoutes(deps));
  api.route("/", ratelimitRoutes(deps));
  if (analytics !== undefined) {
    // The quota is counted like a root key's rate limit, per workspace, by the same (persistent) limiter.
    api.route(
      "/",
      analyticsRoutes({ ...deps, engine: analytics.engine, quota: analytics.quota ?? HOURLY_ANALYTICS_QUOTA }),
    );
  }
  api.route("/", livenessRoutes());
  refuseOtherMethods(api);
  api.all(`${API_PREFIX}/*`, () => {
    throw new ApiRefusal("err:keyscope:routing:not_found");
  });
  return api;
}

/** The whole server as a Hono app: the API (direct or proxied), the error docs, and the dashboard. */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  const docsUrlFor = docsUrlResolver(options.docsUrl);

  if (options.requestLog !== undefined) app.use(options.requestLog.middleware);

  if (options.mode.kind === "direct") {
    app.route("/", directApi(options.mode, docsUrlFor, options.corsOrigins ?? [], options.analytics));
  } else {
    // Relayed answers carry the upstream's request id; this server makes one only for errors of its own.
    const proxy = new Hono<ApiEnv>();
    proxy.use(async (c, next) => {
      c.set("docsUrl", docsUrlFor(c.req.url));
      await next();
    });
    proxy.all("*", proxyHandler(options.mode.upstream, options.mode.upstreamTimeoutMs));
    app.route(API_PREFIX, proxy);
  }

  app.route("/docs", docsRoutes());
  app.get("*", dashboardHandler(options.distDir));

  // The one place an answer other than success is written: every refusal is thrown, wherever it is found.
  app.onError((error, c) => {
    const api = c.req.path.startsWith(`${API_PREFIX}/`);
    if (api && error instanceof ApiRefusal && error.code !== UNEXPECTED) {
      return refusalResponse(c, error, docsUrlFor(c.req.url));
    }
    const requestId = c.get("requestId") ?? newId("req");
    c.set("requestId", requestId);
    options.reportError?.(error instanceof ApiRefusal ? (error.cause ?? error) : error, requestId);
    if (!api) return c.text("Internal Server Error", 500);
    // Anything else is a failure of this server: the generic envelope, or the real service's words for it.
    const refusal = error instanceof ApiRefusal ? error : new ApiRefusal(UNEXPECTED);
    return refusalResponse(c, refusal, docsUrlFor(c.req.url));
  });
  return app;
}
