import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { GET_VERIFICATIONS_PATH, VERIFY_KEY_PATH } from "../src/lib/contract";
import { usageQuery } from "../src/lib/analytics-sql";
import { usageSql } from "../src/features/keys/utils/usage";
import { startServer, type StartedServer } from "../test/support/server-process";
import { base58 } from "./lib/base58";
import { LIST_KEYS, parsePage, postListKeys } from "./lib/keyscope-api";
import { loadNow } from "./lib/machine";
import { APP_DIST } from "./lib/paths";
import { runLoad } from "./lib/processes";
import { makeRow, type BenchRow } from "./lib/results";
import { median, round } from "./lib/stats";
import { viewQueries } from "./logs";
import { copyOf, removeCopy, scaleData, type ScaleData, type ScaleSize } from "./scale-data";

/**
 * The reference server at scale (#41): a data directory made by the admin CLI (`keys seed`, `traffic`), started as a
 * user starts it, measured from outside: start to the first analytics answer, peak and steady resident memory, the
 * keys page's first and a deep page, a page of keys' usage, a key's 30-day chart, the workspace's counts by outcome,
 * the Logs page's first page and 24-hour chart, verifyKey against a server of a thousand keys, while the analytics
 * store is rebuilt, and a restart after kill -9 during a verification flood. Every figure at the size asked beside its
 * figure at a tenth of the data.
 */

export interface ScaleBenchOptions {
  size: ScaleSize;
  /** Make the data again even if a run made it before. */
  fresh: boolean;
  /** Timed requests per measure. */
  requests: number;
  /** verifyKey rounds against the server of a thousand keys. */
  verifyRounds: number;
  log: (line: string) => void;
}

const WORKSPACE_COUNTS =
  "SELECT outcome, SUM(count) AS n FROM key_verifications_per_day_v1 WHERE time >= now() - INTERVAL 30 DAY GROUP BY outcome";
const LOAD_SECONDS = 5;
const CONNECTIONS = 10;

/** Resident memory of a process in MiB: /proc on Linux, ps elsewhere. */
function residentMiB(pid: number): Promise<number> {
  const status = `/proc/${pid}/status`;
  if (existsSync(status)) {
    const kib = /^VmRSS:\s+(\d+)/m.exec(readFileSync(status, "utf8"))?.[1];
    return Promise.resolve(Number(kib ?? 0) / 1024);
  }
  return new Promise((resolve, reject) => {
    execFile("ps", ["-o", "rss=", "-p", String(pid)], (error, stdout) => {
      if (error) reject(new Error(`ps failed: ${error.message}`));
      else resolve(Number(stdout.trim()) / 1024);
    });
  });
}

/** Samples a process's resident memory every 100 ms until stopped; its peak, and every sample. */
function sampleMemory(pid: number) {
  const samples: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      samples.push(await residentMiB(pid).catch(() => 0));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    peak: () => Math.max(0, ...samples),
    async stop() {
      stopped = true;
      await loop;
      return Math.max(0, ...samples);
    },
  };
}

async function analytics(url: string, rootKey: string, query: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}${GET_VERIFICATIONS_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.text() };
}

