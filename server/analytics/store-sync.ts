import type { DuckDBConnection } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";
import { catchUpSteps } from "./catch-up-steps";
import { FULL_SPEED, type Pacing } from "./pacing";
import {
  DROP_BATCH_TABLES_SQL,
  groupColumns,
  stageTableSql,
  VERIFICATIONS,
  type Family,
  type Rollup,
} from "./store-schema";

/**
 * Copies a family's SQLite table (`key_verifications`, `ratelimit_decisions`: the source of truth, written by any
 * process) into the analytics store by `seq`: a batch at a time, each batch's raw rows, the sums they add to the four
 * rollups and the seq they reach (the family's own mark) committed in one DuckDB transaction, so a crash (kill -9
 * included) loses no row and copies none twice.
 */

/**
 * Rows per transaction: bounds the staging table (about 12 MB of text, and its copies in SQLite, JavaScript and DuckDB)
 * and each commit. Rebuilding ten million rows from scratch, the server's resident memory peaked at 921 MiB with
 * 100,000 a batch and 829 MiB with 50,000. A batch that runs out of memory (queries hold the rest) is tried again at
 * a quarter of the size, down to the least.
 */
const BATCH_ROWS = { most: 50_000, least: 1_000 };
/** After a failed batch, the next attempt waits this long, doubling up to the last: never once per query. */
const RETRY_AFTER_MS = [2_000, 5_000, 15_000, 60_000];
/** Assumed until measured: rows a second a catch-up copies. */
const FIRST_RATE = 20_000;

// A row as one line of text: SQLite writes it and DuckDB splits it natively, several times faster than JSON both ways
// (measured 1.3 s against 3.3 s of CPU per million rows). Ids are this server's; the free texts go quoted as JSON,
// so no separator can hide in them. A line that splits into another count of fields (a separator in an id written by
// hand) sends the batch the slower JSON way.
const FIELD = "char(31)";
const LINE = "char(30)";

/** A column's name as a JSON key: without the quotes a keyword needs in SQL. */
const bare = (name: string) => name.replaceAll('"', "");

function rowText(family: Family): string {
  return family.columns.map((raw) => raw.text).join(` || ${FIELD} || `);
}

function stageFromText(family: Family): string {
  const fields = family.columns.map((raw, index) => raw.fromText(`f[${index + 1}]`)).join(", ");
  return `INSERT INTO temp.stage
    SELECT ${fields}
    FROM (SELECT string_split(line, chr(31)) AS f FROM (SELECT unnest(string_split($rows::VARCHAR, chr(30))) AS line))
    WHERE len(f) = ${family.columns.length}`;
}

function stageFromJson(family: Family): string {
  const structure = Object.fromEntries(family.columns.map((raw) => [bare(raw.name), raw.jsonType]));
  return `INSERT INTO temp.stage
    SELECT unnest(json_transform(value, '${JSON.stringify(structure)}')) FROM json_each($rows::VARCHAR)`;
}

function rowJson(family: Family): string {
  return `json_object(${family.columns.map((raw) => `'${bare(raw.name)}', ${raw.json}`).join(", ")})`;
}

/** Runs work one piece at a time, in the order given, whoever gives it. */
export type Turns = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Turns that copies sharing one DuckDB connection take, a batch each: its staging tables and its transaction are the
 * connection's, so two batches must not interleave.
 */
export function createTurns(): Turns {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const next = last.catch(() => undefined).then(work);
    last = next;
    return next;
  };
}

interface Batch {
  rows: string | null;
  last: number | null;
  count: number;
}

/** The copy stopped for a reason that will not go away by asking again at once; retried at `retryAt`. */
export class CatchUpFailed extends Error {
  constructor(
    readonly reason: string,
    readonly retryAt: number,
  ) {
    super(reason);
  }
}

export interface StoreSync {
  /** Whose rows it copies. */
  readonly family: Family;
  /** The seq of the last row the store holds. */
  readonly copiedSeq: number;
  /** The seq of the newest row committed in SQLite now. */
  newestSeq(): number;
  /**
   * Copies the rows SQLite has beyond the store's, up to `upTo` and no further however fast new ones come; rejects
   * with CatchUpFailed while a failed copy waits for its retry. `background`: nobody waits for it, so it paces itself
   * (pacing.ts) unless a caller that waits comes.
   */
  catchUp(upTo: number, options?: { background?: boolean }): Promise<void>;
  /** About how long copying `rows` more would take, from the rate of the copies so far. */
  secondsFor(rows: number): number;
  /** The failure the copy waits to retry, if any. */
  failure(): CatchUpFailed | undefined;
  /** Ends the copy after its current batch; resolves once it has stopped. */
  stop(): Promise<void>;
}

