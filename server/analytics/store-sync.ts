import type { DuckDBConnection } from "@duckdb/node-api";
import type { Database, Statement } from "better-sqlite3";
import { catchUpSteps } from "./catch-up-steps";
import { FULL_SPEED, type Pacing } from "./pacing";
import { DROP_BATCH_TABLES_SQL, GROUP_COLUMNS, ROLLUPS, STAGE_TABLE_SQL, type Rollup } from "./store-schema";

/**
 * Copies SQLite's `key_verifications` (the source of truth, written by any process) into the analytics store by
 * `seq`: a batch at a time, each batch's raw rows, the sums they add to the four rollups and the seq they reach
 * committed in one DuckDB transaction, so a crash (kill -9 included) loses no row and copies none twice.
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
// so no separator can hide in them; tags are JSON already. A line that splits into another count of fields (a
// separator in an id written by hand) sends the batch the slower JSON way.
const FIELD = "char(31)";
const LINE = "char(30)";
const ROW_TEXT = [
  "seq",
  "request_id",
  "time",
  "workspace_id",
  "key_space_id",
  "json_quote(external_id)",
  "key_id",
  "outcome",
  "json_quote(region)",
  "tags",
  "spent_credits",
].join(` || ${FIELD} || `);
const STAGE_FROM_TEXT = `INSERT INTO temp.stage
  SELECT f[1]::BIGINT, f[2], f[3]::BIGINT, f[4], f[5], f[6]::JSON->>'$', f[7], f[8], f[9]::JSON->>'$',
         f[10]::JSON::VARCHAR[], f[11]::BIGINT
  FROM (SELECT string_split(line, chr(31)) AS f FROM (SELECT unnest(string_split($rows::VARCHAR, chr(30))) AS line))
  WHERE len(f) = 11`;
const STAGE_FROM_JSON = `INSERT INTO temp.stage
  SELECT unnest(json_transform(value, '{"seq":"BIGINT","request_id":"VARCHAR","time":"BIGINT","workspace_id":"VARCHAR",
    "key_space_id":"VARCHAR","external_id":"VARCHAR","key_id":"VARCHAR","outcome":"VARCHAR","region":"VARCHAR",
    "tags":["VARCHAR"],"spent_credits":"BIGINT"}')) FROM json_each($rows::VARCHAR)`;

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
  /** The seq of the last verification the store holds. */
  readonly copiedSeq: number;
  /** The seq of the newest verification committed in SQLite now. */
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

/** An error's first line: DuckDB adds paragraphs of advice meant for whoever runs it by hand. */
/** Resolves after `ms`, or at the next turn of the event loop for 0. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

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
 * Adds the staged rows' sums to the rollups, finest first, each one's from the one before's. Only the buckets the
 * new rows land in are read, by the tables' time order (their row groups' min and max): for a batch in time order,
 * the last bucket or two; rows of buckets past the newest one held are new and simply appended.
 */
async function addToRollups(connection: DuckDBConnection): Promise<void> {
  const sameGroup = GROUP_COLUMNS.map((column) => `r.${column} = d.${column}`).join(" AND ");
  let source = "temp.stage";
  for (const [index, rollup] of ROLLUPS.entries()) {
    const delta = `temp.delta_${index}`;
    const count = index === 0 ? "count(*)" : "sum(count)";
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE delta_${index} AS
       SELECT ${rollup.bucket("time")} AS time, workspace_id, key_space_id, external_id, key_id, outcome, tags,
              ${count} AS count, sum(spent_credits) AS spent_credits
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
        `UPDATE ${rollup.table} AS r
         SET count = r.count + d.count, spent_credits = r.spent_credits + d.spent_credits
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
 * The copy of `sqlite`'s verifications (read on this connection, the source database as `main`) into the store on
 * DuckDB's `connection`, which holds the rows up to `copiedSeq`.
 */
export function createStoreSync(
  sqlite: Database,
  connection: DuckDBConnection,
  copiedSeq: number,
  pacing: Pacing = FULL_SPEED,
): StoreSync {
  const batchOf = (row: string): Statement<[number, number, number], Batch> =>
    sqlite.prepare<[number, number, number], Batch>(
      `SELECT group_concat(${row}, ${LINE} ORDER BY seq) AS rows, max(seq) AS last, count(*) AS count
       FROM (SELECT * FROM main.key_verifications WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?)`,
    );
  const textBatch = batchOf(ROW_TEXT);
  const jsonBatch = sqlite.prepare<[number, number, number], Batch>(
    `SELECT json_group_array(json_object(
       'seq', seq, 'request_id', request_id, 'time', time, 'workspace_id', workspace_id, 'key_space_id', key_space_id,
       'external_id', external_id, 'key_id', key_id, 'outcome', outcome, 'region', region, 'tags', json(tags),
       'spent_credits', spent_credits) ORDER BY seq) AS rows, max(seq) AS last, count(*) AS count
     FROM (SELECT * FROM main.key_verifications WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?)`,
  );
  const maxSeq = sqlite.prepare<[], number | null>("SELECT max(seq) FROM main.key_verifications").pluck();
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
    await connection.run(STAGE_TABLE_SQL);
    await connection.run(STAGE_FROM_TEXT, { rows: batch.rows });
    const [stagedRows] = (await connection.runAndReadAll("SELECT count(*) FROM temp.stage")).getRowsJS()[0] ?? [];
    if (Number(stagedRows) !== batch.count) {
      const json = jsonBatch.get(copied, upTo, batchRows);
      await connection.run(STAGE_TABLE_SQL);
      await connection.run(STAGE_FROM_JSON, { rows: json?.rows ?? "[]" });
    }
    return { last: batch.last, count: batch.count };
  }

  async function copyBatch(upTo: number): Promise<number> {
    try {
      const batch = await stageBatch(upTo);
      if (batch === undefined) return 0;
      await connection.run("BEGIN TRANSACTION");
      try {
        // In seq order as staged (the text is joined in seq order), which is about time order.
        await connection.run("INSERT INTO store.verifications SELECT * FROM temp.stage");
        await addToRollups(connection);
        await connection.run("UPDATE store.meta SET copied_seq = $last", { last: batch.last });
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
