import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, type AnalyticsEngine } from "../../server/analytics/engine";
import { MAX_ANALYTICS_QUERY_LENGTH } from "../../src/lib/contract";
import { openDatabase } from "../../server/db/open";
import { parseUsageRows, parseVerificationRows } from "../../src/lib/analytics-rows";
import {
  REFUSALS_PAGE_SIZE,
  refusalsQuery,
  sqlString,
  usageQuery,
  verificationByRequestIdQuery,
} from "../../src/lib/analytics-sql";
import { usageTotalsChunks, usageTotalsFromRows, usageTotalsSql } from "../../src/features/keys/utils/usage";

/** The dashboard's analytics SQL, run unchanged by the reference server's engine, parsed by the dashboard's parsers. */
const WORKSPACE = "ws_Test1";
const OTHER_WORKSPACE = "ws_Other1";
const KEY = "key_Page12Key";
/** A key refused in a burst: many verifications at the very same millisecond. */
const BURST_KEY = "key_Burst12Key";
const BURST = 160;
const HOUR = 3_600_000;
const now = Date.now();

let sqlite: Database.Database;
let engine: AnalyticsEngine;

beforeAll(async () => {
  // On disk: the engine's thread opens the database from its file.
  sqlite = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-key-insight-")));
  const insert = sqlite.prepare(
    "INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, outcome, region, tags) VALUES (?, ?, ?, 'ks_1', ?, ?, 'eu-west-1', ?)",
  );
  insert.run("req_Valid1", now - 2 * HOUR, WORKSPACE, KEY, "VALID", JSON.stringify(["path=/api/users"]));
  insert.run("req_Expired1", now - HOUR, WORKSPACE, KEY, "EXPIRED", JSON.stringify(["path=/api/o'brien"]));
  insert.run("req_Expired2", now - 10 * 24 * HOUR, WORKSPACE, KEY, "EXPIRED", "[]");
  insert.run("req_Rate1", now - 30 * 24 * HOUR - HOUR, WORKSPACE, KEY, "RATE_LIMITED", "[]");
  insert.run("req_Foreign1", now - HOUR, OTHER_WORKSPACE, KEY, "DISABLED", "[]");
  for (let n = 0; n < BURST; n++)
    insert.run(`req_Burst${n + 1}`, now - HOUR, WORKSPACE, BURST_KEY, "RATE_LIMITED", "[]");
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

describe("the key page's SQL on the reference engine", () => {
  test("usage over 24 hours, 7 days and 30 days by outcome, of this workspace only", async () => {
    const day = parseUsageRows(await rows(usageQuery(KEY, "24h")));
    expect(day.map((row) => [row.outcome, row.total])).toEqual([
      ["VALID", 1],
      ["EXPIRED", 1],
    ]);
    expect(day[0]?.time).toBe(Math.floor((now - 2 * HOUR) / HOUR) * HOUR);
    const week = parseUsageRows(await rows(usageQuery(KEY, "7d")));
    expect(week.reduce((sum, row) => sum + row.total, 0)).toBe(2);
    const month = parseUsageRows(await rows(usageQuery(KEY, "30d")));
    expect(month.reduce((sum, row) => sum + row.total, 0)).toBe(3);
    expect(month.some((row) => row.outcome === "DISABLED")).toBe(false);
  });

  test("refusals newest first, filtered by a tag with a quote in it", async () => {
    const all = parseVerificationRows(await rows(refusalsQuery(KEY, {})));
    expect(all.map((row) => row.requestId)).toEqual(["req_Expired1", "req_Expired2", "req_Rate1"]);
    const tag = sqlString("path=/api/o'brien");
    if (!tag.ok) throw new Error(tag.reason);
    const tagged = parseVerificationRows(await rows(refusalsQuery(KEY, { tagLiteral: tag.literal })));
    expect(tagged.map((row) => row.requestId)).toEqual(["req_Expired1"]);
    expect(tagged[0]).toMatchObject({ outcome: "EXPIRED", region: "eu-west-1", tags: ["path=/api/o'brien"] });
    // After the second, the third; after the oldest (past the 30 days' retention), none, and no retention refusal.
    const after = (requestId: string, time: number) => rows(refusalsQuery(KEY, { after: { time, requestId } }));
    expect(
      parseVerificationRows(await after("req_Expired2", now - 10 * 24 * HOUR)).map((row) => row.requestId),
    ).toEqual(["req_Rate1"]);
    expect(await after("req_Rate1", now - 30 * 24 * HOUR - HOUR)).toEqual([]);
  });

  test("refusals at the very same millisecond are paged each once: a page's edge inside the burst skips none and repeats none", async () => {
    const seen: string[] = [];
    let page = parseVerificationRows(await rows(refusalsQuery(BURST_KEY, {})));
    while (page.length > REFUSALS_PAGE_SIZE) {
      const shown = page.slice(0, REFUSALS_PAGE_SIZE);
      seen.push(...shown.map((row) => row.requestId));
      const last = shown[shown.length - 1];
      if (last === undefined) break;
      page = parseVerificationRows(
        await rows(refusalsQuery(BURST_KEY, { after: { time: last.time, requestId: last.requestId } })),
      );
    }
    seen.push(...page.map((row) => row.requestId));
    expect(seen).toHaveLength(BURST);
    expect(new Set(seen).size).toBe(BURST);
  });

  test("a request id finds its verification with its key; another workspace's is not found", async () => {
    expect(parseVerificationRows(await rows(verificationByRequestIdQuery("req_Expired1")))).toEqual([
      {
        requestId: "req_Expired1",
        time: now - HOUR,
        keyId: KEY,
        outcome: "EXPIRED",
        region: "eu-west-1",
        tags: ["path=/api/o'brien"],
      },
    ]);
    expect(await rows(verificationByRequestIdQuery("req_Foreign1"))).toEqual([]);
  });
});

describe("the keys table's usage totals on the reference engine", () => {
  test("36-hour totals per key of this workspace, 0 for a key without verifications, chunk by chunk", async () => {
    const ids = [KEY, "key_NoUse1"];
    const [chunk] = usageTotalsChunks(ids);
    if (chunk === undefined) throw new Error("no chunk");
    expect(usageTotalsFromRows(await rows(usageTotalsSql(chunk)), chunk)).toEqual(
      new Map([
        [KEY, 2],
        ["key_NoUse1", 0],
      ]),
    );
  });

  test("every chunk's query for thousands of loaded keys fits the length the server takes", () => {
    const ids = Array.from({ length: 3_000 }, (_, index) => `key_${String(index).padStart(22, "A")}`);
    const chunks = usageTotalsChunks(ids);
    expect(chunks.flat()).toEqual(ids);
    const longest = Math.max(...chunks.map((chunk) => Buffer.byteLength(usageTotalsSql(chunk))));
    expect(longest).toBeLessThanOrEqual(MAX_ANALYTICS_QUERY_LENGTH);
  });
});
