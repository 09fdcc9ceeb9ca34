import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { GET_RATELIMITS_PATH, GET_VERIFICATIONS_PATH } from "../src/lib/contract";
import { postAnalytics, postAnalyticsWhenCaughtUp, seedVerifications, startServerProcess } from "./analytics";
import { base58 } from "./lib/base58";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";

export interface RatelimitAnalyticsBenchOptions {
  /** Rows of each: verifications and rate-limit decisions, written to SQLite before the server starts. */
  rows: number;
  /** Keys verified, and identifiers limited: the same number, so that both families group alike. */
  subjects: number;
  /** Timed pairs per query shape. */
  pairs: number;
  log: (line: string) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Rate-limit decisions straight into SQLite, as ratelimit.limit records them: spread over 30 days and over
 * `identifiers` identifiers of one namespace, one in ten blocked.
 */
function seedDecisions(dataDir: string, count: number, namespaceId: string, identifiers: number): void {
  const db = new Database(join(dataDir, "keyscope.sqlite"));
  try {
    const workspaceId = db
      .prepare<[string], string>("SELECT workspace_id FROM ratelimit_namespaces WHERE id = ?")
      .pluck()
      .get(namespaceId);
    if (workspaceId === undefined) throw new Error(`no namespace ${namespaceId}`);
    const insert = db.prepare(
      `INSERT INTO ratelimit_decisions (request_id, time, workspace_id, namespace_id, identifier, passed, latency,
         override_id, "limit", remaining, reset_at, tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, '', 100, ?, ?, 1)`,
    );
    const now = Date.now();
    db.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        const time = now - ((index * 2_654_435_761) % (30 * DAY_MS));
        const passed = index % 10 !== 0;
        insert.run(
          `req_benchrl${base58(index)}`,
          time,
          workspaceId,
          namespaceId,
          `user_${(index * 7919) % identifiers}`,
          passed ? 1 : 0,
          0.05 + (index % 7) / 100,
          passed ? 99 - (index % 100) : 0,
          time + 60_000,
        );
      }
    })();
  } finally {
    db.close();
  }
}

/** One question a dashboard asks of both families, in each one's tables. */
interface Shape {
  id: string;
  label: string;
  verifications: string;
  ratelimits: string;
}

const SIX_HOURS = "toStartOfMinute(now() - INTERVAL 6 HOUR)";
const SHAPES: readonly Shape[] = [
  {
    id: "by-day",
    label: "passed and total by day over 30 days (the per-day table)",
    verifications:
      "SELECT time, sumIf(count, outcome = 'VALID') AS passed, sum(count) AS total FROM key_verifications_per_day_v1 WHERE time >= now() - INTERVAL 30 DAY GROUP BY time ORDER BY time",
    ratelimits:
      "SELECT time, sum(passed) AS passed, sum(total) AS total FROM ratelimits_per_day_v1 WHERE time >= now() - INTERVAL 30 DAY GROUP BY time ORDER BY time",
  },
  {
    id: "by-minute",
    label: "totals by minute over 6 hours, zero-filled (the per-minute table, WITH FILL)",
    verifications: `SELECT time, sum(count) AS total FROM key_verifications_per_minute_v1 WHERE time >= ${SIX_HOURS} GROUP BY time ORDER BY time WITH FILL FROM ${SIX_HOURS} TO toStartOfMinute(now()) STEP INTERVAL 1 MINUTE`,
    ratelimits: `SELECT time, sum(total) AS total FROM ratelimits_per_minute_v1 WHERE time >= ${SIX_HOURS} GROUP BY time ORDER BY time WITH FILL FROM ${SIX_HOURS} TO toStartOfMinute(now()) STEP INTERVAL 1 MINUTE`,
  },
  {
    id: "top-subjects",
    label: "the 50 busiest keys or identifiers over 7 days (the raw table)",
    verifications:
      "SELECT key_id AS id, countIf(outcome = 'VALID') AS passed, count() AS total FROM key_verifications_v1 WHERE time >= toUnixTimestamp64Milli(now64(3) - INTERVAL 7 DAY) GROUP BY id ORDER BY total DESC, id LIMIT 50",
    ratelimits:
      "SELECT identifier AS id, countIf(passed) AS passed, count() AS total FROM ratelimits_v1 WHERE time >= toUnixTimestamp64Milli(now64(3) - INTERVAL 7 DAY) GROUP BY id ORDER BY total DESC, id LIMIT 50",
  },
];

/**
 * analytics.getRatelimits over a million rate-limit decisions against analytics.getVerifications over a million
 * verifications, on one server holding both (each written straight into SQLite over 30 days, as many identifiers as
 * keys): the same questions asked of each family's tables, in alternating pairs once both are copied.
 */
