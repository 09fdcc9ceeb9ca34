import { Hono, type Context } from "hono";
import {
  ADD_PERMISSIONS_PATH,
  ADD_ROLES_PATH,
  CREATE_API_PATH,
  CREATE_KEY_PATH,
  DELETE_API_PATH,
  DELETE_KEY_PATH,
  GET_API_PATH,
  GET_IDENTITY_PATH,
  GET_KEY_PATH,
  GET_VERIFICATIONS_PATH,
  LIST_IDENTITIES_PATH,
  LIST_KEYS_PATH,
  LIST_PERMISSIONS_PATH,
  LIST_ROLES_PATH,
  LIVENESS_PATH,
  REAL_SERVICE_LIST_KEYS_PATH,
  REMOVE_PERMISSIONS_PATH,
  REMOVE_ROLES_PATH,
  REROLL_KEY_PATH,
  SET_PERMISSIONS_PATH,
  SET_ROLES_PATH,
  UPDATE_CREDITS_PATH,
  UPDATE_KEY_PATH,
  VERIFY_KEY_PATH,
  WHOAMI_PATH,
} from "../src/lib/contract";
import type { AnalyticsEngine } from "./analytics/engine";
import { HOURLY_ANALYTICS_QUOTA, getVerificationsHandler } from "./routes/analytics/get-verifications";
import type { ApiEnv, AppEnv } from "./http/api-env";
import type { AuthDependencies } from "./auth/root-key";
import { corsMiddleware } from "./http/cors";
import { errorEnvelopeJson, errorResponse, FailedWith, JSON_HEADERS } from "./http/errors";
import { newId } from "./db/ids";
import { proxyHandler } from "./http/proxy";
import type { RateLimit } from "./auth/rate-limit";
import type { RequestLog } from "./http/request-log";
import { docsRoutes } from "./routes/docs";
import { createApiHandler, deleteApiHandler, getApiHandler } from "./routes/apis/get-api";
import { createKeyHandler } from "./routes/keys/create-key";
import { deleteKeyHandler, rerollKeyHandler, updateCreditsHandler } from "./routes/keys/update-credits";
import { getKeyHandler, whoamiHandler } from "./routes/keys/get-key";
import { listKeysHandler } from "./routes/keys/list-keys";
import { keyPermissionsHandler, keyRolesHandler } from "./routes/keys/key-permissions";
import { livenessHandler } from "./routes/liveness";
import { updateKeyHandler } from "./routes/keys/update-key";
import { verifyKeyHandler } from "./routes/keys/verify-key";
import {
  getIdentityHandler,
  listIdentitiesHandler,
  listPermissionsHandler,
  listRolesHandler,
} from "./routes/permissions/list-permissions";
import { dashboardHandler } from "./dashboard/static-dashboard";

export type AppMode =
  | ({ kind: "direct" } & AuthDependencies)
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
  /** The analytics engine (direct mode): `analytics.getVerifications` is served when given. */
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

function methodNotAllowed(allow: string) {
  return (c: Context<ApiEnv>) => errorResponse(c, "err:keyscope:routing:method_not_allowed", { headers: { allow } });
}

