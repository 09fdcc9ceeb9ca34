import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import {
  createAnalyticsEngine,
  DEFAULT_ANALYTICS_LIMITS,
  type AnalyticsEngine,
  type AnalyticsLimits,
} from "../../server/analytics/engine";
import { createApp } from "../../server/app";
import { parseRateLimit } from "../../server/admin/values";
import { seedKeys } from "../../server/admin/seed-keys";
import { changeRootKey, createRootKey, type RootKeyChange } from "../../server/db/root-keys";
import { createApi, findApi } from "../../server/db/apis";
import { keyInserter } from "../../server/db/keys";
import { openDatabase } from "../../server/db/open";
import { DEFAULT_ROOT_KEY_PERMISSIONS, ensureDemoData } from "../../server/db/demo-data";
import { createRequestLog, type RequestLog } from "../../server/http/request-log";
import { newApiKeySecret } from "../../server/keys/secrets";
import { directMode } from "../../server/process/start";
import type { ApiTarget } from "./http";

/**
 * The whole app as `npm start` builds it, answering `app.request()` in this process: no socket, no child
 * process. Its own connection to a temporary database reads, as the server's does; the admin helpers write
 * through a second connection, as the admin CLI does from its process, so the server sees their commits the
 * same way (SQLite's data_version). What needs a real process (sockets, signals, the CLI) stays in the tests
 * that start one (test/support/server-process.ts).
 */

/** Only for addresses: nothing listens there. */
export const IN_PROCESS_URL = "http://keyscope.test";

export interface InProcessOptions {
  docsUrl?: string;
  corsOrigins?: readonly string[];
  /** Where the built dashboard lives; by default an empty directory (no dashboard). */
  distDir?: string;
  /** The time verifications happen at (default the wall clock), for a test that moves it as the real harness's clock. */
  clock?: () => number;
}

export interface InProcessServer extends ApiTarget {
  dataDir: string;
  /** The demo root key's secret (direct mode). */
  rootKey: string;
  /** What the server would have printed: request lines and unexpected errors. */
  output(): string;
  admin: AdminHelpers;
  close(): void;
}

export interface RootKeyOptions {
  name?: string;
  permissions?: readonly string[];
  /** As the CLI takes it: `3/60s`. */
  ratelimit?: string;
}

export interface KeyOptions {
  name: string;
  apiId?: string;
  expires?: string;
  disabled?: boolean;
}

/** What the admin CLI's commands do, through the admin's own connection to the same database. */
export interface AdminHelpers {
  db: Database;
  workspaceId: string;
  createRootKey(options?: RootKeyOptions): { id: string; secret: string };
  changeRootKey(rootKeyId: string, change: RootKeyChange): void;
  createApi(name: string): string;
  createKey(options: KeyOptions): { keyId: string; secret: string };
  seedKeys(count: number, apiId: string): void;
}

function adminHelpers(db: Database, workspaceId: string): AdminHelpers {
  return {
    db,
    workspaceId,
    createRootKey({ name = "Root key (test)", permissions = DEFAULT_ROOT_KEY_PERMISSIONS, ratelimit } = {}) {
      return createRootKey(db, {
        workspaceId,
        name,
        permissions,
        ...(ratelimit !== undefined && { ratelimit: parseRateLimit(ratelimit) }),
      });
    },
    changeRootKey(rootKeyId, change) {
      if (!changeRootKey(db, workspaceId, rootKeyId, change)) throw new Error(`could not ${change} ${rootKeyId}`);
    },
    createApi(name) {
      return createApi(db, workspaceId, name);
    },
    createKey({ name, apiId, expires, disabled }) {
      const api = findApi(db, workspaceId, apiId);
      if (api === undefined) throw new Error(`no API ${apiId ?? "at all"}`);
      const secret = newApiKeySecret("live");
      const keyId = keyInserter(db)({
        workspaceId,
        apiId: api.id,
        name,
        secret,
        enabled: disabled !== true,
        createdAt: Date.now(),
        ...(expires !== undefined && { expires: Date.parse(expires) }),
      });
      return { keyId, secret };
    },
    seedKeys(count, apiId) {
      seedKeys(db, { workspaceId, apiId, count });
    },
  };
}