/** Asks `query` every 100 ms until it answers 200; resolves that answer's body. */
async function firstAnswer(url: string, rootKey: string, query: string, deadlineMs = 20 * 60_000): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const answer = await analytics(url, rootKey, query);
    if (answer.status === 200) return answer.body;
    if (answer.status !== 503) throw new Error(`analytics answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    if (Date.now() > deadline) throw new Error("analytics did not answer in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const startedAt = performance.now();
  await work();
  return performance.now() - startedAt;
}

/** Starts the server on `dataDir`, timed from spawn to its running line. */
async function start(dataDir: string): Promise<{ server: StartedServer; spawnedAt: number; runningMs: number }> {
  const spawnedAt = performance.now();
  const server = await startServer({
    dataDir,
    args: ["--dist-dir", APP_DIST, "--analytics-quota", "10000000"],
  });
  return { server, spawnedAt, runningMs: performance.now() - spawnedAt };
}

interface KeyPages {
  workspaceId: string;
  firstId: string;
  /** The id just before the last page, and that page's first id: a cursor past it names the last page. */
  beforeLastPage: string;
  lastPageFirstId: string;
  /** The key traffic draws most (its first in creation order). */
  busiestKey: string;
}

function keyPages(dataDir: string): KeyPages {
  const db = new Database(join(dataDir, "keyscope.sqlite"), { readonly: true });
  try {
    const workspaceId =
      db.prepare<[], string>("SELECT workspace_id FROM root_keys WHERE name = 'bench'").pluck().get() ?? "";
    const live = "FROM keys WHERE workspace_id = ? AND deleted_at IS NULL";
    const count = db.prepare<[string], number>(`SELECT count(*) ${live}`).pluck().get(workspaceId) ?? 0;
    const at = db.prepare<[string, number], string>(`SELECT id ${live} ORDER BY id LIMIT 1 OFFSET ?`).pluck();
    return {
      workspaceId,
      firstId: at.get(workspaceId, 0) ?? "",
      beforeLastPage: at.get(workspaceId, count - 101) ?? "",
      lastPageFirstId: at.get(workspaceId, count - 100) ?? "",
      busiestKey:
        db.prepare<[string], string>(`SELECT id ${live} ORDER BY created_at, id LIMIT 1`).pluck().get(workspaceId) ??
        "",
    };
  } finally {
    db.close();
  }
}

interface SizeFigures {
  verifications: number;
  keys: number;
  runningMs: number;
  analyticsMs: number;
  peakRssMiB: number;
  steadyRssMiB: number;
  firstPageMs: number[];
  deepPageMs: number[];
  listPageMs: number[];
  usagePageMs: number[];
  keyChartMs: number[];
  workspaceCountsMs: number[];
  logsPageMs: number[];
  logsDayChartMs: number[];
  /** Rows of the Logs page's first page (its page size and one when the last 24 hours hold more). */
  logsPageRows: number;
  loadAtStart: number;
}

/** One size, on a fresh copy of its data: the start, then each measure in turn; the server left running for more. */
async function measureSize(
  data: ScaleData,
  options: ScaleBenchOptions,
): Promise<{ figures: SizeFigures; server: StartedServer; dir: string; pages: KeyPages }> {
  const { log } = options;
  const dir = copyOf(data, "measure");
  const pages = keyPages(dir);
  const loadAtStart = loadNow();
  const { server, spawnedAt, runningMs } = await start(dir);
  const memory = sampleMemory(server.pid);
  const url = server.url;
  await firstAnswer(url, data.rootKey, WORKSPACE_COUNTS);
  const analyticsMs = performance.now() - spawnedAt;
  log(
    `scale ${data.size.verifications.toLocaleString("en")}: running ${(runningMs / 1000).toFixed(1)} s, first analytics answer ${(analyticsMs / 1000).toFixed(1)} s after spawn (load ${loadAtStart})`,
  );

  const page = async (cursor: string, expectedFirst: string) => {
    const answer = await postListKeys(url, data.rootKey, { limit: 100, cursor });
    if (answer.status !== 200 || parsePage(answer.body).data.keys[0]?.keyId !== expectedFirst)
      throw new Error(`listKeys gave another page (status ${answer.status})`);
  };
  const first = (index: number) => page(`key_11111${base58(index)}`, pages.firstId);
  const deep = (index: number) => page(`${pages.beforeLastPage}${base58(index)}`, pages.lastPageFirstId);
  const firstPage = await postListKeys(url, data.rootKey, { limit: 100 });
  const pageIds = parsePage(firstPage.body).data.keys.map((key) => key.keyId);
  const usage = usageSql(pageIds);
  let answeredRows = 0;
  const ask = (query: string) => async () => {
    const answer = await analytics(url, data.rootKey, query);
    if (answer.status !== 200) throw new Error(`analytics answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    answeredRows = (JSON.parse(answer.body) as { data: unknown[] }).data.length;
  };
  // The Logs page's own queries for its default view, resolved at each ask as a Refresh would.
  const logsPage = () => ask(viewQueries("24h", Date.now()).page)();
  const logsDayChart = () => ask(viewQueries("24h", Date.now()).chart)();
  // Warm-up: JIT, statements, the OS page cache, the check of each query text.
  for (let index = 0; index < 20; index += 1) {
    await first(1_000_000 + index);
    await deep(1_000_000 + index);
    await ask(usage)();
    await ask(usageQuery(pages.busiestKey, "30d"))();
    await ask(WORKSPACE_COUNTS)();
    await logsPage();
    await logsDayChart();
  }
  const figures: SizeFigures = {
    verifications: data.size.verifications,
    keys: data.size.keys,
    runningMs,
    analyticsMs,
    peakRssMiB: 0,
    steadyRssMiB: 0,
    firstPageMs: [],
    deepPageMs: [],
    listPageMs: [],
    usagePageMs: [],
    keyChartMs: [],
    workspaceCountsMs: [],
    logsPageMs: [],
    logsDayChartMs: [],
    logsPageRows: 0,
    loadAtStart,
  };
  for (let index = 0; index < options.requests; index += 1) {
    figures.firstPageMs.push(await timed(() => first(index)));
    figures.deepPageMs.push(await timed(() => deep(index)));
    figures.listPageMs.push(await timed(() => first(2_000_000 + index)));
    figures.usagePageMs.push(await timed(ask(usage)));
  }
  for (let index = 0; index < Math.ceil(options.requests / 5); index += 1) {
    figures.keyChartMs.push(await timed(ask(usageQuery(pages.busiestKey, "30d"))));
    figures.workspaceCountsMs.push(await timed(ask(WORKSPACE_COUNTS)));
    figures.logsPageMs.push(await timed(logsPage));
    figures.logsPageRows = answeredRows;
    figures.logsDayChartMs.push(await timed(logsDayChart));
  }
  figures.peakRssMiB = memory.peak();
  // Steady: the median of a few seconds' samples once the server has been idle for a while.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const steady: number[] = [];
  for (let index = 0; index < 10; index += 1) {
    steady.push(await residentMiB(server.pid));
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  figures.steadyRssMiB = median(steady);
  figures.peakRssMiB = await memory.stop();
  log(
    `scale ${data.size.verifications.toLocaleString("en")}: pages ${round(median(figures.firstPageMs))}/${round(median(figures.deepPageMs))} ms, usage ${round(median(figures.usagePageMs))} ms vs list ${round(median(figures.listPageMs))} ms, chart ${round(median(figures.keyChartMs))} ms, counts ${round(median(figures.workspaceCountsMs))} ms, logs page ${round(median(figures.logsPageMs))} ms (${figures.logsPageRows} rows) and 24-hour chart ${round(median(figures.logsDayChartMs))} ms, RSS peak ${Math.round(figures.peakRssMiB)} steady ${Math.round(figures.steadyRssMiB)} MiB`,
  );
  return { figures, server, dir, pages };
}

