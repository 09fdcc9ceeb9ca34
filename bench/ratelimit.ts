import { rmSync } from "node:fs";
import * as v from "valibot";
import { RATELIMIT_LIMIT_PATH, VERIFY_KEY_PATH } from "../src/lib/contract";
import { startServer } from "../test/support/server-process";
import { processCpuMs } from "./lib/machine";
import { runLoad } from "./lib/processes";
import { APP_DIST } from "./lib/paths";
import { makeRow, type BenchRow } from "./lib/results";
import { median, round } from "./lib/stats";

export interface RatelimitBenchOptions {
  rounds: number;
  durationSeconds: number;
  connections: number;
  /** Bursts of 1,000 concurrent limits of one identifier, each counted. */
  bursts: number;
  log: (line: string) => void;
}

const CONCURRENT = 1000;
const LimitAnswer = v.object({ data: v.object({ success: v.boolean() }) });
const BURST_LIMIT = 250;
/** The longest window, so that no burst runs into a window's end: its counts are the limit's alone. */
const LONG_WINDOW_MS = 2_592_000_000;

/**
 * ratelimit.limit against keys.verifyKey on one server (`--no-build`, a fresh data directory, a root key without a
 * rate limit that may do both): interleaved rounds of each under the same autocannon load, both answered once
 * committed (a decision row and its window's counter, or a verification row and the key's usage); and bursts of a
 * thousand concurrent limits of one identifier, whose passes must be exactly the limit.
 */
