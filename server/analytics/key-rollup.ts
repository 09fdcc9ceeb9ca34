import type { Database, Statement } from "better-sqlite3";
import { catchUpSteps } from "./catch-up-steps";
import type { RollupPlan } from "./key-rollup-plan";
import type { QueryOutcome } from "./query-outcome";
import { exactInteger } from "./result-json";

/**
 * SQLite's per-hour sums by key (`key_verifications_per_hour`, migration 6), which answer the queries that
 * key-rollup-plan.ts plans: folded from key_verifications by seq before each such query (up to the newest
 * verification committed when it arrived), as DuckDB's copy is caught up before each of its queries, then read.
 */

const HOUR_MS = 60 * 60 * 1000;
/**
 * At most this many rows of the sums read by one query, counted first (the count stops past it): about 10 ms of the
 * main thread here; more goes to DuckDB, whose work is off the main thread but for the result's JSON.
 */
export const ROLLUP_ROWS = 10_000;

/** `2026-11-25 10:00:00`: the hour as DuckDB writes a TIMESTAMP (UTC). */
function hourText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

export interface KeyRollup {
  /**
   * The plan's answer from the sums, folded up to seq `upTo` first (the newest verification when the query arrived);
   * undefined when SQLite cannot give it now and DuckDB must: more than ROLLUP_ROWS rows of sums to read, a backlog
   * too large to fold before answering (it is folded in the background), another process holding SQLite's write
   * lock, a fold that failed, a shutdown. Never rejects.
   */
  answer(
    workspaceId: string,
    plan: RollupPlan,
    limits: { maxRows: number; maxResultBytes: number },
    upTo: number,
  ): Promise<QueryOutcome | undefined>;
  /**
   * Folds the verifications newer than the sums into them up to seq `upTo` (all there are now by default), a batch at
   * a time, yielding between batches.
   */
  catchUp(upTo?: number): Promise<void>;
  /** Ends the folding at its next batch; resolves once it has stopped. */
  stop(): Promise<void>;
}

/**
 * A fold's transaction aims at this much of the main thread: its size follows how long the last full one took. Rows
 * of many keys land all over the sums (about 25 µs each with 10,000 keys), rows of few keys or new hours at their end.
 */
const FOLD_TARGET_MS = 20;
const FOLD_ROWS = { first: 2_000, min: 250, max: 200_000 };
/** More verifications than this waiting to be folded: the query goes to DuckDB while they are (after a bulk load). */
const MAX_BACKLOG = 50_000;
const HOUR_OF = (ms: string) => `${ms} - ((${ms} % ${HOUR_MS}) + ${HOUR_MS}) % ${HOUR_MS}`;

class Stopped extends Error {}

function isBusy(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "SQLITE_BUSY" || error.code === "SQLITE_LOCKED");
}

/**
 * The sums in `sqlite`'s key_verifications_per_hour, kept by folding in new verifications by seq (any process writes
 * them); `now` is the clock a plan's `now() - INTERVAL …` bounds are read from.
 */