/** Resolves after `ms`, or at the next turn of the event loop for 0. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

/** An error's first line: DuckDB adds paragraphs of advice meant for whoever runs it by hand. */
function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("Out of Memory Error");
}

/** A TIMESTAMP or DATE as DuckDB writes it, checked before it goes into SQL as a literal. */
const TIME_TEXT = /^-?\d{4,}-\d\d-\d\d( \d\d:\d\d:\d\d(\.\d+)?)?$/;

function timeLiteral(rollup: Rollup, text: unknown): string {
  if (typeof text !== "string" || !TIME_TEXT.test(text)) throw new Error(`not a time: ${String(text)}`);
  return `${rollup.timeType} '${text}'`;
}

/**
 * Adds the staged rows' sums to the family's rollups, finest first, each one's from the one before's. Only the buckets
 * the new rows land in are read, by the tables' time order (their row groups' min and max): for a batch in time order,
 * the last bucket or two; rows of buckets past the newest one held are new and simply appended.
 */
async function addToRollups(connection: DuckDBConnection, family: Family): Promise<void> {
  const sameGroup = groupColumns(family)
    .map((name) => `r.${name} = d.${name}`)
    .join(" AND ");
  const added = family.measures.map((measure) => `${measure.name} = r.${measure.name} + d.${measure.name}`).join(", ");
  let source = "temp.stage";
  for (const [index, rollup] of family.rollups.entries()) {
    const delta = `temp.delta_${index}`;
    const measures = family.measures
      .map((measure) => `${index === 0 ? measure.fromRows : measure.fromSums} AS ${measure.name}`)
      .join(", ");
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE delta_${index} AS
       SELECT ${rollup.bucket("time")} AS time, ${family.groupColumns.join(", ")}, ${measures}
       FROM ${source} GROUP BY ALL`,
    );
    source = delta;
    const [first] = (await connection.runAndReadAll(`SELECT min(time)::VARCHAR FROM ${delta}`)).getRowsJS()[0] ?? [];
    if (first === null || first === undefined) continue;
    const from = timeLiteral(rollup, first);
    const [held] =
      (
        await connection.runAndReadAll(`SELECT max(time)::VARCHAR FROM ${rollup.table} WHERE time >= ${from}`)
      ).getRowsJS()[0] ?? [];
    if (held !== null && held !== undefined) {
      const span = `BETWEEN ${from} AND ${timeLiteral(rollup, held)}`;
      await connection.run(
        `UPDATE ${rollup.table} AS r SET ${added}
         FROM ${delta} AS d WHERE r.time ${span} AND d.time ${span} AND ${sameGroup}`,
      );
      // An anti join with the held rows of the span read first (their row groups only), not a NOT EXISTS (measured
      // several times slower: DuckDB plans it as a join per distinct outer row).
      await connection.run(
        `INSERT INTO ${rollup.table}
         SELECT d.* FROM ${delta} AS d
         ANTI JOIN (SELECT * FROM ${rollup.table} WHERE time ${span}) AS r ON ${sameGroup}
         WHERE d.time ${span}
         ORDER BY d.time`,
      );
    }
    const after = held === null || held === undefined ? "" : `WHERE time > ${timeLiteral(rollup, held)}`;
    await connection.run(`INSERT INTO ${rollup.table} SELECT * FROM ${delta} ${after} ORDER BY time`);
  }
}

/**
 * The copy of `sqlite`'s rows of `family` (read on this connection, the source database as `main`) into the store on
 * DuckDB's `connection`, which holds the rows up to `copiedSeq`.
 */
export function createStoreSync(
  sqlite: Database,
  connection: DuckDBConnection,
  copiedSeq: number,
  pacing: Pacing = FULL_SPEED,
  family: Family = VERIFICATIONS,
  inTurn: Turns = createTurns(),
): StoreSync {
  const rowsOf = `(SELECT * FROM main.${family.source} WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?)`;
  const textBatch = sqlite.prepare<[number, number, number], Batch>(
    `SELECT group_concat(${rowText(family)}, ${LINE} ORDER BY seq) AS rows, max(seq) AS last, count(*) AS count
     FROM ${rowsOf}`,
  );
  const jsonBatch = sqlite.prepare<[number, number, number], Batch>(
    `SELECT json_group_array(${rowJson(family)} ORDER BY seq) AS rows, max(seq) AS last, count(*) AS count
     FROM ${rowsOf}`,
  );
  const stageTable = stageTableSql(family);
  const fromText = stageFromText(family);
  const fromJson = stageFromJson(family);
  const maxSeq = sqlite.prepare<[], number | null>(`SELECT max(seq) FROM main.${family.source}`).pluck();
  let copied = copiedSeq;
  let stopped = false;
  let failed: CatchUpFailed | undefined;
  let failures = 0;
  let rowsPerSecond = FIRST_RATE;
  // Callers waiting for the copy (queries): while there are none, it is background work and paces itself.
  let urgent = 0;
  let batchRows = BATCH_ROWS.most;

  async function stageBatch(upTo: number): Promise<{ last: number; count: number } | undefined> {
    const batch = textBatch.get(copied, upTo, batchRows);
    if (batch?.last == null || batch.rows === null) return undefined;
    await connection.run(stageTable);
    await connection.run(fromText, { rows: batch.rows });
    const [stagedRows] = (await connection.runAndReadAll("SELECT count(*) FROM temp.stage")).getRowsJS()[0] ?? [];
    if (Number(stagedRows) !== batch.count) {
      const json = jsonBatch.get(copied, upTo, batchRows);
      await connection.run(stageTable);
      await connection.run(fromJson, { rows: json?.rows ?? "[]" });
    }
    return { last: batch.last, count: batch.count };
  }

  const copyBatch = (upTo: number) => inTurn(() => copyBatchNow(upTo));
  async function copyBatchNow(upTo: number): Promise<number> {
    try {
      const batch = await stageBatch(upTo);
      if (batch === undefined) return 0;
      await connection.run("BEGIN TRANSACTION");
      try {
        // In seq order as staged (the text is joined in seq order), which is about time order.
        await connection.run(`INSERT INTO ${family.raw} SELECT * FROM temp.stage`);
        await addToRollups(connection, family);
        await connection.run(`UPDATE store.meta SET ${family.mark} = $last`, { last: batch.last });
        await connection.run("COMMIT");
      } catch (error) {
        await connection.run("ROLLBACK").catch(() => undefined);
        throw error;
      }
      copied = batch.last;
      return batch.count;
    } finally {
      await connection.run(DROP_BATCH_TABLES_SQL).catch(() => undefined);
    }
  }

  async function catchUpTo(upTo: number): Promise<void> {
    if (failed !== undefined && Date.now() < failed.retryAt) throw failed;
    let busyMs = 0;
    let rows = 0;
    try {
      // Stops at the newest row committed (one may be numbered and not yet committed), or at `upTo`.
      while (!stopped && copied < upTo) {
        let count: number;
        const batchStartedAt = performance.now();
        try {
          count = await copyBatch(upTo);
        } catch (error) {
          if (!isOutOfMemory(error) || batchRows === BATCH_ROWS.least) throw error;
          batchRows = Math.max(BATCH_ROWS.least, Math.floor(batchRows / 4));
          continue;
        }
        if (count === 0) break;
        rows += count;
        busyMs += performance.now() - batchStartedAt;
        batchRows = Math.min(BATCH_ROWS.most, batchRows * 2);
        // Queries and other work get their turn between two batches. With no query waiting for it, the copy pauses
        // as the request thread's load says (pacing.ts): a rebuild of millions of rows leaves requests the machine.
        await pause(urgent > 0 ? 0 : pacing.pauseAfter(performance.now() - batchStartedAt));
      }
    } catch (error) {
      failures += 1;
      failed = new CatchUpFailed(
        errorMessage(error),
        Date.now() + (RETRY_AFTER_MS[Math.min(failures, RETRY_AFTER_MS.length) - 1] ?? 60_000),
      );
      throw failed;
    }
    failed = undefined;
    failures = 0;
    const seconds = busyMs / 1000;
    // Only a copy long enough to time says how fast copying goes (its pauses left out).
    if (rows >= 10_000 && seconds > 0) rowsPerSecond = rowsPerSecond / 2 + rows / seconds / 2;
  }

  let running: Promise<void> | undefined;
  const step = catchUpSteps(catchUpTo);
  return {
    family,
    get copiedSeq() {
      return copied;
    },
    newestSeq: () => maxSeq.get() ?? 0,
    catchUp(upTo, { background = false } = {}) {
      if (failed !== undefined && Date.now() < failed.retryAt) return Promise.reject(failed);
      running = step(upTo);
      if (background) return running;
      urgent += 1;
      const settled = () => {
        urgent -= 1;
      };
      running.then(settled, settled);
      return running;
    },
    secondsFor: (rows) => rows / rowsPerSecond,
    failure: () => (failed !== undefined && Date.now() < failed.retryAt ? failed : undefined),
    async stop() {
      stopped = true;
      await running?.catch(() => undefined);
    },
  };
}