function directApi(
  deps: AuthDependencies,
  docsUrlFor: DocsUrlResolver,
  corsOrigins: readonly string[],
  analytics: AppOptions["analytics"],
): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  api.use(async (c, next) => {
    c.set("requestId", newId("req"));
    c.set("docsUrl", docsUrlFor(c.req.url));
    await next();
  });
  if (corsOrigins.length > 0) api.use(corsMiddleware(corsOrigins));
  const listKeysPath = LIST_KEYS_PATH.slice(API_PREFIX.length);
  const livenessPath = LIVENESS_PATH.slice(API_PREFIX.length);
  const apisListKeysPath = REAL_SERVICE_LIST_KEYS_PATH.slice(API_PREFIX.length);
  api.post(listKeysPath, listKeysHandler(deps, "keys.listKeys"));
  api.all(listKeysPath, methodNotAllowed("POST"));
  api.post(apisListKeysPath, listKeysHandler(deps, "apis.listKeys"));
  api.all(apisListKeysPath, methodNotAllowed("POST"));
  // The real service's key operations (docs/api.md#operations).
  const keyOperations = {
    [GET_KEY_PATH]: getKeyHandler(deps),
    [WHOAMI_PATH]: whoamiHandler(deps),
    [VERIFY_KEY_PATH]: verifyKeyHandler(deps),
    [CREATE_KEY_PATH]: createKeyHandler(deps),
    [UPDATE_KEY_PATH]: updateKeyHandler(deps),
    [UPDATE_CREDITS_PATH]: updateCreditsHandler(deps),
    [REROLL_KEY_PATH]: rerollKeyHandler(deps),
    [DELETE_KEY_PATH]: deleteKeyHandler(deps),
    [ADD_PERMISSIONS_PATH]: keyPermissionsHandler(deps, "add"),
    [REMOVE_PERMISSIONS_PATH]: keyPermissionsHandler(deps, "remove"),
    [SET_PERMISSIONS_PATH]: keyPermissionsHandler(deps, "set"),
    [ADD_ROLES_PATH]: keyRolesHandler(deps, "add"),
    [REMOVE_ROLES_PATH]: keyRolesHandler(deps, "remove"),
    [SET_ROLES_PATH]: keyRolesHandler(deps, "set"),
    [CREATE_API_PATH]: createApiHandler(deps),
    [GET_API_PATH]: getApiHandler(deps),
    [DELETE_API_PATH]: deleteApiHandler(deps),
    [LIST_PERMISSIONS_PATH]: listPermissionsHandler(deps),
    [LIST_ROLES_PATH]: listRolesHandler(deps),
    [LIST_IDENTITIES_PATH]: listIdentitiesHandler(deps),
    [GET_IDENTITY_PATH]: getIdentityHandler(deps),
  };
  for (const [fullPath, handler] of Object.entries(keyOperations)) {
    const path = fullPath.slice(API_PREFIX.length);
    api.post(path, handler);
    api.all(path, methodNotAllowed("POST"));
  }
  api.get(livenessPath, livenessHandler);
  api.all(livenessPath, methodNotAllowed("GET"));
  if (analytics !== undefined) {
    const analyticsPath = GET_VERIFICATIONS_PATH.slice(API_PREFIX.length);
    const quota = analytics.quota ?? HOURLY_ANALYTICS_QUOTA;
    // The quota is counted like a root key's rate limit, per workspace, by the same (persistent) limiter.
    api.post(analyticsPath, getVerificationsHandler({ ...deps, engine: analytics.engine, quota }));
    api.all(analyticsPath, methodNotAllowed("POST"));
  }
  api.all("*", (c) => errorResponse(c, "err:keyscope:routing:not_found"));
  return api;
}

/** The whole server as a Hono app: the API (direct or proxied), the error docs, and the dashboard. */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  const docsUrlFor = docsUrlResolver(options.docsUrl);

  if (options.requestLog !== undefined) app.use(options.requestLog.middleware);

  if (options.mode.kind === "direct") {
    app.route(API_PREFIX, directApi(options.mode, docsUrlFor, options.corsOrigins ?? [], options.analytics));
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

  app.onError((error, c) => {
    const requestId = c.get("requestId") ?? newId("req");
    options.reportError?.(error instanceof FailedWith ? (error.cause ?? error) : error, requestId);
    if (!c.req.path.startsWith(`${API_PREFIX}/`)) return c.text("Internal Server Error", 500);
    const json = errorEnvelopeJson(
      requestId,
      c.get("docsUrl") ?? docsUrlFor(c.req.url),
      "err:svc:application:unexpected_error",
      error instanceof FailedWith ? { detail: error.detail } : {},
    );
    c.set("requestId", requestId);
    return c.body(json, 500, JSON_HEADERS);
  });
  return app;
}
