/**
 * A mixed-load soak of the reference API: N keep-alive connections for T seconds of valid, invalid and
 * unauthenticated listKeys requests. It counts socket errors and 5xx answers, checks every answer's status and,
 * for a sample, its whole body. Loopback targets only, at most 200 connections for at most 120 s: it stops
 * by itself.
 *
 *   npx tsx bench/load.ts                       # 50 connections for 30 s against a fresh server of its own
 *   KEYSCOPE_ROOT_KEY=ks_… npx tsx bench/load.ts --url http://127.0.0.1:8787 [--connections 50] [--seconds 30]
 *
 * The key must have no rate limit (the admin CLI's `root-key create` makes one without). Exit code 1 when any
 * request failed, got a 5xx or a wrong answer.
 */
import { Agent, request } from "node:http";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { startServer } from "../test/support/server-process";

export interface LoadOptions {
  /** `http://127.0.0.1:PORT` (loopback only). */
  url: string;
  /** A root key without a rate limit that may list the workspace's keys. */
  rootKey: string;
  connections?: number;
  durationMs?: number;
  /** Keep going past the duration until this many requests were sent, so a slow machine still sends a whole mix. */
  minRequests?: number;
  /** Check the whole body of one answer in this many (status and content type are always checked). */
  sampleEvery?: number;
}

export interface LoadReport {
  connections: number;
  durationMs: number;
  requests: number;
  requestsPerSecond: number;
  /** Requests by kind of request sent. */
  byKind: Record<string, number>;
  /** Answers by HTTP status. */
  byStatus: Record<string, number>;
  socketErrors: number;
  serverErrors: number;
  /** Answers checked in full. */
  sampled: number;
  /** What was wrong with answers that were not what the request should get (at most 20 listed). */
  wrong: string[];
  wrongCount: number;
  latencyMs: { p50: number; p99: number; max: number };
}

const MAX_CONNECTIONS = 200;
const MAX_DURATION_MS = 120_000;
const REQUEST_TIMEOUT_MS = 10_000;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

const KEY_ID = /^key_[1-9A-HJ-NP-Za-km-z]+$/;
const REQUEST_ID = /^req_[1-9A-HJ-NP-Za-km-z]+$/;

interface Kind {
  name: string;
  status: number;
  /** Sets the request's headers and body; `cursor` is the last cursor a valid answer handed out. */
  build(rootKey: string, cursor: string | undefined): { headers: Record<string, string>; body: string; limit?: number };
  /** The code an error answer must name, as `<category>/<kind>` at the end of error.type. */
  errorType?: string;
}

const KINDS: readonly Kind[] = [
  {
    name: "valid first page",
    status: 200,
    build: (rootKey) => ({ headers: { authorization: `Bearer ${rootKey}` }, body: '{"limit":25}', limit: 25 }),
  },
  {
    name: "valid next page",
    status: 200,
    build: (rootKey, cursor) => ({
      headers: { authorization: `Bearer ${rootKey}` },
      body: JSON.stringify(cursor === undefined ? { limit: 10 } : { limit: 10, cursor }),
      limit: 10,
    }),
  },
  {
    name: "valid, empty body",
    status: 200,
    build: (rootKey) => ({ headers: { authorization: `Bearer ${rootKey}` }, body: "", limit: 100 }),
  },
  {
    name: "no key",
    status: 401,
    errorType: "authentication/missing",
    build: () => ({ headers: {}, body: "{}" }),
  },
  {
    name: "malformed header",
    status: 400,
    errorType: "authentication/malformed",
    build: (rootKey) => ({ headers: { authorization: `bearer ${rootKey}` }, body: "{}" }),
  },
  {
    name: "unknown key",
    status: 401,
    errorType: "authentication/key_not_found",
    build: () => ({ headers: { authorization: "Bearer ks_root_NoSuchKeyForTheLoadTest123" }, body: "{}" }),
  },
  {
    name: "invalid limit",
    status: 400,
    errorType: "application/invalid_input",
    build: (rootKey) => ({ headers: { authorization: `Bearer ${rootKey}` }, body: '{"limit":0}' }),
  },
  {
    name: "invalid JSON",
    status: 400,
    errorType: "application/invalid_input",
    build: (rootKey) => ({ headers: { authorization: `Bearer ${rootKey}` }, body: "{limit" }),
  },
  {
    name: "garbage cursor",
    status: 400,
    errorType: "application/invalid_input",
    build: (rootKey) => ({ headers: { authorization: `Bearer ${rootKey}` }, body: '{"cursor":"../../etc/passwd"}' }),
  },
];

