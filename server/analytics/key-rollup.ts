import type { Database, Statement } from "better-sqlite3";
import { catchUpSteps } from "./catch-up-steps";
import type { RollupPlan } from "./key-rollup-plan";
import type { QueryOutcome } from "./query-outcome";
import { FULL_SPEED, type Pacing } from "./pacing";
import { exactInteger } from "./result-json";
import { REFILL_BEHIND, sumsTableSql } from "./sums-refill";

/**
 * The per-hour sums by key (`key_verifications_per_hour` in `analytics-sums.sqlite`, beside the analytics store),
 * which answer the queries that key-rollup-plan.ts plans: folded from SQLite's key_verifications by seq before each
 * such query (up to the newest verification committed when it arrived), as DuckDB's copy is caught up before each of
 * its queries, then read. The analytics thread owns the file: folding never takes the write lock of the database the
 * verifications are written to.
 */

const HOUR_MS = 60 * 60 * 1000;
/**
 * At most this many rows of the sums read by one query, counted first (the count stops past it): about 10 ms of the
 * analytics thread, which other queries wait for; more goes to DuckDB, whose own threads run it.
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
   * too large to fold before answering (it is folded in the background), a fold that failed (tried again later, not
   * by this query), a shutdown. `at`: the instant the plan's `now()` is (the clock's now when undefined). Never rejects.
   */
  answer(
    workspaceId: string,
    plan: RollupPlan,
    limits: { maxRows: number; maxResultBytes: number },
    upTo: number,
    at?: number,
  ): Promise<QueryOutcome | undefined>;
  /** The seq of the newest verification the sums hold. */
  foldedSeq(): number;
  /**
   * Folds the verifications newer than the sums into them up to seq `upTo` (all there are now by default), a batch at
   * a time, yielding between batches; `background`: nobody waits for it, so it paces itself (pacing.ts) unless a
   * caller that waits comes.
   */
  catchUp(upTo?: number, options?: { background?: boolean }): Promise<void>;
  /** Ends the folding at its next batch; resolves once it has stopped. */
  stop(): Promise<void>;
}

/**
 * A fold's transaction aims at this much of the analytics thread (a query waits for it): its size follows how long
 * the last full one took. Rows of many keys land all over the sums (about 25 µs each with 10,000 keys), rows of few
 * keys or new hours at their end.
 */
const FOLD_TARGET_MS = 20;
/** After a failed fold, the next waits this long, doubling up to the last: never once per query. */
const RETRY_AFTER_MS = [2_000, 5_000, 15_000, 60_000];
const FOLD_ROWS = { first: 2_000, min: 250, max: 200_000 };
/** More verifications than this waiting to be folded: the query goes to DuckDB while they are (after a bulk load). */
const MAX_BACKLOG = 50_000;
const HOUR_OF = (ms: string) => `${ms} - ((${ms} % ${HOUR_MS}) + ${HOUR_MS}) % ${HOUR_MS}`;

class Stopped extends Error {}

/**
 * Attaches the sums file at `path` as `sums` to `sqlite` (whose main database holds the verifications), made for the
 * database `sourceId`: sums made from another database are emptied, to be folded anew.
 */
export function attachSums(sqlite: Database, path: string, sourceId: string): void {
  sqlite.prepare("ATTACH DATABASE ? AS sums").run(path);
  sqlite.exec(`
    PRAGMA sums.journal_mode = WAL;
    PRAGMA sums.synchronous = NORMAL;
    -- The sums' pages of a busy day stay in memory (a fold touches a page per key it adds to).
    PRAGMA sums.cache_size = -32768;
    -- A row is one key, hour (Unix ms of its start), outcome, key space and external id, as SQLite's index reads them:
    -- the usage of a page of keys is a range per key.
    ${sumsTableSql("sums.key_verifications_per_hour")};
    -- The sums hold the verifications up to seq, of the database source_id.
    CREATE TABLE IF NOT EXISTS sums.folded (
      only INTEGER PRIMARY KEY CHECK (only = 1),
      source_id TEXT NOT NULL,
      seq INTEGER NOT NULL
    ) STRICT;
  `);
  const maxSeq = sqlite.prepare<[], number | null>("SELECT max(seq) FROM main.key_verifications").pluck().get() ?? 0;
  const folded = sqlite.prepare<[], { source_id: string; seq: number }>("SELECT source_id, seq FROM sums.folded").get();
  if (folded !== undefined && folded.source_id === sourceId && folded.seq <= maxSeq) return;
  sqlite.transaction(() => {
    sqlite.exec("DELETE FROM sums.key_verifications_per_hour; DELETE FROM sums.folded");
    sqlite.prepare("INSERT INTO sums.folded (only, source_id, seq) VALUES (1, ?, 0)").run(sourceId);
  })();
}

/** How the sums are made anew from the analytics store when far behind it (sums-refill.ts). */
export interface StoreRefill {
  /** The seq of the newest verification the store holds. */
  copiedSeq(): number;
  /** Makes the sums anew from the store; resolves the seq they then hold. */
  refill(pacing: Pacing): Promise<number>;
}