export async function benchRatelimitAnalytics(options: RatelimitAnalyticsBenchOptions): Promise<BenchRow[]> {
  const { log } = options;
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-bench-ratelimit-analytics-"));
  try {
    const first = await startServerProcess(dataDir);
    await first.stop();
    await first.admin(["keys", "seed", "--count", String(options.subjects)]);
    const namespaceId = (await first.admin(["namespaces", "create", "--name", "bench"])).trim();
    const rootKey =
      (
        await first.admin([
          "root-key",
          "create",
          "--name",
          "bench",
          "--permissions",
          "api.*.read_analytics,ratelimit.*.read_analytics",
        ])
      )
        .split(/\s+/)
        .at(-1) ?? "";
    const seededAt = performance.now();
    seedVerifications(dataDir, options.rows);
    seedDecisions(dataDir, options.rows, namespaceId, options.subjects);
    const rows = options.rows.toLocaleString("en");
    log(
      `ratelimit analytics: ${rows} verifications and ${rows} decisions seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`,
    );

    const server = await startServerProcess(dataDir);
    try {
      // Both copied into the store (a query is told 503 until then), before any timing.
      const copyStartedAt = performance.now();
      const counted = await Promise.all([
        postAnalyticsWhenCaughtUp(server.url, rootKey, "SELECT count(*) AS n FROM key_verifications_v1"),
        postAnalyticsWhenCaughtUp(server.url, rootKey, "SELECT count(*) AS n FROM ratelimits_v1", GET_RATELIMITS_PATH),
      ]);
      const copiedMs = performance.now() - copyStartedAt;
      for (const answer of counted) {
        const n = answer.status === 200 ? (JSON.parse(answer.body) as { data: { n: number }[] }).data[0]?.n : undefined;
        if (n === undefined || n < options.rows) throw new Error(`the engine's copy: ${answer.body.slice(0, 300)}`);
      }
      log(`ratelimit analytics: both copied ${(copiedMs / 1000).toFixed(1)} s after the server listened`);

      const time = async (query: string, path: string): Promise<{ ms: number; rows: number }> => {
        const startedAt = performance.now();
        const answer = await postAnalytics(server.url, rootKey, query, path);
        const ms = performance.now() - startedAt;
        if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        return { ms, rows: (JSON.parse(answer.body) as { data: unknown[] }).data.length };
      };
      const results: BenchRow[] = [];
      for (const shape of SHAPES) {
        // Warm both (the checked query remembered, the store's pages read) before anything counts.
        for (let index = 0; index < 5; index += 1) {
          await time(shape.verifications, GET_VERIFICATIONS_PATH);
          await time(shape.ratelimits, GET_RATELIMITS_PATH);
        }
        const ours: number[] = [];
        const floor: number[] = [];
        let resultRows = { ours: 0, floor: 0 };
        for (let pair = 0; pair < options.pairs; pair += 1) {
          // Each first in every other pair.
          const ratelimitsFirst = pair % 2 === 0;
          const before = ratelimitsFirst ? await time(shape.ratelimits, GET_RATELIMITS_PATH) : undefined;
          const verifications = await time(shape.verifications, GET_VERIFICATIONS_PATH);
          const ratelimits = before ?? (await time(shape.ratelimits, GET_RATELIMITS_PATH));
          ours.push(ratelimits.ms);
          floor.push(verifications.ms);
          resultRows = { ours: ratelimits.rows, floor: verifications.rows };
        }
        log(
          `ratelimit analytics: ${shape.id}: getRatelimits ${round(median(ours), 2)} ms (${resultRows.ours} rows) vs getVerifications ${round(median(floor), 2)} ms (${resultRows.floor} rows)`,
        );
        results.push(
          makeRow({
            id: `analytics-ratelimits-${shape.id}`,
            label: `analytics.getRatelimits vs getVerifications (${rows} rows each): ${shape.label}`,
            unit: "ms",
            ours,
            floor,
            goal: { kind: "ratio-at-most", target: 1.2 },
            paired: true,
            method: `${options.pairs} pairs, alternating (each first in every other pair), keep-alive client, one server holding ${rows} verifications of ${options.subjects.toLocaleString("en")} keys and ${rows} rate-limit decisions of as many identifiers, each over 30 days; ours: ${shape.ratelimits}; floor: ${shape.verifications}; ratio: median of each pair's ours/floor`,
            details: {
              oursP90Ms: round(quantile(ours, 0.9), 3),
              floorP90Ms: round(quantile(floor, 0.9), 3),
              oursRows: resultRows.ours,
              floorRows: resultRows.floor,
              copiedSeconds: round(copiedMs / 1000, 2),
            },
          }),
        );
      }
      return results;
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