function verifyLoad(url: string, rootKey: string, secrets: readonly string[], durationSeconds = LOAD_SECONDS) {
  return runLoad({
    url: `${url}${VERIFY_KEY_PATH}`,
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    bodies: secrets.map((key) => JSON.stringify({ key, tags: ["path=/api/users"] })),
    connections: CONNECTIONS,
    durationSeconds,
  });
}

/** keys.listKeys pages, each a cursor the server has not seen (never from its page cache). */
function listLoad(url: string, rootKey: string, firstId: string, durationSeconds: number) {
  return runLoad({
    url: `${url}${LIST_KEYS}`,
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    bodies: Array.from({ length: 5_000 }, (_, index) =>
      JSON.stringify({ limit: 100, cursor: `${firstId.slice(0, 8)}${base58(index)}` }),
    ),
    connections: CONNECTIONS,
    durationSeconds,
  });
}

/** verifyKey on the big server and on one of a thousand keys, in alternating rounds. */
async function verifyAgainstThousand(
  big: { server: StartedServer; data: ScaleData },
  options: ScaleBenchOptions,
): Promise<{ big: number[]; small: number[]; p99Big: number[]; p99Small: number[] }> {
  const thousand = await scaleData({ keys: 1_000, verifications: 10_000 }, options);
  const dir = copyOf(thousand, "verify");
  const small = await start(dir);
  try {
    const result = { big: [] as number[], small: [] as number[], p99Big: [] as number[], p99Small: [] as number[] };
    await verifyLoad(small.server.url, thousand.rootKey, thousand.verifySecrets, 1);
    await verifyLoad(big.server.url, big.data.rootKey, big.data.verifySecrets, 1);
    for (let round = 0; round < options.verifyRounds; round += 1) {
      const onBig = await verifyLoad(big.server.url, big.data.rootKey, big.data.verifySecrets);
      const onSmall = await verifyLoad(small.server.url, thousand.rootKey, thousand.verifySecrets);
      for (const load of [onBig, onSmall])
        if (load.errors + load.non2xx > 0) throw new Error(`verifyKey failed under load: ${JSON.stringify(load)}`);
      result.big.push(onBig.requestsPerSecond);
      result.small.push(onSmall.requestsPerSecond);
      result.p99Big.push(onBig.latencyP99Ms);
      result.p99Small.push(onSmall.latencyP99Ms);
      options.log(
        `scale verifyKey round ${round + 1}: ${Math.round(onBig.requestsPerSecond)} req/s at ${big.data.size.keys.toLocaleString("en")} keys, ${Math.round(onSmall.requestsPerSecond)} at 1,000 (load ${loadNow()})`,
      );
    }
    return result;
  } finally {
    await small.server.stop();
    removeCopy(dir);
  }
}

