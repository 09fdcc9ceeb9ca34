import { performance } from "node:perf_hooks";
import type { Worker } from "node:worker_threads";
import type { Database } from "better-sqlite3";
import { DEFAULT_ANALYTICS_LIMITS, type AnalyticsLimits } from "./limits";
import type { QueryOutcome } from "./query-outcome";
import type { RetentionResult } from "./retention";
import { DEFAULT_RETENTION_DAYS } from "../db/workspaces";
import { claimStore, releaseStore, type StoreLocation } from "./store-files";
import { FAMILIES, type FamilyName } from "./store-schema";
import type { CatchUpState, FromWorker, ToWorker, WorkerConfig } from "./worker-protocol";
import { startTypeScriptWorker } from "./worker-thread";

export { DEFAULT_ANALYTICS_LIMITS, type AnalyticsLimits } from "./limits";

/**
 * `analytics.getVerifications`' and `analytics.getRatelimits`' engine, as the request thread sees it: every query goes
 * by message to the analytics thread (analytics-worker.ts), which owns DuckDB, its store on disk (beside the SQLite
 * file) and the copies of new verifications and rate-limit decisions into it, so no copy, fold or result JSON ever runs
 * on the thread that answers requests.
 */
export interface AnalyticsEngine {
  /**
   * Runs an analytics query over the verifications' tables, one workspace's rows only, and of those only the key
   * spaces (APIs) in `keySpaceIds` when given (none when empty), refusing a lower time bound more than `retentionDays`
   * back (the workspace's retention; 30 days unless given); never rejects for anything the query does, nor when
   * analytics cannot answer (an `unavailable` outcome says why and when to ask again).
   */
  query(
    workspaceId: string,
    sql: string,
    retentionDays?: number,
    keySpaceIds?: readonly string[],
  ): Promise<QueryOutcome>;
  /** As `query`, over the rate-limit decisions' tables, and of those only the namespaces in `namespaceIds` when given. */
  queryRatelimits(
    workspaceId: string,
    sql: string,
    retentionDays?: number,
    namespaceIds?: readonly string[],
  ): Promise<QueryOutcome>;
  /**
   * Copies (and sums) the verifications and rate-limit decisions SQLite holds now beyond the store's; resolves how far
   * the family's copy (the verifications' unless given) and the sums by key are.
   */
  catchUp(family?: FamilyName): Promise<FamilyCatchUp>;
  /** Deletes what each workspace's retention no longer reaches (as the engine's clock reads now). */
  enforceRetention(): Promise<RetentionResult>;
  /** How many queries DuckDB is executing right now. */
  readonly runningQueries: number;
  /** Stops the copy, interrupts the queries still running, and closes DuckDB and its files. */
  close(): Promise<void>;
}

export interface AnalyticsEngineOptions {
  /** Whether the queries about a few keys' per-hour sums are answered from SQLite (key-rollup.ts); tests turn it off to compare. */
  rollup: boolean;
  /**
   * The clock (Unix ms) that `now()`, `now64()` and `today()` in a query, the retention check, SQLite's sums and
   * retention on disk read. Unset: the host's (DuckDB's own for a query's `now()`). Tests pin it, so that what they
   * compute and what a query answers agree on the day and hour whenever they run.
   */
  now?: () => number;
  /** How often the store catches up by itself, without waiting for a query (1 s unless given; 0: never). */
  catchUpEveryMs?: number;
  /** How often rows past their workspace's retention are deleted, the first time once the store has caught up; unset: only when asked. */
  retentionEveryMs?: number;
}

/** How far one family's copy has got, and (the verifications') the sums by key. */
export interface FamilyCatchUp {
  copiedSeq: number;
  foldedSeq: number | undefined;
}

const DEFAULT_OPTIONS: AnalyticsEngineOptions = { rollup: true };
const CATCH_UP_EVERY_MS = 1_000;
/** The analytics thread's JavaScript heap: a batch's text (about 12 MB), a result's JSON (at most 64 MiB, twice). */
const WORKER_HEAP_MIB = 256;
/** How often the analytics thread hears how busy the request thread is. */
const LOAD_EVERY_MS = 500;
/** After the analytics thread died, a new one is started for the next query, at most this often. */
const RESTART_AFTER_MS = 5_000;

type Pending =
  | { kind: "query"; resolve: (outcome: QueryOutcome) => void }
  | { kind: "catch-up"; resolve: (state: CatchUpState) => void; reject: (error: Error) => void }
  | { kind: "retention"; resolve: (result: RetentionResult) => void; reject: (error: Error) => void }
  | { kind: "close"; resolve: () => void; reject: (error: Error) => void };

