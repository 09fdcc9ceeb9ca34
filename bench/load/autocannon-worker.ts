/**
 * The load generator, in a process of its own so it never shares an event loop with a server it measures.
 * Input: the path of a JSON file (LoadSpec). Output: one JSON line (LoadResult) on stdout.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  /** One body for every request, or several used in turn (distinct cursors defeat the page cache). */
  bodies: string[];
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as LoadSpec;
  let next = 0;
  const result = await autocannon({
    url: spec.url,
    method: "POST",
    headers: spec.headers,
    connections: spec.connections,
    duration: spec.durationSeconds,
    requests: [
      {
        method: "POST",
        setupRequest: (request) => {
          const body = spec.bodies[next % spec.bodies.length];
          next += 1;
          return { ...request, body };
        },
      },
    ],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count?.count ?? 0;
  const output: LoadResult = {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

await main();