function assertLoopback(url: URL): void {
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname)) {
    throw new Error(
      `the load test only targets this computer (http://127.0.0.1, localhost or [::1]), not ${url.origin}`,
    );
  }
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** What is wrong with an answer to a request of `kind`, or undefined when it is right. */
function checkBody(kind: Kind, text: string, limit: number | undefined): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "the body is not JSON";
  }
  if (typeof json !== "object" || json === null) return "the body is not an object";
  const { meta, data, pagination, error } = json as {
    meta?: { requestId?: unknown };
    data?: { keys?: unknown };
    pagination?: { hasMore?: unknown; cursor?: unknown };
    error?: { type?: unknown; status?: unknown };
  };
  if (typeof meta?.requestId !== "string" || !REQUEST_ID.test(meta.requestId))
    return "meta.requestId is missing or malformed";
  if (kind.errorType !== undefined) {
    if (typeof error?.type !== "string" || !error.type.endsWith(`/errors/svc/${kind.errorType}`))
      return `error.type is ${String(error?.type)}`;
    if (error.status !== kind.status) return `error.status is ${String(error.status)}`;
    return undefined;
  }
  if (!Array.isArray(data?.keys)) return "data.keys is not a list";
  const keys = data.keys as { keyId?: unknown; name?: unknown }[];
  if (limit !== undefined && keys.length > limit) return `${keys.length} keys for a limit of ${limit}`;
  if (!keys.every((key) => typeof key.keyId === "string" && KEY_ID.test(key.keyId) && typeof key.name === "string"))
    return "a key without a valid keyId or name";
  const ids = keys.map((key) => String(key.keyId));
  if (ids.some((id, index) => index > 0 && (ids[index - 1] ?? "") >= id)) return "keys are not in keyId order";
  if (typeof pagination?.hasMore !== "boolean") return "pagination.hasMore is missing";
  if (pagination.hasMore && typeof pagination.cursor !== "string") return "hasMore without a cursor";
  return undefined;
}

