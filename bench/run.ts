/**
 * `npm run bench`: Keyscope against the floor of each thing it does, on this machine, in this run.
 * Prints a table of ratios, writes bench/results.json and rewrites the benchmark block of docs/benchmarks.md.
 *
 * `npm run bench -- --only api,paging --quick` measures a part, with fewer rounds, into bench/.work/ only.
 * `npm run bench -- --big` runs the scale section at 10 million verifications and a million keys (beside a tenth of
 * that) instead of a million and 100,000; `--fresh` makes its data again.
 * `--logs-verifications N` sets the data size of the Logs page's section (1,000,000 unless given; 10,000,000 is the
 * size its goals are set for).
 */
import { rmSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startServer, type StartedServer } from "../test/support/server-process";
import { benchAnalytics } from "./analytics";
import { benchApi } from "./api";
import { benchBrowser, chromiumVersion } from "./browser";
import { benchBundle, buildApp, describeBeyondFloor } from "./bundle";
import { describeMachine, loadNow } from "./lib/machine";
import { APP_DIST, BENCHMARKS_DOC_PATH, RESULTS_PATH, workFile } from "./lib/paths";
import { markdownTable, updateResultsDoc } from "./lib/report";
import type { BenchResults, BenchRow } from "./lib/results";
import { benchLogs } from "./logs";
import { benchDeepPaging } from "./paging";
import { benchRatelimit } from "./ratelimit";
import { benchRatelimitAnalytics } from "./ratelimit-analytics";
import { benchScale } from "./scale";

const SECTIONS = ["bundle", "api", "browser", "paging", "analytics", "logs", "ratelimit", "scale"] as const;
type Section = (typeof SECTIONS)[number];

function isSection(name: string): name is Section {
  return (SECTIONS as readonly string[]).includes(name);
}

const startedAt = performance.now();
const loadAtStart = loadNow();
function log(line: string): void {
  console.log(`[${((performance.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${line}`);
}

async function withServer<T>(
  seedCount: number,
  use: (server: StartedServer, rootKey: string, verifySecrets: string[]) => Promise<T>,
): Promise<T> {
  // --no-build and a fresh data directory (startServer's own), serving the dashboard the bench just built.
  const server = await startServer({ args: ["--dist-dir", APP_DIST] });
  try {
    await server.admin(["keys", "seed", "--count", String(seedCount)]);
    // A root key made with the admin CLI has no rate limit unless given one; this one reads analytics too, so
    // the keys page asks for its usage (after the rows) as it does for a user.
    const rootKey = await server.admin([
      "root-key",
      "create",
      "--name",
      "bench",
      "--permissions",
      "api.*.read_key,api.*.verify_key,api.*.read_analytics",
    ]);
    const verifySecrets: string[] = [];
    for (let index = 0; index < 10; index += 1) {
      const created = await server.admin(["keys", "create", "--name", `bench verify ${index}`]);
      verifySecrets.push(created.split(" ")[1] ?? "");
    }
    log(`server ${server.url} with ${seedCount.toLocaleString("en")} seeded keys`);
    return await use(server, rootKey, verifySecrets);
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      only: { type: "string" },
      quick: { type: "boolean" },
      big: { type: "boolean" },
      fresh: { type: "boolean" },
      "logs-verifications": { type: "string" },
    },
    strict: true,
  });
  const only = values.only?.split(",").map((name) => name.trim()) ?? [...SECTIONS];
  const unknown = only.filter((name) => !isSection(name));
  if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(", ")}; sections: ${SECTIONS.join(", ")}`);
  const sections = new Set(only.filter(isSection));
  const quick = values.quick === true;
  const logsVerifications = Number(values["logs-verifications"] ?? (quick ? 200_000 : 1_000_000));
  if (!Number.isSafeInteger(logsVerifications) || logsVerifications < 1)
    throw new Error(`--logs-verifications takes a whole number, not ${values["logs-verifications"]}`);
  const partial = quick || sections.size < SECTIONS.length;

  const rows: BenchRow[] = [];
  const chromium = await chromiumVersion();

  // The bundle section builds the dashboard every other section serves.
  if (sections.has("bundle")) rows.push(...(await benchBundle(log)));
  else await buildApp();

  if (sections.has("api") || sections.has("browser")) {
    await withServer(10_000, async (server, rootKey, verifySecrets) => {
      if (sections.has("api")) {
        rows.push(
          ...(await benchApi({
            url: server.url,
            rootKey,
            verifySecrets,
            rounds: quick ? 1 : 5,
            durationSeconds: quick ? 2 : 3,
            connections: 10,
            log,
          })),
        );
      }
      if (sections.has("browser")) {
        rows.push(
          ...(await benchBrowser({
            url: server.url,
            rootKey,
            firstRowRuns: quick ? 5 : 9,
            manyKeysRuns: quick ? 1 : 3,
            manyKeys: 10_000,
            log,
            describeBeyondFloor: (ours, floor) => describeBeyondFloor(APP_DIST, ours, APP_DIST, floor),
          })),
        );
      }
    });
  }

  if (sections.has("paging")) {
    await withServer(100_000, async (server, rootKey) => {
      rows.push(...(await benchDeepPaging({ url: server.url, rootKey, requests: quick ? 100 : 300, log })));
    });
  }

  if (sections.has("ratelimit")) {
    rows.push(
      ...(await benchRatelimit({
        rounds: quick ? 1 : 5,
        durationSeconds: quick ? 2 : 3,
        connections: 10,
        bursts: quick ? 1 : 3,
        log,
      })),
      ...(await benchRatelimitAnalytics({ rows: 1_000_000, subjects: 1_000, pairs: quick ? 20 : 100, log })),
    );
  }

  if (sections.has("analytics")) {
    rows.push(
      ...(await benchAnalytics({
        verifications: 1_000_000,
        keys: 10_000,
        requests: quick ? 100 : 300,
        costRounds: quick ? 2 : 5,
        log,
      })),
    );
  }

  if (sections.has("logs")) {
    rows.push(...(await benchLogs({ verifications: logsVerifications, keys: 10_000, rounds: quick ? 5 : 20, log })));
  }

  if (sections.has("scale")) {
    const big = values.big === true;
    rows.push(
      ...(await benchScale({
        size: big ? { keys: 1_000_000, verifications: 10_000_000 } : { keys: 100_000, verifications: 1_000_000 },
        fresh: values.fresh === true,
        requests: quick ? 50 : 200,
        verifyRounds: quick ? 2 : 4,
        log,
      })),
    );
  }

  const results: BenchResults = {
    date: new Date().toISOString(),
    machine: describeMachine(chromium, loadAtStart),
    wallTimeSeconds: (performance.now() - startedAt) / 1000,
    rows,
  };
  const resultsPath = partial ? workFile("results.json") : RESULTS_PATH;
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  if (!partial) updateResultsDoc(BENCHMARKS_DOC_PATH, results);
  console.log(`\n${markdownTable(results)}\n`);
  console.log(
    partial ? `A partial run: written to ${resultsPath} only.` : `Written to ${resultsPath} and docs/benchmarks.md.`,
  );
}

await main();
