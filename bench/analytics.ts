import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { parsePage, postListKeys } from "./lib/keyscope-api";
import { startServer, type StartedServer } from "../test/support/server-process";
import { APP_DIST } from "./lib/paths";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";
import { base58 } from "./lib/base58";
import { GET_VERIFICATIONS_PATH } from "../src/lib/contract";
import { usageSql } from "../src/features/keys/utils/usage";
import { benchAnalyticsCost } from "./analytics-cost";

export interface AnalyticsBenchOptions {
  /** Verifications written to SQLite before the server starts. */
  verifications: number;
  keys: number;
  /** Timed pairs (a listKeys page, then the analytics query of its keys). */
  requests: number;
  /** Rounds of verifyKey load alone and with a dashboard's queries (analytics-cost.ts). */
  costRounds: number;
  log: (line: string) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const OUTCOMES = [
  "VALID",
  "VALID",
  "VALID",
  "VALID",
  "VALID",
  "VALID",
  "RATE_LIMITED",
  "USAGE_EXCEEDED",
  "INSUFFICIENT_PERMISSIONS",
  "EXPIRED",
];
/** The shared test server (its own node process: its pid is the one whose memory counts), timed from spawn. */
export async function startServerProcess(dataDir: string): Promise<StartedServer & { startMs: number }> {
  const startedAt = performance.now();
  const server = await startServer({ dataDir, args: ["--dist-dir", APP_DIST, "--analytics-quota", "1000000"] });
  return { ...server, startMs: performance.now() - startedAt };
}

/** Resident memory of a process in MiB (Linux /proc through ps, which also works on macOS). */
function residentMiB(pid: number): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile("ps", ["-o", "rss=", "-p", String(pid)], (error, stdout) => {
      if (error) reject(new Error(`ps failed: ${error.message}`));
      else resolve(Number(stdout.trim()) / 1024);
    });
  });
}

/** Verifications straight into SQLite, spread over 30 days and over every key, with the usual mix of outcomes. */
export function seedVerifications(dataDir: string, count: number): void {
  const db = new Database(join(dataDir, "keyscope.sqlite"));
  try {
    const keys = db
      .prepare<[], { id: string; api_id: string; workspace_id: string }>("SELECT id, api_id, workspace_id FROM keys")
      .all();
    const insert = db.prepare(
      `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
       VALUES (?, ?, ?, ?, ?, '', ?, 'local', ?, ?)`,
    );
    const now = Date.now();
    const tags = [JSON.stringify(["path=/api/users"]), JSON.stringify(["path=/api/orders", "plan=pro"]), "[]"];
    db.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        const key = keys[(index * 7919) % keys.length];
        if (key === undefined) throw new Error("no keys to verify");
        const outcome = OUTCOMES[index % OUTCOMES.length] ?? "VALID";
        insert.run(
          `req_bench${base58(index)}`,
          now - ((index * 2_654_435_761) % (30 * DAY_MS)),
          key.workspace_id,
          key.api_id,
          key.id,
          outcome,
          tags[index % 3],
          outcome === "VALID" ? 1 : 0,
        );
      }
    })();
  } finally {
    db.close();
  }
}

/** Resolves once the server has folded every verification into its per-hour sums by key (it does so from its start). */
export async function sumsFolded(dataDir: string): Promise<void> {
  const source = new Database(join(dataDir, "keyscope.sqlite"), { readonly: true });
  try {
    const newest = source.prepare<[], number>("SELECT coalesce(max(seq), 0) FROM key_verifications").pluck().get() ?? 0;
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      // The analytics thread makes the file as it opens its store, before the server listens.
      const sums = new Database(join(dataDir, "analytics-sums.sqlite"), { readonly: true });
      const folded = sums.prepare<[], number>("SELECT seq FROM folded").pluck().get() ?? 0;
      sums.close();
      if (folded >= newest) return;
      if (Date.now() > deadline)
        throw new Error("the server did not fold the verifications into its sums in 10 minutes");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    source.close();
  }
}

/** An analytics query (analytics.getVerifications unless another operation's path is given). */
export async function postAnalytics(
  url: string,
  rootKey: string,
  query: string,
  path = GET_VERIFICATIONS_PATH,
): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.text() };
}