/** Quiet and rebuilding measures, alternated: on a shared host one of each says more about the host than the server. */
const REBUILD_ROUNDS = 3;

interface RebuildFigures {
  /** The rebuilding servers' peak resident memory while measured. */
  peakRssMiB: number;
  /** One per round, in the same order on both sides. */
  quietVerifyP99: number[];
  quietListP99: number[];
  rebuildVerifyP99: number[];
  rebuildListP99: number[];
  /** The usage bars' query while the store is rebuilt: answered (200), catching up (503), anything else. */
  usage: { answered: number; catchingUp: number; other: number };
  /** Rounds whose rebuild had not ended when its loads did. */
  stillRebuilding: number;
}

/**
 * verifyKey's and listKeys' p99 on the measured server (quiet: its store current), then on a copy whose analytics
 * files are gone, so that its start rebuilds the store and the sums by key from SQLite, while the keys page's usage
 * query is asked every 200 ms; in alternating rounds, each on a fresh copy.
 */
async function duringRebuild(
  quiet: { server: StartedServer; data: ScaleData; pages: KeyPages },
  options: ScaleBenchOptions,
): Promise<RebuildFigures> {
  const figures: RebuildFigures = {
    peakRssMiB: 0,
    quietVerifyP99: [],
    quietListP99: [],
    rebuildVerifyP99: [],
    rebuildListP99: [],
    usage: { answered: 0, catchingUp: 0, other: 0 },
    stillRebuilding: 0,
  };
  for (let round = 0; round < REBUILD_ROUNDS; round += 1) await rebuildRound(quiet, figures, options);
  return figures;
}