/** Runs the load and reports; never throws for what the server does, only for bad options. */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const url = new URL(options.url);
  assertLoopback(url);
  const connections = Math.min(MAX_CONNECTIONS, Math.max(1, Math.floor(options.connections ?? 50)));
  const durationMs = Math.min(MAX_DURATION_MS, Math.max(100, options.durationMs ?? 30_000));
  const sampleEvery = Math.max(1, Math.floor(options.sampleEvery ?? 10));
  const minRequests = Math.max(0, Math.floor(options.minRequests ?? 0));
  const agent = new Agent({ keepAlive: true, maxSockets: connections });

  const byKind: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  const latencies: number[] = [];
  const wrong: string[] = [];
  let wrongCount = 0;
  let socketErrors = 0;
  let sampled = 0;
  let requests = 0;
  let cursor: string | undefined;
  const startedAt = performance.now();
  const deadline = startedAt + durationMs;

  const noteWrong = (message: string) => {
    wrongCount += 1;
    if (wrong.length < 20) wrong.push(message);
  };

  function send(kind: Kind, sample: boolean): Promise<void> {
    const { headers, body, limit } = kind.build(options.rootKey, cursor);
    const at = performance.now();
    return new Promise((resolve) => {
      const outgoing = request(
        {
          agent,
          hostname: url.hostname.replace(/^\[|\]$/g, ""),
          port: url.port,
          method: "POST",
          path: "/v2/keys.listKeys",
          headers: {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            ...headers,
          },
          timeout: REQUEST_TIMEOUT_MS,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", () => {
            socketErrors += 1;
            resolve();
          });
          incoming.on("end", () => {
            latencies.push(performance.now() - at);
            const status = incoming.statusCode ?? 0;
            byStatus[status] = (byStatus[status] ?? 0) + 1;
            const text = Buffer.concat(chunks).toString("utf8");
            if (status !== kind.status)
              noteWrong(`${kind.name}: HTTP ${status} instead of ${kind.status}: ${text.slice(0, 200)}`);
            else if (incoming.headers["content-type"] !== "application/json")
              noteWrong(`${kind.name}: content-type ${String(incoming.headers["content-type"])}`);
            else if (sample) {
              sampled += 1;
              const problem = checkBody(kind, text, limit);
              if (problem !== undefined) noteWrong(`${kind.name}: ${problem}`);
            }
            if (status === 200 && kind.name === "valid first page") {
              const next = /"cursor":"(key_[1-9A-HJ-NP-Za-km-z]+)"/.exec(text)?.[1];
              if (next !== undefined) cursor = next;
            }
            resolve();
          });
        },
      );
      outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      outgoing.on("error", () => {
        socketErrors += 1;
        resolve();
      });
      outgoing.end(body);
    });
  }

  async function worker(offset: number): Promise<void> {
    for (let turn = offset; performance.now() < deadline || requests < minRequests; turn += 1) {
      const kind = KINDS[turn % KINDS.length];
      if (kind === undefined) continue;
      requests += 1;
      byKind[kind.name] = (byKind[kind.name] ?? 0) + 1;
      await send(kind, requests % sampleEvery === 0);
    }
  }

  await Promise.all(Array.from({ length: connections }, (_, index) => worker(index)));
  agent.destroy();
  const elapsed = performance.now() - startedAt;
  latencies.sort((a, b) => a - b);
  return {
    connections,
    durationMs: Math.round(elapsed),
    requests,
    requestsPerSecond: Math.round((requests / elapsed) * 1000),
    byKind,
    byStatus,
    socketErrors,
    serverErrors: Object.entries(byStatus).reduce(
      (sum, [status, count]) => sum + (Number(status) >= 500 ? count : 0),
      0,
    ),
    sampled,
    wrong,
    wrongCount,
    latencyMs: {
      p50: Math.round(percentile(latencies, 0.5) * 10) / 10,
      p99: Math.round(percentile(latencies, 0.99) * 10) / 10,
      max: Math.round((latencies.at(-1) ?? 0) * 10) / 10,
    },
  };
}

export function loadFailed(report: LoadReport): boolean {
  return report.socketErrors > 0 || report.serverErrors > 0 || report.wrongCount > 0 || report.requests === 0;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      connections: { type: "string", default: "50" },
      seconds: { type: "string", default: "30" },
    },
  });
  const connections = Number(values.connections);
  const durationMs = Number(values.seconds) * 1000;
  if (values.url !== undefined) {
    // The key comes from the environment, not the arguments, where any user of the machine could read it.
    const rootKey = process.env.KEYSCOPE_ROOT_KEY;
    if (!rootKey) throw new Error("--url needs KEYSCOPE_ROOT_KEY set to a root key without a rate limit");
    const report = await runLoad({ url: values.url, rootKey, connections, durationMs });
    console.log(JSON.stringify(report, null, 2));
    process.exitCode = loadFailed(report) ? 1 : 0;
    return;
  }
  const server = await startServer();
  try {
    await server.admin(["keys", "seed", "--count", "1000"]);
    const rootKey = await server.admin(["root-key", "create", "--name", "load"]);
    const report = await runLoad({ url: server.url, rootKey, connections, durationMs });
    console.log(JSON.stringify(report, null, 2));
    process.exitCode = loadFailed(report) ? 1 : 0;
  } finally {
    await server.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  });
}
