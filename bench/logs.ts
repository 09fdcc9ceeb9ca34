import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { LOG_PAGE_SIZE } from "../src/features/logs/api/log-queries";
import { LiveScheduler, LIVE_POLICY, type LiveClock } from "../src/features/logs/live-scheduler";
import { DEFAULT_VIEW, filterOf } from "../src/features/logs/log-view";
import { resolveRange, type PresetId } from "../src/lib/time-range";
import { grainOf } from "../src/lib/analytics-grain";
import { logChartQuery, logPageQuery, logTopRefusedQuery } from "../src/lib/log-sql";
import {
  postAnalytics,
  postAnalyticsWhenCaughtUp,
  seedVerifications,
  startServerProcess,
  sumsFolded,
} from "./analytics";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";

export interface LogsBenchOptions {
  /** Verifications written to SQLite before the server starts, over 30 days: the data size the figures are for. */
  verifications: number;
  keys: number;
  /** Timed rounds of each query. */
  rounds: number;
  log: (line: string) => void;
}

const HOUR_MS = 3_600_000;

/** The Logs page's own queries for a preset range (no filter), resolved at `now` as the page resolves them. */
export function viewQueries(preset: PresetId, now: number) {
  const range = resolveRange({ kind: "preset", preset }, now);
  const filter = filterOf({ ...DEFAULT_VIEW, range: { kind: "preset", preset } }, range);
  const grain = grainOf(range.bucketMs);
  return {
    page: logPageQuery(filter, { size: LOG_PAGE_SIZE }),
    chart: logChartQuery(filter, grain),
    top: logTopRefusedQuery(filter, grain),
  };
}

/**
 * The queries Live starts in an hour, on a clock of its own (an hour in a moment): a verification arriving before
 * every `1 / arrivalRate`-th query, the tab visible the first `visibleShare` of every ten minutes.
 */
export async function liveQueriesInAnHour({
  arrivalRate,
  visibleShare = 1,
}: {
  arrivalRate: number;
  visibleShare?: number;
}): Promise<number> {
  let now = 0;
  let nextId = 0;
  const timers: { at: number; callback: () => void; id: number }[] = [];
  const clock: LiveClock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout: (handle) => {
      const index = timers.findIndex((timer) => timer.id === handle);
      if (index >= 0) timers.splice(index, 1);
    },
  };
  let polls = 0;
  let owed = 0;
  const scheduler = new LiveScheduler(
    () => {
      polls += 1;
      owed += arrivalRate;
      const arrived = Math.floor(owed);
      owed -= arrived;
      return Promise.resolve({ kind: "rows", arrived });
    },
    undefined,
    clock,
  );
  const tenMinutes = 600_000;
  // When the tab hides and shows again: hidden from `visibleShare` of each ten minutes to its end.
  const changes: { at: number; visible: boolean }[] = [];
  if (visibleShare < 1)
    for (let start = 0; start < HOUR_MS; start += tenMinutes)
      changes.push(
        { at: start + visibleShare * tenMinutes, visible: false },
        { at: start + tenMinutes, visible: true },
      );
  scheduler.start();
  for (;;) {
    timers.sort((a, b) => a.at - b.at || a.id - b.id);
    const timer = timers[0];
    const change = changes[0];
    if (change !== undefined && change.at < HOUR_MS && (timer === undefined || change.at <= timer.at)) {
      changes.shift();
      now = change.at;
      scheduler.setVisible(change.visible);
      continue;
    }
    if (timer === undefined || timer.at >= HOUR_MS) break;
    timers.shift();
    now = timer.at;
    timer.callback();
    // Its answer before the next timer: Live sees it at the moment it asked.
    await new Promise((resolve) => setImmediate(resolve));
  }
  scheduler.stop();
  return polls;
}

/**
 * With `verifications` spread over 30 days (straight into SQLite, as the analytics bench writes them): the Logs
 * page's first page of rows and its chart over 24 hours and 30 days, each its own analytics query on the reference
 * server, as the page sends them; and the queries a Live view starts in an hour, counted on a clock of its own.
 */