export function createKeyRollup(sqlite: Database, now: () => number = Date.now): KeyRollup {
  const foldedSeq = sqlite.prepare<[], number>("SELECT seq FROM key_verifications_per_hour_seq WHERE id = 1").pluck();
  const maxSeq = sqlite.prepare<[], number | null>("SELECT max(seq) FROM key_verifications").pluck();
  // Sorted by key by the GROUP BY, a batch writes each page of the sums once.
  const fold = sqlite.prepare<[number, number]>(
    `INSERT INTO key_verifications_per_hour
       (workspace_id, key_id, time, outcome, key_space_id, external_id, count, spent_credits)
     SELECT workspace_id, key_id, ${HOUR_OF("time")}, outcome, key_space_id, external_id, count(*), sum(spent_credits)
       FROM key_verifications
      WHERE seq > ? AND seq <= ?
      GROUP BY 1, 2, 3, 4, 5, 6
     ON CONFLICT DO UPDATE SET count = count + excluded.count, spent_credits = spent_credits + excluded.spent_credits`,
  );
  const setFoldedSeq = sqlite.prepare<[number]>("UPDATE key_verifications_per_hour_seq SET seq = ? WHERE id = 1");
  /** One batch of at most `rows` seqs, none past `upTo`: how many seqs it covered, and whether more wait. */
  const foldBatch = sqlite.transaction((rows: number, upTo: number): { covered: number; more: boolean } => {
    const from = foldedSeq.get() ?? 0;
    const last = Math.min(maxSeq.get() ?? 0, upTo);
    if (last <= from) return { covered: 0, more: false };
    const to = Math.min(last, from + rows);
    fold.run(from, to);
    setFoldedSeq.run(to);
    return { covered: to - from, more: to < last };
  });
  let batchRows = FOLD_ROWS.first;

  /** A batch that never waits for another process's write lock: that fails at once (SQLITE_BUSY) instead of blocking. */
  function foldBatchNow(rows: number, upTo: number): { covered: number; more: boolean } {
    const timeout = sqlite.pragma("busy_timeout", { simple: true }) as number;
    sqlite.pragma("busy_timeout = 0");
    try {
      // IMMEDIATE: the write lock first, so two processes folding never both read the same seq.
      return foldBatch.immediate(rows, upTo);
    } finally {
      sqlite.pragma(`busy_timeout = ${timeout}`);
    }
  }

  // Prepared once per SQL text (a dashboard sends the same few shapes); the count's and the rows' apart.
  const counts = new Map<string, Statement<unknown[], number>>();
  const reads = new Map<string, Statement<unknown[], unknown[]>>();
  function prepared<Row>(
    cache: Map<string, Statement<unknown[], Row>>,
    sql: string,
    make: (sql: string) => Statement<unknown[], Row>,
  ) {
    let statement = cache.get(sql);
    if (statement === undefined) {
      if (cache.size >= 100) cache.clear();
      statement = make(sql);
      cache.set(sql, statement);
    }
    return statement;
  }
  const countOf = (sql: string) => prepared(counts, sql, (text) => sqlite.prepare<unknown[], number>(text).pluck());
  // Integers as bigints: a sum past 2^53 keeps its digits.
  const rowsOf = (sql: string) =>
    prepared(reads, sql, (text) => sqlite.prepare<unknown[], unknown[]>(text).raw().safeIntegers(true));

  let stopped = false;
  // A fold that failed for another reason than a lock (it would fail again): SQLite answers nothing more.
  let broken = false;

  async function catchUpTo(upTo: number): Promise<void> {
    // Nothing new (the common case): one lookup, no write lock.
    if (upTo <= (foldedSeq.get() ?? 0)) return;
    for (;;) {
      // Sums folded only in part must not answer: a query waiting for this fold goes to DuckDB.
      if (stopped) throw new Stopped();
      const startedAt = performance.now();
      const { covered, more } = foldBatchNow(batchRows, upTo);
      const elapsed = performance.now() - startedAt;
      // Only a full batch says how long its size takes.
      if (covered === batchRows && elapsed < FOLD_TARGET_MS / 2) batchRows = Math.min(batchRows * 2, FOLD_ROWS.max);
      else if (elapsed > FOLD_TARGET_MS * 2) batchRows = Math.max(Math.floor(batchRows / 2), FOLD_ROWS.min);
      if (!more) return;
      // Other requests run between two batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const step = catchUpSteps((upTo) =>
    catchUpTo(upTo).catch((error: unknown) => {
      if (!(error instanceof Stopped) && !isBusy(error)) broken = true;
      throw error;
    }),
  );
  let running: Promise<void> | undefined;
  function catchUp(upTo = maxSeq.get() ?? 0): Promise<void> {
    running = step(upTo);
    return running;
  }

  function run(
    workspaceId: string,
    plan: RollupPlan,
    limits: { maxRows: number; maxResultBytes: number },
  ): QueryOutcome | undefined {
    const at = now();
    const values = plan.params.map((param) => (param.kind === "text" ? param.value : at - param.offsetMs));
    if ((countOf(plan.countSql).get(workspaceId, ...values, ROLLUP_ROWS + 1) ?? 0) > ROLLUP_ROWS) return undefined;
    // One row over the limit tells a result over it from one at it.
    const limit = Math.min(plan.limit ?? Infinity, limits.maxRows + 1);
    const rows = rowsOf(plan.sql).all(workspaceId, ...values, limit, plan.offset);
    if (rows.length > limits.maxRows)
      return { kind: "limit", limit: "rows", message: `The query returns more than ${limits.maxRows} rows` };
    // A result repeats a few hours over and over: each one's text is made once.
    const hours = new Map<bigint, string>();
    const hourJson = (ms: bigint) => {
      let text = hours.get(ms);
      if (text === undefined) {
        text = JSON.stringify(hourText(Number(ms)));
        hours.set(ms, text);
      }
      return text;
    };
    let bytes = 0;
    const json: string[] = [];
    for (const row of rows) {
      let object = "{";
      plan.outputs.forEach((out, index) => {
        const value = row[index];
        const text =
          typeof value === "bigint"
            ? out.time
              ? hourJson(value)
              : JSON.stringify(exactInteger(value))
            : JSON.stringify(value);
        object += `${index === 0 ? "" : ","}${out.key}:${text}`;
      });
      json.push(`${object}}`);
      bytes += object.length + 2;
      if (bytes > limits.maxResultBytes)
        return { kind: "limit", limit: "memory", message: "The query's result is too large to return" };
    }
    return { kind: "rows", json: `[${json.join(",")}]`, rowCount: rows.length };
  }

  return {
    async answer(workspaceId, plan, limits, upTo) {
      if (broken || stopped) return undefined;
      try {
        if (upTo - (foldedSeq.get() ?? 0) > MAX_BACKLOG) {
          catchUp(upTo).catch(() => undefined);
          return undefined;
        }
        await catchUp(upTo);
        return run(workspaceId, plan, limits);
      } catch {
        return undefined;
      }
    },
    catchUp,
    async stop() {
      stopped = true;
      await running?.catch(() => undefined);
    },
  };
}
