import { join } from "node:path";
import { expect, test } from "vitest";
import { DEFAULT_ANALYTICS_LIMITS } from "../../server/analytics/limits";
import { openStore } from "../../server/analytics/open-store";
import { FULL_SPEED } from "../../server/analytics/pacing";
import { refillSums } from "../../server/analytics/sums-refill";
import { seedTwoWorkspaces } from "./analytics-data";

/**
 * The per-hour sums by key made anew from the store's per-hour rollup (for sums far behind it: a million keys' rows
 * folded one by one took minutes) hold exactly what folding every verification gives, and the seq of the store.
 */

test("sums made anew from the store are the folded sums, row for row, at the store's seq", async () => {
  const { db, own } = seedTwoWorkspaces("sums-refill", 4_000);
  const insert = db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'ks_big', 'key_big', '', 'VALID', 'local', '[]', ?)`,
  );
  // Sums past 2^53 keep their digits; a row before 1970 lands in its hour.
  for (let index = 0; index < 3; index += 1) insert.run(`req_big${index}`, Date.now(), own, Number.MAX_SAFE_INTEGER);
  insert.run("req_old", -1, own, 1);
  const newest = db.prepare<[], number>("SELECT max(seq) FROM key_verifications").pluck().get() ?? 0;
  db.close();

  const dir = join(db.name, "..");
  const store = await openStore({
    sqlitePath: db.name,
    location: { dir, private: false },
    limits: { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 },
    rollup: true,
    whenHeld: "fail",
  });
  try {
    await store.copies.verifications.catchUp(newest);
    await store.keyRollup?.catchUp(newest);
    const sums = store.sqlite
      .prepare(
        "SELECT * FROM sums.key_verifications_per_hour ORDER BY workspace_id, key_id, time, outcome, key_space_id, external_id",
      )
      .raw()
      .safeIntegers(true);
    const folded = sums.all();
    expect(folded.length).toBeGreaterThan(1_000);

    expect(await refillSums(store.sqlite, store.instance, FULL_SPEED)).toBe(newest);
    expect(sums.all()).toEqual(folded);
    expect(store.sqlite.prepare("SELECT seq FROM sums.folded").pluck().get()).toBe(newest);
    expect(store.sqlite.prepare("SELECT count(*) FROM sums.sqlite_master WHERE name = 'refill'").pluck().get()).toBe(0);
  } finally {
    await store.close();
  }
});