export async function benchLogs(options: LogsBenchOptions): Promise<BenchRow[]> {
  const { log } = options;
  const size = options.verifications.toLocaleString("en");
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-bench-logs-"));
  try {
    const first = await startServerProcess(dataDir);
    await first.stop();
    await first.admin(["keys", "seed", "--count", String(options.keys)]);
    const rootKey =
      (await first.admin(["root-key", "create", "--name", "bench", "--permissions", "api.*.read_analytics"]))
        .split(/\s+/)
        .at(-1) ?? "";
    const seededAt = performance.now();
    seedVerifications(dataDir, options.verifications);
    log(`logs: ${size} verifications seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`);

    const server = await startServerProcess(dataDir);
    try {
      const ask = async (query: string): Promise<{ ms: number; rows: number }> => {
        const startedAt = performance.now();
        const answer = await postAnalytics(server.url, rootKey, query);
        const ms = performance.now() - startedAt;
        if (answer.status !== 200) throw new Error(`analytics answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        return { ms, rows: (JSON.parse(answer.body) as { data: unknown[] }).data.length };
      };
      // The engine's copy of the verifications and its per-hour sums by key, which the server makes in the background
      // from its start (a query is told 503 until the copy is done): before any timing.
      const copiedAt = performance.now();
      const copied = await postAnalyticsWhenCaughtUp(
        server.url,
        rootKey,
        "SELECT count(*) AS n FROM key_verifications_v1",
      );
      if (copied.status !== 200) throw new Error(`analytics answered ${copied.status}: ${copied.body.slice(0, 300)}`);
      await sumsFolded(dataDir);
      log(
        `logs: the engine's copy and its sums were ready ${((performance.now() - copiedAt) / 1000).toFixed(1)} s after the server listened`,
      );

      const firstPage: number[] = [];
      const day: number[] = [];
      const month: number[] = [];
      const top: number[] = [];
      let pageRows = 0;
      // One warm-up round, then the timed ones; each round resolves its ranges anew, as a Refresh would.
      for (let round = -1; round < options.rounds; round++) {
        const now = Date.now();
        const last24 = viewQueries("24h", now);
        const last30 = viewQueries("30d", now);
        const page = await ask(last24.page);
        const dayChart = await ask(last24.chart);
        const monthChart = await ask(last30.chart);
        const dayTop = await ask(last24.top);
        if (round < 0) continue;
        pageRows = page.rows;
        firstPage.push(page.ms);
        day.push(dayChart.ms);
        month.push(monthChart.ms);
        top.push(dayTop.ms);
      }
      log(
        `logs: first page ${round(median(firstPage), 1)} ms, 24-hour chart ${round(median(day), 1)} ms, 30-day chart ${round(median(month), 1)} ms, 24-hour top refused ${round(median(top), 1)} ms`,
      );

      const steady = await liveQueriesInAnHour({ arrivalRate: 1 });
      const quiet = await liveQueriesInAnHour({ arrivalRate: 0 });
      const sparse = await liveQueriesInAnHour({ arrivalRate: 0.05 });
      const halfHidden = await liveQueriesInAnHour({ arrivalRate: 1, visibleShare: 0.5 });
      log(
        `logs: Live in an hour: ${steady} queries with arrivals, ${quiet} quiet, ${sparse} sparse, ${halfHidden} half hidden`,
      );

      const timed = (samples: number[]) => ({
        p90Ms: round(quantile(samples, 0.9), 2),
        maxMs: round(Math.max(...samples), 2),
      });
      const method = (what: string) =>
        `${options.rounds} rounds after one warm-up, one query after the other, keep-alive client: the Logs page's own ${what} (src/lib/log-sql.ts, its range resolved by the page's code at each round) over ${size} verifications of ${options.keys.toLocaleString("en")} keys spread over 30 days, written straight into SQLite; the reference server (DuckDB) answers`;
      return [
        makeRow({
          id: "logs-first-page",
          label: `The log's first page, last 24 hours (${size} verifications)`,
          unit: "ms",
          ours: firstPage,
          goal: { kind: "value-at-most", target: 500 },
          method: method(`first page (${LOG_PAGE_SIZE} rows and one, newest first, no filter)`),
          details: { ...timed(firstPage), rows: pageRows, verifications: options.verifications },
        }),
        makeRow({
          id: "logs-chart-24h",
          label: `The log's 24-hour chart (${size} verifications)`,
          unit: "ms",
          ours: day,
          goal: { kind: "value-at-most", target: 500 },
          method: method(
            "chart query (hours: the per-hour table for whole hours, single verifications for the last one)",
          ),
          details: { ...timed(day), verifications: options.verifications, topRefusedMedianMs: round(median(top), 2) },
        }),
        makeRow({
          id: "logs-chart-30d",
          label: `The log's 30-day chart (${size} verifications)`,
          unit: "ms",
          ours: month,
          goal: { kind: "value-at-most", target: 2000 },
          method: method("chart query (days: the per-day table for whole days, single verifications for today)"),
          details: { ...timed(month), verifications: options.verifications },
        }),
        makeRow({
          id: "logs-live-queries-hour",
          label: "Analytics queries a Live view starts in an hour, verifications arriving all the time",
          unit: "queries",
          ours: [steady],
          goal: { kind: "value-at-most", target: LIVE_POLICY.budgetPerHour },
          method:
            "LiveScheduler (src/features/logs/live-scheduler.ts) driven through an hour on a clock of its own, its queries answered at once: every query finds a new verification; also counted: none ever arrive (it slows to one every 30 s), one in twenty finds one, and arrivals all the time with the tab hidden half of every ten minutes",
          details: { quiet, oneInTwenty: sparse, hiddenHalfTheTime: halfHidden },
        }),
      ];
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