/** The analytics thread, started: a promise of its first message, and its pending requests by id. */
interface Thread {
  worker: Worker;
  ready: Promise<boolean>;
  pending: Map<number, Pending>;
  location: StoreLocation;
}

function unavailable(message: string, retryAfterSeconds: number): QueryOutcome {
  return { kind: "unavailable", message, retryAfterSeconds };
}

/**
 * Starts the analytics thread over the SQLite file `sqlite` is open on (its store beside it) and resolves once the
 * thread has opened its store. The first copy of what the store lacks runs in the background; queries that arrive
 * before it is done wait for it when it is short, or are told analytics is catching up.
 */
export async function createAnalyticsEngine(
  sqlite: Database,
  limits: AnalyticsLimits = DEFAULT_ANALYTICS_LIMITS,
  options: AnalyticsEngineOptions = DEFAULT_OPTIONS,
): Promise<AnalyticsEngine> {
  if (sqlite.memory) throw new Error("the analytics engine reads the database from its file: open one on disk");
  const newestSeqs = {
    verifications: sqlite.prepare<[], number | null>(`SELECT max(seq) FROM ${FAMILIES.verifications.source}`).pluck(),
    ratelimits: sqlite.prepare<[], number | null>(`SELECT max(seq) FROM ${FAMILIES.ratelimits.source}`).pluck(),
  };
  const clock = options.now ?? Date.now;
  let nextId = 1;
  let closed = false;
  let running = 0;
  let thread: Thread | undefined;
  let diedAt = 0;
  let died = "";

  function settle(current: Thread, message: FromWorker): void {
    if (message.type === "running") {
      running = message.count;
      return;
    }
    if (!("id" in message)) return;
    const waiting = current.pending.get(message.id);
    if (waiting === undefined) return;
    current.pending.delete(message.id);
    if (message.type === "answer" && waiting.kind === "query") waiting.resolve(message.outcome);
    else if (message.type === "caught-up" && waiting.kind === "catch-up") waiting.resolve(message.state);
    else if (message.type === "retained" && waiting.kind === "retention") waiting.resolve(message.result);
    else if (message.type === "closed" && waiting.kind === "close") waiting.resolve();
    else if (message.type === "error") {
      if (waiting.kind === "query") waiting.resolve(unavailable(`Analytics failed: ${message.message}`, 5));
      else waiting.reject(new Error(message.message));
    }
  }

  /** Everything still waiting on a thread that is gone: answered, never left hanging. */
  function abandon(current: Thread, reason: string): void {
    for (const waiting of current.pending.values()) {
      if (waiting.kind === "query") waiting.resolve(unavailable(reason, Math.ceil(RESTART_AFTER_MS / 1000)));
      else if (waiting.kind === "close") waiting.resolve();
      else waiting.reject(new Error(reason));
    }
    current.pending.clear();
    running = 0;
  }

  function start(): Thread {
    const location = claimStore(sqlite.name);
    const config: WorkerConfig = {
      sqlitePath: sqlite.name,
      location,
      limits,
      rollup: options.rollup,
      backgroundMs: options.catchUpEveryMs === 0 ? undefined : (options.catchUpEveryMs ?? CATCH_UP_EVERY_MS),
      progress: false,
    };
    const worker = startTypeScriptWorker(new URL("./analytics-worker.ts", import.meta.url), {
      workerData: config,
      // The thread's own JavaScript heap, bounded: batches of rows pass through it as text, and a result as JSON.
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MIB },
    });
    let markReady: (ok: boolean) => void = () => undefined;
    const current: Thread = {
      worker,
      ready: new Promise<boolean>((resolve) => (markReady = resolve)),
      pending: new Map(),
      location,
    };
    worker.on("message", (message: FromWorker) => {
      if (message.type === "ready") {
        // Another process held the data directory's store: the thread keeps a private one, removed at close.
        if (message.location.dir !== location.dir) current.location = message.location;
        markReady(true);
      } else if (message.type === "failed") {
        died = `Analytics could not open its store: ${message.message}`;
        markReady(false);
      } else settle(current, message);
    });
    const gone = (reason: string) => {
      if (thread === current) thread = undefined;
      diedAt = Date.now();
      died ||= reason;
      markReady(false);
      abandon(current, died);
      releaseStore(location);
      if (current.location !== location) releaseStore(current.location);
    };
    worker.on("error", (error) => gone(`Analytics stopped: ${error.message}`));
    worker.on("exit", (code) => gone(`Analytics stopped (exit code ${code})`));
    return current;
  }

  /** The running thread, started anew when it died a while ago; undefined while it may not be. */
  async function live(): Promise<Thread | undefined> {
    if (closed) return undefined;
    if (thread === undefined && Date.now() - diedAt >= RESTART_AFTER_MS) {
      died = "";
      thread = start();
    }
    const current = thread;
    if (current === undefined || !(await current.ready)) return undefined;
    return current;
  }

  function ask(current: Thread, message: Exclude<ToWorker, { type: "load" }>, waiting: Pending): void {
    current.pending.set(message.id, waiting);
    current.worker.postMessage(message);
  }

  const first = start();
  thread = first;
  if (!(await first.ready)) {
    const reason = died;
    await first.worker.terminate();
    throw new Error(reason);
  }

  /** One family's query, answered from the rows of it committed when the query arrived. */
  async function query(
    family: FamilyName,
    workspaceId: string,
    sql: string,
    retentionDays: number,
    narrowTo: readonly string[] | undefined,
  ): Promise<QueryOutcome> {
    if (closed) return { kind: "refused", refusal: "query", message: "The server is shutting down" };
    // The rows committed when the query arrived are what it answers from: a catch-up that chased the newest rows
    // would answer only once new ones stop coming.
    const upTo = newestSeqs[family].get() ?? 0;
    const now = options.now?.();
    const current = await live();
    if (current === undefined) return unavailable(died || "Analytics is starting", Math.ceil(RESTART_AFTER_MS / 1000));
    return new Promise<QueryOutcome>((resolve) => {
      const id = nextId++;
      const request = { family, workspaceId, sql, retentionDays, narrowTo, upTo, now };
      ask(current, { type: "query", id, request }, { kind: "query", resolve });
    });
  }

  let retentionTimer: NodeJS.Timeout | undefined;
  // How busy this thread is, told to the analytics thread twice a second: its background work yields to requests.
  let utilization = performance.eventLoopUtilization();
  const loadTimer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const lately = performance.eventLoopUtilization(now, utilization);
    utilization = now;
    thread?.worker.postMessage({ type: "load", utilization: lately.utilization } satisfies ToWorker);
  }, LOAD_EVERY_MS).unref();
  const engine: AnalyticsEngine = {
    get runningQueries() {
      return running;
    },
    query: (workspaceId, sql, retentionDays = DEFAULT_RETENTION_DAYS, keySpaceIds = undefined) =>
      query("verifications", workspaceId, sql, retentionDays, keySpaceIds),
    queryRatelimits: (workspaceId, sql, retentionDays = DEFAULT_RETENTION_DAYS, namespaceIds = undefined) =>
      query("ratelimits", workspaceId, sql, retentionDays, namespaceIds),
    async catchUp(family = "verifications") {
      const current = await live();
      if (current === undefined) throw new Error(died || "analytics is closed");
      const state = await new Promise<CatchUpState>((resolve, reject) => {
        const id = nextId++;
        ask(current, { type: "catch-up", id }, { kind: "catch-up", resolve, reject });
      });
      return {
        copiedSeq: state.copiedSeqs[family],
        foldedSeq: family === "verifications" ? state.foldedSeq : undefined,
      };
    },
    async enforceRetention() {
      const current = await live();
      if (current === undefined) throw new Error(died || "analytics is closed");
      return new Promise<RetentionResult>((resolve, reject) => {
        const id = nextId++;
        ask(current, { type: "retention", id, now: clock() }, { kind: "retention", resolve, reject });
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retentionTimer);
      clearInterval(loadTimer);
      const current = thread;
      if (current === undefined) return;
      await new Promise<void>((resolve, reject) => {
        const id = nextId++;
        ask(current, { type: "close", id }, { kind: "close", resolve, reject });
      }).catch(() => undefined);
      await current.worker.terminate();
    },
  };

  if (options.retentionEveryMs !== undefined) {
    const every = options.retentionEveryMs;
    const sweep = () => {
      engine
        .enforceRetention()
        .catch(() => undefined)
        .finally(() => {
          if (!closed) retentionTimer = setTimeout(sweep, every).unref();
        });
    };
    // The first sweep asks for a catch-up first (the thread does), so it runs once the store is current.
    retentionTimer = setTimeout(sweep, 0).unref();
  }
  return engine;
}
