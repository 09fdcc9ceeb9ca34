import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS } from "../../server/analytics/engine";
import { createWorkspace } from "../../server/db/workspaces";
import { openDatabase } from "../../server/db/open";
import { usageSql } from "../../src/features/keys/utils/usage";

/**
 * A query answers from the rows committed when it arrived, however fast new ones come (#28 item 9), on the engine
 * itself: a second connection (as another process would) commits verifications at WRITE_RATE, spread over the turns of
 * the event loop, so new rows land during every await of a catch-up. Before, the catch-up (of DuckDB's copy and of SQLite's per-hour
 * sums alike) copied batch after batch until none was new, which here is when the writer stops at WRITE_LIMIT. The
 * HTTP version under a real verifyKey flood is analytics-under-load.test.ts.
 */

/** Rows per millisecond, spread over the turns of the event loop: a verifyKey flood's rate on a small machine. */
const WRITE_RATE = 5;
/** The writer's bound: a minute at that rate, many times what the queries need. */
const WRITE_LIMIT = 300_000;
const KEY_IDS = ["key_writer1", "key_writer2", "key_writer3"];

const Rows = v.array(v.object({ n: v.optional(v.number()), count: v.optional(v.number()) }));

test(
  "while another connection commits verifications without pause, queries answer before it stops, counting what was committed on arrival",
  { timeout: 300_000 },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "keyscope-catch-up-"));
    const db = openDatabase(dataDir);
    const workspaceId = createWorkspace(db, "Busy");
    const engine = await createAnalyticsEngine(db, { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 });
    const writerDb = openDatabase(dataDir);
    const insert = writerDb.prepare<[string, number, string, string]>(
      `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'ks_busy', ?, '', 'VALID', 'local', '[]', 0)`,
    );
    const writeRows = writerDb.transaction((from: number, to: number) => {
      for (let index = from; index < to; index += 1)
        insert.run(`req_w${index}`, Date.now(), workspaceId, KEY_IDS[index % KEY_IDS.length] ?? "");
    });
    const committed = db.prepare<[], number>("SELECT count(*) FROM key_verifications").pluck();
    let written = 0;
    let writing = true;
    const startedAt = performance.now();
    const writer = new Promise<void>((resolve) => {
      const turn = () => {
        if (!writing || written >= WRITE_LIMIT) return resolve();
        const due = Math.min(WRITE_LIMIT, Math.floor((performance.now() - startedAt) * WRITE_RATE));
        if (due > written) {
          writeRows(written, due);
          written = due;
        }
        setImmediate(turn);
      };
      setImmediate(turn);
    });

    async function rows(sql: string) {
      const outcome = await engine.query(workspaceId, sql);
      if (outcome.kind !== "rows") throw new Error(`${outcome.kind}: ${outcome.message}`);
      return v.parse(Rows, JSON.parse(outcome.json));
    }
    const queries = {
      "a count over key_verifications_v1 (DuckDB's copy)": async () =>
        (await rows("SELECT count(*) AS n FROM key_verifications_v1"))[0]?.n ?? 0,
      "the keys page's usage query (SQLite's per-hour sums)": async () =>
        (await rows(usageSql(KEY_IDS))).reduce((sum, row) => sum + (row.count ?? 0), 0),
    };
    try {
      for (const [name, ask] of Object.entries(queries)) {
        for (let round = 0; round < 3; round += 1) {
          while (written < (round + 1) * 1_000) await new Promise((resolve) => setImmediate(resolve));
          const before = committed.get() ?? 0;
          const counted = await ask();
          const after = committed.get() ?? 0;
          const context = `${name}, round ${round}: ${before} committed when sent, ${after} when answered, writer at ${written} of ${WRITE_LIMIT}`;
          expect(counted, context).toBeGreaterThanOrEqual(before);
          expect(counted, context).toBeLessThanOrEqual(after);
          expect(written, context).toBeLessThan(WRITE_LIMIT);
        }
      }
    } finally {
      writing = false;
      await writer;
      await engine.close();
      writerDb.close();
      db.close();
    }
  },
);

test(
  "after catch-ups that add to buckets already summed, each rollup holds one row per group with the raw rows' sums",
  { timeout: 120_000 },
  async () => {
    const db = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-rollups-")));
    const workspaceId = createWorkspace(db, "Summed");
    const engine = await createAnalyticsEngine(db, { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 });
    const insert = db.prepare<[string, number, string, string, string, string, number]>(
      `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'ks_summed', ?, '', ?, 'local', ?, ?)`,
    );
    const now = Date.now();
    const outcomes = ["VALID", "RATE_LIMITED", "USAGE_EXCEEDED"];
    const tags = ["[]", '["path=/a"]', '["path=/a","plan=pro"]'];
    /** `count` rows from `offset`: spread over 40 days, so each batch lands in minutes, hours, days and months of the others. */
    const seed = db.transaction((offset: number, count: number) => {
      for (let index = offset; index < offset + count; index += 1) {
        const time = now - ((index * 7_919_993) % (40 * 24 * 60 * 60 * 1000));
        insert.run(
          `req_s${index}`,
          time,
          workspaceId,
          `key_${index % 5}`,
          outcomes[index % 3] ?? "",
          tags[index % 3] ?? "[]",
          index % 4,
        );
      }
    });
    const buckets = {
      key_verifications_per_minute_v1: "toStartOfMinute(fromUnixTimestamp64Milli(time))",
      key_verifications_per_hour_v1: "toStartOfHour(fromUnixTimestamp64Milli(time))",
      key_verifications_per_day_v1: "toDate(fromUnixTimestamp64Milli(time))",
      key_verifications_per_month_v1: "toStartOfMonth(fromUnixTimestamp64Milli(time))",
    };
    async function json(sql: string): Promise<string> {
      const outcome = await engine.query(workspaceId, sql);
      if (outcome.kind !== "rows") throw new Error(`${outcome.kind}: ${outcome.message}`);
      return outcome.json;
    }
    try {
      let seeded = 0;
      for (const count of [3_000, 500, 1, 2_000]) {
        seed(seeded, count);
        seeded += count;
        for (const [table, bucket] of Object.entries(buckets)) {
          const columns = "key_space_id, external_id, key_id, outcome, tags";
          const rollup = await json(`SELECT time, ${columns}, count, spent_credits FROM ${table} ORDER BY ALL`);
          const raw = await json(
            `SELECT ${bucket} AS time, ${columns}, count(*) AS count, sum(spent_credits) AS spent_credits FROM key_verifications_v1 GROUP BY ALL ORDER BY ALL`,
          );
          expect(rollup, `${table} after ${seeded} rows`).toBe(raw);
        }
      }
    } finally {
      await engine.close();
      db.close();
    }
  },
);