export async function benchRatelimit(options: RatelimitBenchOptions): Promise<BenchRow[]> {
  const { log } = options;
  const server = await startServer({ args: ["--dist-dir", APP_DIST] });
  try {
    const rootKey = await server.admin([
      "root-key",
      "create",
      "--name",
      "bench",
      "--permissions",
      "api.*.verify_key,ratelimit.*.limit,ratelimit.*.create_namespace",
    ]);
    const secrets: string[] = [];
    for (let index = 0; index < 10; index += 1) {
      secrets.push((await server.admin(["keys", "create", "--name", `bench verify ${index}`])).split(" ")[1] ?? "");
    }
    const verifyBodies = secrets.map((key) => JSON.stringify({ key, tags: ["path=/api/users"] }));
    // Ten identifiers in turn, each under a limit it never reaches: every decision passes and is recorded.
    const limitBodies = Array.from({ length: 10 }, (_, index) =>
      JSON.stringify({ namespace: "bench", identifier: `user_${index}`, limit: 1_000_000_000, duration: 60_000 }),
    );
    const headers = { "content-type": "application/json", authorization: `Bearer ${rootKey}` };
    // With the server's own CPU time per request, which other work on the machine distorts far less than req/s.
    const load = async (path: string, bodies: string[], durationSeconds = options.durationSeconds) => {
      const before = processCpuMs(server.pid);
      const result = await runLoad({
        url: `${server.url}${path}`,
        headers,
        bodies,
        connections: options.connections,
        durationSeconds,
      });
      return { ...result, cpuUsPerRequest: ((processCpuMs(server.pid) - before) * 1000) / result.requests };
    };

    // Warm both paths (JIT, connections, the namespace's pages) before anything counts.
    const runVerify = (durationSeconds?: number) => load(VERIFY_KEY_PATH, verifyBodies, durationSeconds);
    const runLimit = (durationSeconds?: number) => load(RATELIMIT_LIMIT_PATH, limitBodies, durationSeconds);
    await runVerify(1);
    await runLimit(1);
    const limits: number[] = [];
    const verifies: number[] = [];
    const cpu = { limit: [] as number[], verify: [] as number[] };
    const latency = {
      limitP50: [] as number[],
      limitP99: [] as number[],
      verifyP50: [] as number[],
      verifyP99: [] as number[],
    };
    const unexpected = { limit: 0, verify: 0 };
    for (let round = 1; round <= options.rounds; round += 1) {
      // Each goes first in every other round, so neither always runs on the machine the other has just warmed.
      const verifyFirst = round % 2 === 1;
      const verifiedFirst = verifyFirst ? await runVerify() : undefined;
      const limit = await runLimit();
      const verify = verifiedFirst ?? (await runVerify());
      verifies.push(verify.requestsPerSecond);
      limits.push(limit.requestsPerSecond);
      cpu.verify.push(verify.cpuUsPerRequest);
      cpu.limit.push(limit.cpuUsPerRequest);
      latency.limitP50.push(limit.latencyP50Ms);
      latency.limitP99.push(limit.latencyP99Ms);
      latency.verifyP50.push(verify.latencyP50Ms);
      latency.verifyP99.push(verify.latencyP99Ms);
      unexpected.verify += verify.requests - (verify.statusCodes["200"] ?? 0) + verify.errors + verify.timeouts;
      unexpected.limit += limit.requests - (limit.statusCodes["200"] ?? 0) + limit.errors + limit.timeouts;
      log(
        `ratelimit: round ${round} limit ${Math.round(limit.requestsPerSecond)} req/s (p99 ${limit.latencyP99Ms} ms, ${limit.cpuUsPerRequest.toFixed(1)} µs CPU each), verifyKey ${Math.round(verify.requestsPerSecond)} req/s (p99 ${verify.latencyP99Ms} ms, ${verify.cpuUsPerRequest.toFixed(1)} µs CPU each)`,
      );
    }

    const offBy: number[] = [];
    for (let burst = 1; burst <= options.bursts; burst += 1) {
      const body = JSON.stringify({
        namespace: "bench",
        identifier: `burst_${burst}`,
        limit: BURST_LIMIT,
        duration: LONG_WINDOW_MS,
      });
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, async () => {
          const response = await fetch(`${server.url}${RATELIMIT_LIMIT_PATH}`, { method: "POST", headers, body });
          // Anything but a decision (an error envelope, a 5xx) fails the run here rather than counting as blocked.
          return v.parse(LimitAnswer, await response.json()).data.success;
        }),
      );
      const passed = answers.filter(Boolean).length;
      offBy.push(Math.abs(passed - BURST_LIMIT));
      log(`ratelimit: burst ${burst}: ${passed} of ${CONCURRENT} concurrent passed a limit of ${BURST_LIMIT}`);
    }

    const row = makeRow({
      id: "api-ratelimit-limit",
      label: "ratelimit.limit (recorded) vs keys.verifyKey (VALID, recorded)",
      unit: "req/s",
      ours: limits,
      floor: verifies,
      goal: { kind: "ratio-at-least", target: 0.9 },
      paired: true,
      method: `autocannon in a child process, ${options.connections} connections, ${options.durationSeconds} s × ${options.rounds} interleaved rounds on one server; each first in every other round; ours: ratelimit.limit, 10 identifiers in turn, each decision passed, recorded and charged to its window's counter; floor: keys.verifyKey, 10 keys in turn, VALID and recorded; both answered once committed (one commit per event-loop turn); ratio: median of each round's pair; beside it, the server's CPU time per request of each (/proc/<pid>/stat)`,
      details: {
        oursP50Ms: median(latency.limitP50),
        oursP99Ms: median(latency.limitP99),
        floorP50Ms: median(latency.verifyP50),
        floorP99Ms: median(latency.verifyP99),
        limitCpuUsPerRequest: round(median(cpu.limit), 1),
        verifyCpuUsPerRequest: round(median(cpu.verify), 1),
        unexpectedLimitAnswers: unexpected.limit,
        unexpectedVerifyAnswers: unexpected.verify,
      },
    });
    if (unexpected.limit + unexpected.verify > 0) row.met = false;
    return [
      row,
      makeRow({
        id: "api-ratelimit-exact",
        label: `ratelimit.limit, ${CONCURRENT.toLocaleString("en")} concurrent for one identifier: passes off the limit`,
        unit: "requests",
        ours: offBy,
        goal: { kind: "value-at-most", target: 0 },
        summarize: (samples) => Math.max(...samples),
        method: `${options.bursts} bursts of ${CONCURRENT} concurrent fetches of one identifier each (a fresh one per burst), limit ${BURST_LIMIT}; the figure is the largest difference between the answers that passed and the limit`,
        details: {
          bursts: options.bursts,
          limit: BURST_LIMIT,
          concurrent: CONCURRENT,
          worst: round(Math.max(...offBy), 0),
        },
      }),
    ];
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}