/**
 * The sums in the `sums` database attached to `sqlite` (attachSums), kept by folding in new verifications from its
 * main database by seq, or made anew from the store (`fromStore`) when far behind it; `now` is the clock a plan's
 * `now() - INTERVAL …` bounds are read from when a query gives none.
 */
export function createKeyRollup(
  sqlite: Database,
  now: () => number = Date.now,
  fromStore?: StoreRefill,
  pacing: Pacing = FULL_SPEED,
): KeyRollup {
  const foldedSeq = sqlite.prepare<[], number>("SELECT seq FROM sums.folded WHERE only = 1").pluck();
  const maxSeq = sqlite.prepare<[], number | null>("SELECT max(seq) FROM main.key_verifications").pluck();
  // Sorted by key by the GROUP BY, a batch writes each page of the sums once.
  const fold = sqlite.prepare<[number, number]>(
    `INSERT INTO sums.key_verifications_per_hour
       (workspace_id, key_id, time, outcome, key_space_id, external_id, count, spent_credits)
     SELECT workspace_id, key_id, ${HOUR_OF("time")}, outcome, key_space_id, external_id, count(*), sum(spent_credits)
       FROM main.key_verifications
      WHERE seq > ? AND seq <= ?
      GROUP BY 1, 2, 3, 4, 5, 6
     ON CONFLICT DO UPDATE SET count = count + excluded.count, spent_credits = spent_credits + excluded.spent_credits`,
  );
  const setFoldedSeq = sqlite.prepare<[number]>("UPDATE sums.folded SET seq = ? WHERE only = 1");
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
  // A fold that failed: until retryAt, SQLite answers nothing and no query tries again.
  let failed: { retryAt: number; failures: number } | undefined;

  async function catchUpTo(upTo: number): Promise<void> {
    // Nothing new (the common case): one lookup.
    if (upTo <= (foldedSeq.get() ?? 0)) return;
    if (fromStore !== undefined && fromStore.copiedSeq() - (foldedSeq.get() ?? 0) > REFILL_BEHIND) {
      await fromStore.refill(urgent === 0 ? pacing : FULL_SPEED);
      if (stopped) throw new Stopped();
    }
    for (;;) {
      // Sums folded only in part must not answer: a query waiting for this fold goes to DuckDB.
      if (stopped) throw new Stopped();
      const startedAt = performance.now();
      // Deferred: the write lock of the sums' file only (this thread's own); the verifications are only read.
      const { covered, more } = foldBatch(batchRows, upTo);
      const elapsed = performance.now() - startedAt;
      // Only a full batch says how long its size takes.
      if (covered === batchRows && elapsed < FOLD_TARGET_MS / 2) batchRows = Math.min(batchRows * 2, FOLD_ROWS.max);
      else if (elapsed > FOLD_TARGET_MS * 2) batchRows = Math.max(Math.floor(batchRows / 2), FOLD_ROWS.min);
      if (!more) return;
      // Other queries run between two batches; with none waiting for the fold, it paces itself.
      const pauseMs = urgent > 0 ? 0 : pacing.pauseAfter(elapsed);
      await new Promise((resolve) => (pauseMs > 0 ? setTimeout(resolve, pauseMs) : setImmediate(resolve)));
    }
  }

  const step = catchUpSteps((upTo) =>
    catchUpTo(upTo).then(
      () => {
        failed = undefined;
      },
      (error: unknown) => {
        if (!(error instanceof Stopped)) {
          const failures = (failed?.failures ?? 0) + 1;
          const wait = RETRY_AFTER_MS[Math.min(failures, RETRY_AFTER_MS.length) - 1] ?? 60_000;
          failed = { retryAt: Date.now() + wait, failures };
        }
        throw error;
      },
    ),
  );
  const waiting = () => failed !== undefined && Date.now() < failed.retryAt;
  let running: Promise<void> | undefined;
  // Callers waiting for the fold (queries, the admin CLI): while there are none, it paces itself.
  let urgent = 0;
  function catchUp(upTo = maxSeq.get() ?? 0, { background = false } = {}): Promise<void> {
    if (waiting()) return Promise.reject(new Error("the last fold failed; it is tried again later"));
    running = step(upTo);
    if (background) return running;
    urgent += 1;
    const settled = () => {
      urgent -= 1;
    };
    running.then(settled, settled);
    return running;
  }

  function run(
    workspaceId: string,
    plan: RollupPlan,
    limits: { maxRows: number; maxResultBytes: number },
    at: number,
  ): QueryOutcome | undefined {
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
    async answer(workspaceId, plan, limits, upTo, at) {
      if (waiting() || stopped) return undefined;
      try {
        if (upTo - (foldedSeq.get() ?? 0) > MAX_BACKLOG) {
          // DuckDB answers this query; nobody waits for the fold, which paces itself (see the copy's 503).
          catchUp(upTo, { background: true }).catch(() => undefined);
          return undefined;
        }
        await catchUp(upTo);
        return run(workspaceId, plan, limits, at ?? now());
      } catch {
        return undefined;
      }
    },
    foldedSeq: () => foldedSeq.get() ?? 0,
    catchUp,
    async stop() {
      stopped = true;
      await running?.catch(() => undefined);
    },
  };
}