async function rebuildRound(
  quiet: { server: StartedServer; data: ScaleData; pages: KeyPages },
  figures: RebuildFigures,
  options: ScaleBenchOptions,
): Promise<void> {
  const { data, pages } = quiet;
  const quietVerify = await verifyLoad(quiet.server.url, data.rootKey, data.verifySecrets);
  const quietList = await listLoad(quiet.server.url, data.rootKey, pages.firstId, LOAD_SECONDS);
  // The quiet server copies the verifications its load just recorded into its store; asked now, it does so before
  // the rebuilding server is measured, which would otherwise share the machine with that work (another server's).
  await firstAnswer(quiet.server.url, data.rootKey, WORKSPACE_COUNTS);
  const dir = copyOf(data, "rebuild");
  for (const file of ["analytics.duckdb", "analytics.duckdb.wal", "analytics-sums.sqlite"])
    rmSync(join(dir, file), { force: true });
  const rebuilding = await start(dir);
  const memory = sampleMemory(rebuilding.server.pid);
  try {
    const url = rebuilding.server.url;
    const page = parsePage((await postListKeys(url, data.rootKey, { limit: 100 })).body).data.keys.map(
      (key) => key.keyId,
    );
    const { usage } = figures;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const answer = await analytics(url, data.rootKey, usageSql(page));
        if (answer.status === 200) usage.answered += 1;
        else if (answer.status === 503 && answer.body.includes("catching up")) usage.catchingUp += 1;
        else usage.other += 1;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    // A second of each first, as the quiet server had before (its JIT, its statements), not counted.
    await verifyLoad(url, data.rootKey, data.verifySecrets, 1);
    await listLoad(url, data.rootKey, pages.firstId, 1);
    const verify = await verifyLoad(url, data.rootKey, data.verifySecrets);
    const list = await listLoad(url, data.rootKey, pages.firstId, LOAD_SECONDS);
    const counts = await analytics(url, data.rootKey, WORKSPACE_COUNTS);
    polling = false;
    await poll;
    options.log(
      `scale rebuild: verifyKey p99 ${verify.latencyP99Ms} ms (quiet ${quietVerify.latencyP99Ms}), listKeys p99 ${list.latencyP99Ms} ms (quiet ${quietList.latencyP99Ms}); usage bars ${JSON.stringify(usage)}; still rebuilding: ${counts.status === 503} (load ${loadNow()})`,
    );
    figures.quietVerifyP99.push(quietVerify.latencyP99Ms);
    figures.quietListP99.push(quietList.latencyP99Ms);
    figures.rebuildVerifyP99.push(verify.latencyP99Ms);
    figures.rebuildListP99.push(list.latencyP99Ms);
    if (counts.status === 503) figures.stillRebuilding += 1;
    figures.peakRssMiB = Math.max(figures.peakRssMiB, await memory.stop());
  } finally {
    await memory.stop();
    await rebuilding.server.stop();
    removeCopy(dir);
  }
}

/** verifyKey flooded for a while, the server killed (SIGKILL) halfway, started again: how long until analytics counts. */
async function killDuringFlood(
  measured: { server: StartedServer; data: ScaleData; dir: string },
  options: ScaleBenchOptions,
): Promise<{ restartToAnalyticsMs: number; answered: number; counted: number }> {
  const { data, dir } = measured;
  const db = new Database(join(dir, "keyscope.sqlite"), { readonly: true });
  const ids = db.prepare<[], string>("SELECT id FROM keys WHERE name LIKE 'bench verify %'").pluck().all();
  db.close();
  const countSql = `SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id IN (${ids.map((id) => `'${id}'`).join(", ")})`;
  const countOf = (body: string) => (JSON.parse(body) as { data: { n: number }[] }).data[0]?.n ?? 0;
  const before = countOf(await firstAnswer(measured.server.url, data.rootKey, countSql));
  const flood = verifyLoad(measured.server.url, data.rootKey, data.verifySecrets, 4);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await measured.server.stop("SIGKILL");
  const load = await flood;
  const answered = Number(load.statusCodes["200"] ?? 0);
  const { server, spawnedAt } = await start(dir);
  try {
    const after = countOf(await firstAnswer(server.url, data.rootKey, countSql));
    const restartToAnalyticsMs = performance.now() - spawnedAt;
    const counted = after - before;
    options.log(
      `scale kill -9: ${answered} verifications answered before the kill, ${counted} counted ${(restartToAnalyticsMs / 1000).toFixed(1)} s after the restart's spawn`,
    );
    return { restartToAnalyticsMs, answered, counted };
  } finally {
    await server.stop();
  }
}

function sizeLabel({ keys, verifications }: ScaleSize): string {
  const short = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n));
  return `${short(verifications)} verifications, ${short(keys)} keys`;
}

