import { VERIFY_KEY_PATH } from "../src/lib/contract";
import type { LoadResult } from "./load/autocannon-worker";
import { allKeyIds, LIST_KEYS, postListKeys } from "./lib/keyscope-api";
import { runLoad, startBareServer } from "./lib/processes";
import { makeRow, type BenchRow } from "./lib/results";
import { median, round } from "./lib/stats";

export interface ApiBenchOptions {
  /** The reference server (started with --no-build on a fresh data dir) and a root key without a rate limit. */
  url: string;
  rootKey: string;
  /** Secrets of plain keys (no credits, no rate limit) for keys.verifyKey; the root key may verify them. */
  verifySecrets: readonly string[];
  rounds: number;
  durationSeconds: number;
  connections: number;
  log: (line: string) => void;
}

type Scenario = "ours401" | "bare401" | "oursList" | "bareList" | "oursListUncached" | "oursVerify" | "bareVerify";

const SCENARIOS: readonly Scenario[] = [
  "ours401",
  "bare401",
  "oursList",
  "bareList",
  "oursListUncached",
  "oursVerify",
  "bareVerify",
];
const VERIFY_KEY = VERIFY_KEY_PATH;

export async function benchApi(options: ApiBenchOptions): Promise<BenchRow[]> {
  const { url, rootKey, log } = options;
  const listBody = JSON.stringify({ limit: 100 });
  // The floor answers exactly what the reference server answers, byte for byte, with the same status.
  const unauthorized = await postListKeys(url, undefined, { limit: 100 });
  const page = await postListKeys(url, rootKey, { limit: 100 });
  const verifyBodies = options.verifySecrets.map((key) => JSON.stringify({ key, tags: ["path=/api/users"] }));
  const verified = await fetch(`${url}${VERIFY_KEY}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    body: verifyBodies[0] ?? "{}",
  });
  const verifiedBody = await verified.text();
  if (unauthorized.status !== 401 || page.status !== 200 || !verifiedBody.includes('"code":"VALID"')) {
    throw new Error(
      `unexpected answers ${unauthorized.status}, ${page.status}, ${verified.status} ${verifiedBody.slice(0, 200)}`,
    );
  }
  const bare = await startBareServer({
    "/401": { status: 401, body: unauthorized.body },
    "/list": { status: 200, body: page.body },
    "/verify": { status: 200, body: verifiedBody },
  });

  // Distinct cursors, each a full page of 100: far more of them than the 500 pages the server keeps.
  const ids = await allKeyIds(url, rootKey);
  const uncachedBodies = ids
    .slice(0, Math.max(1, ids.length - 101))
    .map((cursor) => JSON.stringify({ limit: 100, cursor }));
  log(
    `api: ${ids.length} keys, ${uncachedBodies.length} distinct cursors; page ${page.body.length} B, 401 ${unauthorized.body.length} B`,
  );

  const json = { "content-type": "application/json" };
  const auth = { ...json, authorization: `Bearer ${rootKey}` };
  const load = (
    target: string,
    headers: Record<string, string>,
    bodies: string[],
    durationSeconds = options.durationSeconds,
  ) => runLoad({ url: target, headers, bodies, connections: options.connections, durationSeconds });
  const run: Record<Scenario, (duration?: number) => Promise<LoadResult>> = {
    ours401: (d) => load(`${url}${LIST_KEYS}`, json, [listBody], d),
    bare401: (d) => load(`${bare.url}/401`, json, [listBody], d),
    oursList: (d) => load(`${url}${LIST_KEYS}`, auth, [listBody], d),
    bareList: (d) => load(`${bare.url}/list`, auth, [listBody], d),
    oursListUncached: (d) => load(`${url}${LIST_KEYS}`, auth, uncachedBodies, d),
    oursVerify: (d) => load(`${url}${VERIFY_KEY}`, auth, verifyBodies, d),
    bareVerify: (d) => load(`${bare.url}/verify`, auth, verifyBodies, d),
  };

  const results: Record<Scenario, LoadResult[]> = {
    ours401: [],
    bare401: [],
    oursList: [],
    bareList: [],
    oursListUncached: [],
    oursVerify: [],
    bareVerify: [],
  };
  try {
    // Warm both servers (JIT, connections, the page cache) before anything counts.
    for (const scenario of ["ours401", "oursList", "bareList", "oursVerify", "bareVerify"] as const)
      await run[scenario](1);
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const scenario of SCENARIOS) {
        const result = await run[scenario]();
        results[scenario].push(result);
        log(
          `api: round ${round} ${scenario.padEnd(16)} ${Math.round(result.requestsPerSecond)} req/s p50 ${result.latencyP50Ms} ms p99 ${result.latencyP99Ms} ms errors ${result.errors} codes ${JSON.stringify(result.statusCodes)}`,
        );
      }
    }
  } finally {
    await bare.stop();
  }

  const rps = (scenario: Scenario) => results[scenario].map((result) => result.requestsPerSecond);
  const details = (scenario: Scenario, expectedStatus: string) => {
    const all = results[scenario];
    return {
      p50Ms: median(all.map((result) => result.latencyP50Ms)),
      p99Ms: median(all.map((result) => result.latencyP99Ms)),
      errors: all.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
      unexpectedStatus: all.reduce(
        (sum, result) => sum + result.requests - (result.statusCodes[expectedStatus] ?? 0),
        0,
      ),
      requests: all.reduce((sum, result) => sum + result.requests, 0),
    };
  };
  const method = `autocannon in a child process, ${options.connections} connections, ${options.durationSeconds} s × ${options.rounds} interleaved rounds, median req/s; ratio: median of each round's ours/floor`;
  const floorMethod = "floor: bare node:http answering the same bytes";

  const rows: BenchRow[] = [];
  const ours401 = details("ours401", "401");
  const bare401 = details("bare401", "401");
  rows.push(
    makeRow({
      id: "api-401",
      label: "401 path (no Authorization)",
      unit: "req/s",
      ours: rps("ours401"),
      floor: rps("bare401"),
      goal: { kind: "ratio-at-least", target: 0.55 },
      paired: true,
      method: `${method}; ${floorMethod}`,
      details: prefixed({ ours: ours401, floor: bare401 }),
    }),
  );
  const oursList = details("oursList", "200");
  const bareList = details("bareList", "200");
  const listRow = makeRow({
    id: "api-list-keys",
    label: "listKeys, limit 100 (cached page)",
    unit: "req/s",
    ours: rps("oursList"),
    floor: rps("bareList"),
    goal: { kind: "ratio-at-least", target: 0.25 },
    paired: true,
    method: `${method}; the same body every time, so the rendered page comes from the server's cache; ${floorMethod}`,
    details: prefixed({ ours: oursList, floor: bareList }),
  });
  // "With 0 errors" is part of the goal.
  if (oursList.errors + oursList.unexpectedStatus > 0) listRow.met = false;
  rows.push(listRow);
  const uncached = details("oursListUncached", "200");
  rows.push(
    makeRow({
      id: "api-list-keys-uncached",
      label: "listKeys, limit 100, distinct cursors (uncached)",
      unit: "req/s",
      ours: rps("oursListUncached"),
      floor: rps("bareList"),
      goal: { kind: "none" },
      paired: true,
      method: `${method}; ${uncachedBodies.length} distinct cursors in turn, more than the server's 500 cached pages, so every page is read and rendered; ${floorMethod}`,
      details: prefixed({ ours: uncached, floor: bareList }),
    }),
  );
  const oursVerify = details("oursVerify", "200");
  const verifyRow = makeRow({
    id: "api-verify-key",
    label: "keys.verifyKey (VALID, recorded)",
    unit: "req/s",
    ours: rps("oursVerify"),
    floor: rps("bareVerify"),
    goal: { kind: "ratio-at-least", target: 0.3 },
    paired: true,
    method: `${method}; ${verifyBodies.length} keys in turn, each call answered once committed (lookup by hash, lastUsedAt, a key_verifications row; the calls of one event-loop turn share a commit); ${floorMethod}`,
    details: prefixed({ ours: oursVerify, floor: details("bareVerify", "200") }),
  });
  if (oursVerify.errors + oursVerify.unexpectedStatus > 0) verifyRow.met = false;
  rows.push(verifyRow);
  return rows;
}

function prefixed(groups: Record<string, Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [prefix, values] of Object.entries(groups)) {
    for (const [name, value] of Object.entries(values))
      out[`${prefix}${name[0]?.toUpperCase() ?? ""}${name.slice(1)}`] = round(value, 3);
  }
  return out;
}