/** The query's answer once analytics has caught up (a 503 says it is catching up: asked again a moment later). */
export async function postAnalyticsWhenCaughtUp(
  url: string,
  rootKey: string,
  query: string,
  path = GET_VERIFICATIONS_PATH,
): Promise<{ status: number; body: string }> {
  for (;;) {
    const answer = await postAnalytics(url, rootKey, query, path);
    if (answer.status !== 503) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * With a million verifications: the 36-hour usage of one page of 100 keys (one query over the per-hour table)
 * against the uncached listKeys page of the same keys; and the server's resident memory.
 */
export async function benchAnalytics(options: AnalyticsBenchOptions): Promise<BenchRow[]> {
  const { log } = options;
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-bench-analytics-"));
  try {
    // A first start creates the workspace; keys and root key by the admin CLI; verifications straight into SQLite.
    const first = await startServerProcess(dataDir);
    await first.stop();
    await first.admin(["keys", "seed", "--count", String(options.keys)]);
    const rootKey =
      (
        await first.admin([
          "root-key",
          "create",
          "--name",
          "bench",
          "--permissions",
          "api.*.read_key,api.*.read_analytics,api.*.verify_key",
        ])
      )
        .split(/\s+/)
        .at(-1) ?? "";
    const verifySecrets: string[] = [];
    for (let index = 0; index < 10; index += 1)
      verifySecrets.push(
        (await first.admin(["keys", "create", "--name", `bench verify ${index}`])).split(" ")[1] ?? "",
      );
    const seededAt = performance.now();
    seedVerifications(dataDir, options.verifications);
    log(
      `analytics: ${options.verifications.toLocaleString("en")} verifications seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`,
    );

    const server = await startServerProcess(dataDir);
    try {
      log(`analytics: server ${server.url} running ${(server.startMs / 1000).toFixed(1)} s after spawn`);
      const firstPage = await postListKeys(server.url, rootKey, { limit: 100 });
      if (firstPage.status !== 200)
        throw new Error(`listKeys answered ${firstPage.status}: ${firstPage.body.slice(0, 200)}`);
      const keyIds = parsePage(firstPage.body).data.keys.map((key) => key.keyId);
      const firstId = keyIds[0];
      if (keyIds.length !== 100 || firstId === undefined) throw new Error("the first page does not hold 100 keys");
      // The keys page's own query for a page's usage bars.
      const usageQuery = usageSql(keyIds);

      async function timeList(index: number): Promise<number> {
        const startedAt = performance.now();
        // A cursor the server has never seen that still names the first page: never from the page cache.
        const answer = await postListKeys(server.url, rootKey, { limit: 100, cursor: `key_11111${base58(index)}` });
        const elapsed = performance.now() - startedAt;
        if (answer.status !== 200 || parsePage(answer.body).data.keys[0]?.keyId !== firstId)
          throw new Error("listKeys gave another page");
        return elapsed;
      }
      let usageRows = 0;
      async function timeUsage(): Promise<number> {
        const startedAt = performance.now();
        const answer = await postAnalytics(server.url, rootKey, usageQuery);
        const elapsed = performance.now() - startedAt;
        if (answer.status !== 200) throw new Error(`analytics answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        usageRows = (JSON.parse(answer.body) as { data: unknown[] }).data.length;
        return elapsed;
      }

      // Written straight into SQLite, the verifications are copied into the analytics store and folded into its sums by
      // key from the server's start, in the background (a query is told 503 until then). Both before any timing.
      const copyStartedAt = performance.now();
      const copied = await postAnalyticsWhenCaughtUp(
        server.url,
        rootKey,
        "SELECT count(*) AS n FROM key_verifications_v1",
      );
      const firstQueryMs = performance.now() - copyStartedAt;
      // The workspace's own demo verifications from the first start come on top of the seeded ones.
      const copiedRows =
        copied.status === 200 ? (JSON.parse(copied.body) as { data: { n: number }[] }).data[0]?.n : undefined;
      if (copiedRows === undefined || copiedRows < options.verifications)
        throw new Error(`the engine's copy: ${copied.body.slice(0, 300)}`);
      await sumsFolded(dataDir);
      const foldMs = performance.now() - copyStartedAt;
      await timeUsage();
      const rssAfterLoad = await residentMiB(server.pid);
      log(
        `analytics: DuckDB's copy answered ${(firstQueryMs / 1000).toFixed(1)} s and the sums by key were folded ${(foldMs / 1000).toFixed(1)} s after the server listened`,
      );
      for (let index = 0; index < 20; index += 1) {
        await timeList(1_000_000 + index);
        await timeUsage();
      }
      const list: number[] = [];
      const usage: number[] = [];
      for (let index = 0; index < options.requests; index += 1) {
        list.push(await timeList(index));
        usage.push(await timeUsage());
      }
      const rssAfterQueries = await residentMiB(server.pid);
      log(
        `analytics: usage ${round(median(usage), 2)} ms (${usageRows} rows) vs listKeys ${round(median(list), 2)} ms; RSS ${Math.round(rssAfterQueries)} MiB`,
      );
      const costRows = await benchAnalyticsCost({
        url: server.url,
        rootKey,
        verifySecrets,
        queries: [usageQuery, "SELECT outcome, count(*) AS n FROM key_verifications_v1 GROUP BY outcome"],
        queriesPerSecond: 5,
        rounds: options.costRounds,
        durationSeconds: 5,
        connections: 20,
        log,
      });
      const verifications = options.verifications.toLocaleString("en");
      return [
        makeRow({
          id: "analytics-usage",
          label: `36-hour usage of a page of 100 keys (${verifications} verifications) vs its uncached listKeys page`,
          unit: "ms",
          ours: usage,
          floor: list,
          goal: { kind: "ratio-at-most", target: 2 },
          paired: true,
          method: `${options.requests} pairs, alternating, keep-alive client: the keys page's analytics.getVerifications query for the page's usage bars (usageSql: key_verifications_per_hour_v1 for the page's key ids over 36 hours, grouped by key, hour, outcome; answered from the per-hour sums by key, see server/analytics/key-rollup.ts) against keys.listKeys of the same page with a never-seen cursor; ratio: median of each pair's usage/list`,
          details: {
            usageP90Ms: round(quantile(usage, 0.9), 3),
            listP90Ms: round(quantile(list, 0.9), 3),
            usageRows,
            keys: options.keys,
          },
        }),
        makeRow({
          id: "analytics-memory",
          label: `Server resident memory with ${verifications} verifications`,
          unit: "MiB",
          ours: [rssAfterQueries],
          goal: { kind: "none" },
          method:
            "ps RSS of the server process after the analytics store has copied the verifications and the sums by key are folded, and after the usage queries",
          details: {
            afterLoadMiB: round(rssAfterLoad, 1),
            listenSeconds: round(server.startMs / 1000, 2),
            firstCopySeconds: round(firstQueryMs / 1000, 2),
            firstFoldSeconds: round(foldMs / 1000, 2),
          },
        }),
        ...costRows,
      ];
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