interface Harness {
  output: () => string;
  requestLog: RequestLog;
  reportError: (error: unknown, requestId: string | undefined) => void;
}

/** Collects what the server would print, as start.ts writes it. */
function harness(): Harness {
  let output = "";
  return {
    output: () => output,
    requestLog: createRequestLog((chunk) => (output += chunk)),
    reportError: (error, requestId) => {
      output += `Unexpected error in ${requestId ?? "a request"}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
    },
  };
}

function appFetch(app: {
  request: (url: string, init?: RequestInit) => Response | Promise<Response>;
}): ApiTarget["fetch"] {
  return async (url, init) => app.request(url, init);
}

interface Databases {
  dataDir: string;
  adminDb: Database;
  serverDb: Database;
  demo: { workspaceId: string; rootKeySecret: string };
}

/** A fresh data directory: the admin's connection makes the database and its demo data first, as a first `npm run admin` would. */
function openDatabases(): Databases {
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-in-process-"));
  const adminDb = openDatabase(dataDir);
  const demo = ensureDemoData(adminDb);
  if (demo === undefined) throw new Error("a fresh database gets the demo data");
  return { dataDir, adminDb, serverDb: openDatabase(dataDir), demo };
}

function assemble(
  { dataDir, adminDb, serverDb, demo }: Databases,
  options: InProcessOptions,
  analytics?: AnalyticsEngine,
): InProcessServer {
  const distDir = options.distDir ?? mkdtempSync(join(tmpdir(), "keyscope-no-dist-"));
  const { output, requestLog, reportError } = harness();
  const app = createApp({
    mode: directMode(serverDb, dataDir, options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.docsUrl !== undefined && { docsUrl: options.docsUrl }),
    ...(options.corsOrigins !== undefined && { corsOrigins: options.corsOrigins }),
    distDir,
    requestLog,
    reportError,
    ...(analytics !== undefined && { analytics: { engine: analytics } }),
  });

  return {
    url: IN_PROCESS_URL,
    fetch: appFetch(app),
    dataDir,
    rootKey: demo.rootKeySecret,
    output,
    admin: adminHelpers(adminDb, demo.workspaceId),
    close() {
      requestLog.flush();
      serverDb.close();
      adminDb.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (options.distDir === undefined) rmSync(distDir, { recursive: true, force: true });
    },
  };
}

/** Direct mode on a fresh database with the demo data. */
export function startInProcess(options: InProcessOptions = {}): InProcessServer {
  return assemble(openDatabases(), options);
}

/** Direct mode with `analytics.getVerifications` served by a real engine over the server's connection, as `npm start` serves it. */
export async function startInProcessWithAnalytics(
  options: InProcessOptions & { analyticsLimits?: Partial<AnalyticsLimits> } = {},
): Promise<InProcessServer & { engine: AnalyticsEngine; closeAll(): Promise<void> }> {
  const databases = openDatabases();
  const engine = await createAnalyticsEngine(databases.serverDb, {
    ...DEFAULT_ANALYTICS_LIMITS,
    threads: 1,
    ...options.analyticsLimits,
  });
  const server = assemble(databases, options, engine);
  return {
    ...server,
    engine,
    async closeAll() {
      await engine.close();
      server.close();
    },
  };
}

export interface InProcessProxy extends ApiTarget {
  output(): string;
}

/** Proxy mode (`--upstream`): no database at all. */
export function startInProcessProxy(upstream: URL, options: { upstreamTimeoutMs?: number } = {}): InProcessProxy {
  const { output, requestLog, reportError } = harness();
  const distDir = mkdtempSync(join(tmpdir(), "keyscope-no-dist-"));
  const app = createApp({ mode: { kind: "proxy", upstream, ...options }, distDir, requestLog, reportError });
  return { url: IN_PROCESS_URL, fetch: appFetch(app), output };
}
