import type { DuckDBInstance } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";
import type { Pacing } from "./pacing";

/**
 * The per-hour sums by key made anew from the store's per-hour rollup (which holds the same sums, by tags too),
 * instead of folded from the raw rows: for sums far behind the store (a data directory from before they had a file of
 * their own, sums lost, millions of rows recorded by the admin CLI). Folding a million keys' rows lands each on a
 * page of its own, tens of microseconds a row; this writes each page once, in the index's order.
 */

/** Sums further behind the store than this are made anew rather than folded on. */
export const REFILL_BEHIND = 500_000;

const SUMS_COLUMNS = `
  workspace_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  key_space_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  count INTEGER NOT NULL,
  spent_credits INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, key_id, time, outcome, key_space_id, external_id)`;

/** The sums table, as attachSums makes it (and the refill before it takes its place). */
export function sumsTableSql(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (${SUMS_COLUMNS}) STRICT, WITHOUT ROWID`;
}

/**
 * Makes the sums anew from the store as of now (one snapshot: the rollup and the seq it holds), part by part of the
 * key ids in order, pausing between parts as `pacing` says; resolves the seq the new sums hold.
 */
export async function refillSums(sqlite: Database, instance: DuckDBInstance, pacing: Pacing): Promise<number> {
  const connection = await instance.connect();
  try {
    // One transaction: every part read from the same snapshot of the store, whatever the copy commits meanwhile.
    await connection.run("BEGIN TRANSACTION");
    const [seq] = (await connection.runAndReadAll("SELECT copied_seq FROM store.meta")).getRowsJS()[0] ?? [];
    // Parts by the key id's first characters (after `key_`: one of 58, in order), each grouped and sorted in memory.
    const parts = (
      await connection.runAndReadAll("SELECT DISTINCT substr(key_id, 1, 5) AS part FROM store.per_hour ORDER BY part")
    )
      .getColumnsJS()[0]
      ?.filter((part): part is string => typeof part === "string");
    sqlite.exec(`DROP TABLE IF EXISTS sums.refill; ${sumsTableSql("sums.refill")}`);
    const insert = sqlite.prepare("INSERT INTO sums.refill VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    const insertRows = sqlite.transaction((rows: unknown[][]) => {
      for (const row of rows) insert.run(...row);
    });
    for (const part of parts ?? []) {
      const startedAt = performance.now();
      const result = await connection.stream(
        `SELECT workspace_id, key_id, epoch_ms(time) AS time, outcome, key_space_id, external_id,
                sum(count)::BIGINT AS count, sum(spent_credits)::BIGINT AS spent_credits
         FROM store.per_hour WHERE substr(key_id, 1, 5) = $part
         GROUP BY ALL ORDER BY workspace_id, key_id, time, outcome, key_space_id, external_id`,
        { part },
      );
      for (;;) {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        insertRows(chunk.getRows());
      }
      const elapsed = performance.now() - startedAt;
      const pause = pacing.pauseAfter(elapsed);
      await new Promise((resolve) => (pause > 0 ? setTimeout(resolve, pause) : setImmediate(resolve)));
    }
    await connection.run("COMMIT");
    sqlite.transaction(() => {
      sqlite.exec(
        "DROP TABLE sums.key_verifications_per_hour; ALTER TABLE sums.refill RENAME TO key_verifications_per_hour",
      );
      sqlite.prepare("UPDATE sums.folded SET seq = ?").run(Number(seq));
    })();
    return Number(seq);
  } finally {
    connection.closeSync();
  }
}
