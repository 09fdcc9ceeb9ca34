import { VERIFY_KEY_PATH } from "../src/lib/contract";
import { performance } from "node:perf_hooks";
import { runLoad } from "./lib/processes";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";

/**
 * What analytics costs verification (#28 item 9): keys.verifyKey under load, alone and while a dashboard sends
 * analytics queries, in interleaved rounds on the same server; and how long those queries take while verifications
 * keep coming (each must answer from the rows committed when it arrived, not once the flood ends).
 */

export interface AnalyticsCostOptions {
  url: string;
  /** A root key that may verify keys and read analytics. */
  rootKey: string;
  /** Secrets of plain keys (no credits, no rate limit). */
  verifySecrets: readonly string[];
  /** The dashboard's queries, sent in turn. */
  queries: readonly string[];
  /** Dashboard queries per second, each sent without waiting for the one before. */
  queriesPerSecond: number;
  rounds: number;
  durationSeconds: number;
  connections: number;
  log: (line: string) => void;
}

const VERIFY_KEY = VERIFY_KEY_PATH;
const GET_VERIFICATIONS = "/v2/analytics.getVerifications";

/** Sends `queries` in turn at `perSecond` until `stop` resolves; resolves each one's time, once all have answered. */
async function dashboardQueries(options: AnalyticsCostOptions, stop: Promise<unknown>): Promise<number[]> {
  const times: Promise<number>[] = [];
  let stopped = false;
  void stop.then(() => (stopped = true));
  for (let index = 0; !stopped; index += 1) {
    const query = options.queries[index % options.queries.length] ?? "";
    const startedAt = performance.now();
    times.push(
      fetch(`${options.url}${GET_VERIFICATIONS}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${options.rootKey}` },
        body: JSON.stringify({ query }),
      }).then(async (response) => {
        const body = await response.text();
        if (response.status !== 200) throw new Error(`analytics answered ${response.status}: ${body.slice(0, 300)}`);
        return performance.now() - startedAt;
      }),
    );
    await Promise.race([stop, new Promise((resolve) => setTimeout(resolve, 1000 / options.queriesPerSecond))]);
  }
  return Promise.all(times);
}

export async function benchAnalyticsCost(options: AnalyticsCostOptions): Promise<BenchRow[]> {
  const bodies = options.verifySecrets.map((key) => JSON.stringify({ key, tags: ["path=/api/users"] }));
  const verify = (durationSeconds = options.durationSeconds) =>
    runLoad({
      url: `${options.url}${VERIFY_KEY}`,
      headers: { "content-type": "application/json", authorization: `Bearer ${options.rootKey}` },
      bodies,
      connections: options.connections,
      durationSeconds,
    });
  // Warm-up: JIT, connections, and a first catch-up of what the warm-up verified.
  await verify(1);
  for (const query of options.queries) await dashboardQueries({ ...options, queries: [query] }, Promise.resolve());

  const alone: number[] = [];
  const withQueries: number[] = [];
  const p99Alone: number[] = [];
  const p99WithQueries: number[] = [];
  const queryMs: number[] = [];
  for (let index = 1; index <= options.rounds; index += 1) {
    const bare = await verify();
    const load = verify();
    const loaded = await Promise.all([load, dashboardQueries(options, load)]);
    const [busy, times] = loaded;
    for (const result of [bare, busy]) {
      if (result.errors + result.timeouts + result.non2xx > 0)
        throw new Error(`verifyKey failed under load: ${JSON.stringify(result)}`);
    }
    alone.push(bare.requestsPerSecond);
    withQueries.push(busy.requestsPerSecond);
    p99Alone.push(bare.latencyP99Ms);
    p99WithQueries.push(busy.latencyP99Ms);
    queryMs.push(...times);
    options.log(
      `analytics cost: round ${index} verifyKey alone ${Math.round(bare.requestsPerSecond)} req/s p99 ${bare.latencyP99Ms} ms; ` +
        `with ${times.length} dashboard queries ${Math.round(busy.requestsPerSecond)} req/s p99 ${busy.latencyP99Ms} ms, ` +
        `queries median ${round(median(times), 1)} ms, slowest ${round(Math.max(...times), 1)} ms`,
    );
  }
  return [
    makeRow({
      id: "analytics-verify-cost",
      label: `keys.verifyKey throughput while a dashboard sends ${options.queriesPerSecond} analytics queries a second vs without`,
      unit: "req/s",
      ours: withQueries,
      floor: alone,
      goal: { kind: "ratio-at-least", target: 0.8 },
      paired: true,
      method:
        `autocannon in a child process, ${options.connections} connections, ${options.durationSeconds} s × ${options.rounds} rounds, each round verifyKey alone ` +
        `then verifyKey while the bench sends ${options.queriesPerSecond} queries/s in turn (${options.queries.length} kinds: the keys page's usage query, ` +
        "a count by outcome over key_verifications_v1), each without waiting for the one before; ratio: median of each round's with/without. " +
        "A heavy dashboard: the keys page asks for a page's usage once per scroll settle, from SQLite's sums, and counts no raw rows. " +
        "Each DuckDB query first catches up with the rows verified since the last one, which costs about ten times the count itself (docs/analytics.md)",
      details: {
        p99AloneMs: median(p99Alone),
        p99WithQueriesMs: median(p99WithQueries),
        queryMedianMs: round(median(queryMs), 2),
        queryP99Ms: round(quantile(queryMs, 0.99), 2),
        querySlowestMs: round(Math.max(...queryMs), 2),
        queries: queryMs.length,
      },
    }),
  ];
}