export async function benchScale(options: ScaleBenchOptions): Promise<BenchRow[]> {
  const { size } = options;
  const tenthSize = { keys: size.keys / 10, verifications: size.verifications / 10 };
  const tenthData = await scaleData(tenthSize, options);
  const data = await scaleData(size, options);

  const tenth = await measureSize(tenthData, options);
  await tenth.server.stop();
  removeCopy(tenth.dir);

  const big = await measureSize(data, options);
  let verify: Awaited<ReturnType<typeof verifyAgainstThousand>>;
  let rebuild: RebuildFigures;
  let kill: Awaited<ReturnType<typeof killDuringFlood>>;
  try {
    verify = await verifyAgainstThousand({ server: big.server, data }, options);
    rebuild = await duringRebuild({ server: big.server, data, pages: big.pages }, options);
    kill = await killDuringFlood({ server: big.server, data, dir: big.dir }, options);
  } finally {
    await big.server.stop();
    removeCopy(big.dir);
  }

  const at = sizeLabel(size);
  const atTenth = sizeLabel(tenthSize);
  const b = big.figures;
  const t = tenth.figures;
  const beside = (name: string) => `at ${at}, beside ${name} at ${atTenth}`;
  const ratio = (ours: number[], floor: number[]) => median(ours.map((value, index) => value / (floor[index] ?? NaN)));
  return [
    makeRow({
      id: "scale-start-to-analytics",
      label: `Start to the first analytics answer, ${at} (vs ${atTenth})`,
      unit: "ms",
      ours: [b.analyticsMs],
      floor: [t.analyticsMs],
      goal: { kind: "value-at-most", target: 10_000 },
      method: `From spawning the server (npm start's process, --no-build) on a copy of a data directory made by the admin CLI (keys seed, traffic) to the first 200 of the workspace's counts by outcome over 30 days (a DuckDB query, asked every 100 ms); ${beside("the same")}; the running line came ${round(b.runningMs / 1000, 1)} s and ${round(t.runningMs / 1000, 1)} s after spawn`,
      details: { runningMs: round(b.runningMs), tenthRunningMs: round(t.runningMs), loadAtStart: b.loadAtStart },
    }),
    makeRow({
      id: "scale-start-growth",
      label: "Start to the first analytics answer, tenfold data",
      unit: "ms",
      ours: [b.analyticsMs],
      floor: [t.analyticsMs],
      goal: { kind: "ratio-at-most", target: 2 },
      method: `The row above's two figures: ${at} against ${atTenth}`,
    }),
    makeRow({
      id: "scale-peak-rss",
      label: `Server peak resident memory, ${at} (vs ${atTenth})`,
      unit: "MiB",
      ours: [b.peakRssMiB],
      floor: [t.peakRssMiB],
      goal: { kind: "value-at-most", target: 1024 },
      method: `The server process's RSS (/proc VmRSS, every thread's), sampled every 100 ms from its start through every measure of this section at that size; ${beside("the same")}; a server rebuilding its analytics store from SQLite (the rows below) peaked at ${Math.round(rebuild.peakRssMiB)} MiB`,
      details: { rebuildPeakMiB: round(rebuild.peakRssMiB) },
    }),
    makeRow({
      id: "scale-steady-rss",
      label: `Server steady resident memory, ${at} (vs ${atTenth})`,
      unit: "MiB",
      ours: [b.steadyRssMiB],
      floor: [t.steadyRssMiB],
      goal: { kind: "none" },
      method: `Median RSS over 3 s once the server had been idle 5 s after the measures; ${beside("the same")}`,
    }),
    makeRow({
      id: "scale-deep-page",
      label: `Last page of ${b.keys.toLocaleString("en")} keys vs the first (uncached)`,
      unit: "ms",
      ours: b.deepPageMs,
      floor: b.firstPageMs,
      goal: { kind: "ratio-at-most", target: 1.2 },
      paired: true,
      method: `${options.requests} pairs, alternating, every cursor distinct (no page-cache hit), keep-alive client; ratio: median of each pair's last/first; at ${atTenth} (${t.keys.toLocaleString("en")} keys): ${round(median(t.deepPageMs), 2)} ms vs ${round(median(t.firstPageMs), 2)} ms, ${round(ratio(t.deepPageMs, t.firstPageMs), 2)}×`,
      details: {
        tenthDeepMs: round(median(t.deepPageMs), 3),
        tenthFirstMs: round(median(t.firstPageMs), 3),
        tenthRatio: round(ratio(t.deepPageMs, t.firstPageMs), 3),
      },
    }),
    makeRow({
      id: "scale-usage-page",
      label: `36-hour usage of a page of 100 keys vs its uncached listKeys page, ${at}`,
      unit: "ms",
      ours: b.usagePageMs,
      floor: b.listPageMs,
      goal: { kind: "ratio-at-most", target: 2 },
      paired: true,
      method: `${options.requests} pairs: the keys page's usage query (usageSql, answered from the per-hour sums by key) for the first page's keys, after keys.listKeys of the same page with a never-seen cursor; at ${atTenth}: ${round(median(t.usagePageMs), 2)} ms vs ${round(median(t.listPageMs), 2)} ms, ${round(ratio(t.usagePageMs, t.listPageMs), 2)}×`,
      details: {
        tenthUsageMs: round(median(t.usagePageMs), 3),
        tenthListMs: round(median(t.listPageMs), 3),
        tenthRatio: round(ratio(t.usagePageMs, t.listPageMs), 3),
      },
    }),
    makeRow({
      id: "scale-key-chart",
      label: `One key's 30-day chart, ${at} (vs ${atTenth})`,
      unit: "ms",
      ours: b.keyChartMs,
      floor: t.keyChartMs,
      goal: { kind: "none" },
      method: `The key page's query (usageQuery(key, "30d"): the per-day table by outcome) for the key traffic verifies most; median of ${b.keyChartMs.length}; ${beside("the same")}`,
    }),
    makeRow({
      id: "scale-workspace-counts",
      label: `Workspace counts by outcome over 30 days, ${at} (vs ${atTenth})`,
      unit: "ms",
      ours: b.workspaceCountsMs,
      floor: t.workspaceCountsMs,
      goal: { kind: "value-at-most", target: 1_000 },
      method: `The contract's example (SUM(count) by outcome over key_verifications_per_day_v1, 30 days); median of ${b.workspaceCountsMs.length}; ${beside("the same")}`,
    }),
    makeRow({
      id: "scale-logs-first-page",
      label: `The log's first page, last 24 hours, ${at} (vs ${atTenth})`,
      unit: "ms",
      ours: b.logsPageMs,
      floor: t.logsPageMs,
      goal: { kind: "value-at-most", target: 500 },
      method: `The Logs page's own first page (src/lib/log-sql.ts: ${b.logsPageRows} rows, newest first, no filter; its range resolved by the page's code at each ask); median of ${b.logsPageMs.length}; ${beside("the same")}`,
      details: { rows: b.logsPageRows, tenthRows: t.logsPageRows },
    }),
    makeRow({
      id: "scale-logs-chart-24h",
      label: `The log's 24-hour chart, ${at} (vs ${atTenth})`,
      unit: "ms",
      ours: b.logsDayChartMs,
      floor: t.logsDayChartMs,
      goal: { kind: "value-at-most", target: 500 },
      method: `The Logs page's own chart query for the last 24 hours (by hour and outcome: the per-hour table for whole hours, single verifications for the last one); median of ${b.logsDayChartMs.length}; ${beside("the same")}`,
    }),
    makeRow({
      id: "scale-verify",
      label: `keys.verifyKey throughput at ${b.keys.toLocaleString("en")} keys vs 1,000 keys`,
      unit: "req/s",
      ours: verify.big,
      floor: verify.small,
      goal: { kind: "ratio-at-least", target: 0.9 },
      paired: true,
      method: `autocannon in a child process, ${CONNECTIONS} connections, ${LOAD_SECONDS} s × ${options.verifyRounds} rounds, each round the big server then a server of 1,000 keys and 10,000 verifications (both running, each loaded in turn); ratio: median of each round's big/small`,
      details: { p99BigMs: median(verify.p99Big), p99SmallMs: median(verify.p99Small) },
    }),
    makeRow({
      id: "scale-rebuild-verify-p99",
      label: `keys.verifyKey p99 while the analytics store is rebuilt, ${at}, vs quiet`,
      unit: "ms",
      ours: rebuild.rebuildVerifyP99,
      floor: rebuild.quietVerifyP99,
      goal: { kind: "ratio-at-most", target: 2 },
      paired: true,
      method: `autocannon, ${CONNECTIONS} connections, ${LOAD_SECONDS} s: on a copy of the data without its analytics files, from its start (the store and the sums by key rebuilt from SQLite in the background; still rebuilding when the loads ended in ${rebuild.stillRebuilding} of ${REBUILD_ROUNDS} rounds), against the measured server with its store current just before (its copy of what that load recorded finished before the rebuilding server started); ${REBUILD_ROUNDS} rounds, each on a fresh copy; ratio: median of each round's rebuilding/quiet`,
    }),
    makeRow({
      id: "scale-rebuild-list-p99",
      label: `keys.listKeys p99 (uncached pages) while the analytics store is rebuilt, ${at}, vs quiet`,
      unit: "ms",
      ours: rebuild.rebuildListP99,
      floor: rebuild.quietListP99,
      goal: { kind: "ratio-at-most", target: 2 },
      paired: true,
      method: `As the row above, with keys.listKeys of 100 keys, each cursor distinct`,
    }),
    makeRow({
      id: "scale-rebuild-usage",
      label: `The usage bars' query while the store is rebuilt: answers other than 200 or 503 catching up, ${at}`,
      unit: "answers",
      ours: [rebuild.usage.other],
      goal: { kind: "value-at-most", target: 0 },
      method: `The keys page's usage query every 200 ms during the loads above, every round: ${rebuild.usage.answered} answered (200), ${rebuild.usage.catchingUp} told analytics is catching up (503 with Retry-After), ${rebuild.usage.other} otherwise`,
      details: rebuild.usage,
    }),
    makeRow({
      id: "scale-kill-restart",
      label: `After kill -9 during a verification flood, restart to an analytics answer counting every answered one, ${at}`,
      unit: "ms",
      ours: [kill.restartToAnalyticsMs],
      goal: { kind: "value-at-most", target: 10_000 },
      method: `verifyKey flooded (autocannon, ${CONNECTIONS} connections), the server SIGKILLed after 2 s, started again on its data: from spawn to the first 200 of a count of the flooded keys' verifications: ${kill.counted} more than before the flood, ${kill.answered} answered 200 before the kill${kill.counted >= kill.answered ? "" : " (FEWER COUNTED THAN ANSWERED)"}`,
      details: { answered: kill.answered, counted: kill.counted },
    }),
    makeRow({
      id: "scale-data",
      label: `Making the data with the admin CLI: keys seed + traffic (with its analytics copy), ${at} (vs ${atTenth})`,
      unit: "s",
      ours: [data.seedSeconds + data.trafficSeconds],
      floor: [tenthData.seedSeconds + tenthData.trafficSeconds],
      goal: { kind: "none" },
      method: `Wall time of npm run admin -- keys seed --count ${size.keys} (${round(data.seedSeconds)} s, load ${data.loadAtSeed}) and traffic --days 30 --count ${size.verifications} (${round(data.trafficSeconds)} s, load ${data.loadAtTraffic}), made ${data.madeAt}; at a tenth ${round(tenthData.seedSeconds)} s and ${round(tenthData.trafficSeconds)} s`,
      details: {
        seedSeconds: round(data.seedSeconds),
        trafficSeconds: round(data.trafficSeconds),
        tenthSeedSeconds: round(tenthData.seedSeconds),
        tenthTrafficSeconds: round(tenthData.trafficSeconds),
      },
    }),
  ];
}
