import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Database } from "better-sqlite3";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../analytics/engine";
import { createApp, type AppMode } from "../app";
import type { ApiDependencies } from "../http/api-env";
import type { ServerConfig } from "./config";
import { createKeyStore } from "../db/key-store";
import { openDatabase } from "../db/open";
import { DEMO_NAMESPACE, ensureDemoData } from "../db/demo-data";
import { createRateLimiter } from "../auth/rate-limit";
import { createRequestLog } from "../http/request-log";

export interface RunningServer {
  /** `http://<host>:<port>` with the port actually bound. */
  url: string;
  /** The demo root key's secret when this start created the demo data. */
  demoRootKey?: string;
  /** The demo API's id, on the start that created the demo data (Create key asks for an API; no v2 operation lists them). */
  demoApiId?: string;
  /** Stops accepting, lets in-flight requests finish, closes the database. */
  close(): Promise<void>;
}

/**
 * A slow client may not hold a connection: headers within `clientTimeoutMs` (10 s by default), the whole request
 * within 1.5 times that; checked every second at most (Node's default, 30 s, would let a dribbling client hold on
 * for up to 40 s); an idle kept-alive connection is closed after 5 s, or half the client timeout when shorter.
 */
function httpTimeouts(clientTimeoutMs: number) {
  return {
    headersTimeout: clientTimeoutMs,
    requestTimeout: Math.round(clientTimeoutMs * 1.5),
    connectionsCheckingInterval: Math.min(1_000, Math.round(clientTimeoutMs / 4)),
    keepAliveTimeout: Math.min(5_000, Math.round(clientTimeoutMs / 2)),
  };
}
const SHUTDOWN_GRACE_MS = 5_000;

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      if (address === null || typeof address === "string") reject(new Error("the server has no TCP address"));
      else resolve(address);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
    // Connections still busy after the grace period are cut.
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  });
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** What direct mode reads through the server's connection to `<dataDir>/keyscope.sqlite`. */
export function directMode(
  db: Database,
  dataDir: string,
  extras: Pick<ApiDependencies, "region" | "clock"> = {},
): AppMode {
  // Attached before the store prepares its statements.
  const rateLimiter = createRateLimiter(db, dataDir);
  return { kind: "direct", store: createKeyStore(db), rateLimiter, ...extras };
}

/** Opens the database (direct mode), creates the demo data on a first start, and listens. */
export async function startKeyscope(config: ServerConfig): Promise<RunningServer> {
  let db: Database | undefined;
  let mode: AppMode;
  let demo: { rootKeySecret: string; apiId: string } | undefined;
  let analytics: AnalyticsEngine | undefined;
  if (config.upstream === undefined) {
    db = openDatabase(config.dataDir);
    demo = ensureDemoData(db);
    mode = directMode(db, config.dataDir, config.region === undefined ? {} : { region: config.region });
    try {
      analytics = await createAnalyticsEngine(
        db,
        { ...DEFAULT_ANALYTICS_LIMITS, timeoutMs: config.analyticsTimeoutMs },
        { rollup: true, retentionEveryMs: 60 * 60 * 1000 },
      );
    } catch (error) {
      db.close();
      throw error;
    }
  } else {
    mode = { kind: "proxy", upstream: config.upstream };
  }

  const requestLog = createRequestLog((chunk) => process.stdout.write(chunk));
  const app = createApp({
    mode,
    docsUrl: config.docsUrl,
    corsOrigins: config.corsOrigins,
    distDir: config.distDir,
    ...(analytics !== undefined && {
      analytics: { engine: analytics, quota: { limit: config.analyticsQuota, windowMs: 60 * 60 * 1000 } },
    }),
    requestLog,
    reportError: (error, requestId) => {
      const description = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`Unexpected error in ${requestId ?? "a request"}: ${description}\n`);
    },
  });

  const listener = getRequestListener(app.fetch);
  const server = createServer(
    httpTimeouts(config.clientTimeoutMs),
    // The listener answers every error itself (app.onError), so its promise never rejects.
    (incoming, outgoing) => void listener(incoming, outgoing),
  );

  let address: AddressInfo;
  try {
    address = await listen(server, config.port, config.host);
  } catch (error) {
    await analytics?.close();
    db?.close();
    throw error;
  }

  return {
    url: `http://${urlHost(config.host)}:${address.port}`,
    ...(demo !== undefined && { demoRootKey: demo.rootKeySecret, demoApiId: demo.apiId }),
    async close() {
      await closeServer(server);
      requestLog.flush();
      await analytics?.close();
      // Every answered verification is already committed; this only ends an open group before closing.
      if (mode.kind === "direct") mode.store.flush();
      db?.close();
    },
  };
}

/**
 * What a start that created the demo data says about it: the root key (shown once), the API to create keys in, and
 * the rate-limit namespace (no operation lists namespaces: the Rate limits page opens one by its name).
 */
export function demoNotice(running: Pick<RunningServer, "demoRootKey" | "demoApiId">): string[] {
  if (running.demoRootKey === undefined) return [];
  return [
    `Demo root key (shown once, store it now): ${running.demoRootKey}`,
    ...(running.demoApiId === undefined ? [] : [`Demo API id (Create key asks for it): ${running.demoApiId}`]),
    `Demo rate-limit namespace (Rate limits opens it by name): ${DEMO_NAMESPACE}`,
  ];
}
