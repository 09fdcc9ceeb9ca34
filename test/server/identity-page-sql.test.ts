import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, type AnalyticsEngine } from "../../server/analytics/engine";
import { openDatabase } from "../../server/db/open";
import { parseKeyRefusalsRows, parseUsageRows } from "../../src/lib/analytics-rows";
import { identityRefusalsQuery, identityUsageQuery, windowStart } from "../../src/lib/analytics-sql";

/** An identity's page's analytics SQL, run unchanged by the reference server's engine, parsed by the dashboard's parsers. */
const WORKSPACE = "ws_Test1";
const OTHER_WORKSPACE = "ws_Other1";
const HOUR = 3_600_000;
const now = Date.now();

let sqlite: Database.Database;
let engine: AnalyticsEngine;

beforeAll(async () => {
  // On disk: the engine's thread opens the database from its file.
  sqlite = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-identity-sql-")));
  const insert = sqlite.prepare(
    "INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region) VALUES (?, ?, ?, 'ks_1', ?, ?, ?, 'eu-west-1')",
  );
  insert.run("req_V1", now - 2 * HOUR, WORKSPACE, "key_A1", "o'brien", "VALID");
  insert.run("req_R1", now - 2 * HOUR, WORKSPACE, "key_A1", "o'brien", "RATE_LIMITED");
  insert.run("req_R2", now - HOUR, WORKSPACE, "key_B2", "o'brien", "RATE_LIMITED");
  insert.run("req_R3", now - HOUR + 5, WORKSPACE, "key_B2", "o'brien", "RATE_LIMITED");
  insert.run("req_E1", now - 3 * 24 * HOUR, WORKSPACE, "key_A1", "o'brien", "EXPIRED");
  insert.run("req_N1", now - HOUR, WORKSPACE, "key_C3", "someone_else", "RATE_LIMITED");
  insert.run("req_F1", now - HOUR, OTHER_WORKSPACE, "key_A1", "o'brien", "DISABLED");
  engine = await createAnalyticsEngine(sqlite);
});

afterAll(async () => {
  await engine.close();
  sqlite.close();
});

async function rows(sql: string): Promise<unknown[]> {
  const outcome = await engine.query(WORKSPACE, sql);
  if (outcome.kind !== "rows") throw new Error(`refused: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json) as unknown[];
}

describe("an identity's page's SQL on the reference engine", () => {
  test("its verifications per hour and day by outcome, by its external id (a quote in it), of this workspace only", async () => {
    const day = parseUsageRows(await rows(identityUsageQuery("o'brien", "24h")));
    const sum = (usage: typeof day, outcome: string) =>
      usage.filter((row) => row.outcome === outcome).reduce((total, row) => total + row.total, 0);
    expect(sum(day, "VALID")).toBe(1);
    expect(sum(day, "RATE_LIMITED")).toBe(3);
    expect(sum(day, "EXPIRED")).toBe(0);
    expect(sum(day, "DISABLED")).toBe(0);
    const week = parseUsageRows(await rows(identityUsageQuery("o'brien", "7d")));
    expect(sum(week, "EXPIRED")).toBe(1);
  });

  test("its refusals by key and outcome, most first, with the newest one's time", async () => {
    const refused = parseKeyRefusalsRows(await rows(identityRefusalsQuery("o'brien", windowStart("24h", now))));
    expect(refused).toEqual([
      { keyId: "key_B2", outcome: "RATE_LIMITED", total: 2, latest: now - HOUR + 5 },
      { keyId: "key_A1", outcome: "RATE_LIMITED", total: 1, latest: now - 2 * HOUR },
    ]);
    const month = parseKeyRefusalsRows(await rows(identityRefusalsQuery("o'brien", windowStart("30d", now))));
    expect(month.map((row) => [row.keyId, row.outcome])).toContainEqual(["key_A1", "EXPIRED"]);
  });
});
