import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import type { QueryOutcome } from "../../server/analytics/query-outcome";
import { openDatabase } from "../../server/db/open";
import { createWorkspace } from "../../server/db/workspaces";
import { grainOf } from "../../src/lib/analytics-grain";
import { parseBlockedRows, parseNamespaceIdRows, parseRatelimitBucketRows } from "../../src/lib/analytics-rows";
import {
  namespaceOfOverridesQuery,
  ratelimitChartQuery,
  ratelimitTopBlockedQuery,
  TOP_BLOCKED,
} from "../../src/lib/ratelimit-sql";
import { resolveRange, type PresetId } from "../../src/lib/time-range";

/**
 * A namespace's history as the dashboard asks it (src/lib/ratelimit-sql.ts), run unchanged by the reference server's
 * engine over decisions written as the limiter records them, and parsed by the dashboard's parsers: every range's
 * counts equal a plain count of the decisions, whichever table answers, and the identifiers blocked most come with
 * their latest decision's limit and override.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// A moment long past, off every bucket's edge, pinned as the engine's clock.
const NOW = Date.UTC(2026, 5, 20, 12, 34, 56, 789);

interface Decision {
  time: number;
  namespaceId: string;
  identifier: string;
  passed: boolean;
  limit: number;
  overrideId: string;
}

function rowsOf(outcome: QueryOutcome): unknown[] {
  if (outcome.kind !== "rows") throw new Error(`${outcome.kind}: ${"message" in outcome ? outcome.message : ""}`);
  return JSON.parse(outcome.json) as unknown[];
}

/** 29 days of decisions in two namespaces, with a burst or two blocked, limits changing and overrides coming and going. */
function decisionsOf(): Decision[] {
  const made: Decision[] = [];
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const identifiers = ["user_1", "user_2", "team_acme", "team_42", "banned_bot", "o'brien"];
  for (let time = NOW - 29 * DAY; time <= NOW; time += Math.floor(3 * MINUTE + random() * 40 * MINUTE)) {
    const identifier = identifiers[Math.floor(random() * identifiers.length)] ?? "user_1";
    const banned = identifier === "banned_bot";
    const team = identifier.startsWith("team_");
    made.push({
      time,
      namespaceId: random() < 0.8 ? "rlns_Ours" : "rlns_Theirs",
      identifier,
      passed: banned ? false : random() > 0.2,
      limit: banned ? 0 : team ? 50 : time > NOW - 3 * DAY ? 20 : 10,
      overrideId: banned ? "rlor_Ban" : team ? "rlor_Team" : "",
    });
  }
  // A burst within the last minutes, in one millisecond: the latest decision of user_2 is one of several at once.
  for (let i = 0; i < 5; i += 1)
    made.push({
      time: NOW - 2 * MINUTE,
      namespaceId: "rlns_Ours",
      identifier: "user_2",
      passed: i === 0,
      limit: 30,
      overrideId: "",
    });
  return made;
}

describe("a namespace's history on the reference engine", () => {
  let db: Database;
  let engine: AnalyticsEngine;
  let workspace: string;
  const decisions = decisionsOf();
  const ask = async (sql: string) => rowsOf(await engine.queryRatelimits(workspace, sql, 30));

  beforeAll(async () => {
    db = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-ratelimit-sql-")));
    workspace = createWorkspace(db, "History");
    const insert = db.prepare(
      `INSERT INTO ratelimit_decisions (request_id, time, workspace_id, namespace_id, identifier, passed, latency,
         override_id, "limit", remaining, reset_at, tokens) VALUES (?, ?, ?, ?, ?, ?, 0.3, ?, ?, 0, ?, 1)`,
    );
    db.transaction(() => {
      decisions.forEach((decision, index) =>
        insert.run(
          `req_${index}`,
          decision.time,
          workspace,
          decision.namespaceId,
          decision.identifier,
          decision.passed ? 1 : 0,
          decision.overrideId,
          decision.limit,
          decision.time + MINUTE,
        ),
      );
    })();
    engine = await createAnalyticsEngine(
      db,
      { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 },
      { rollup: true, catchUpEveryMs: 0, now: () => NOW },
    );
    await engine.catchUp("ratelimits");
  });

  afterAll(async () => {
    await engine.close();
    db.close();
  });

  const inRange = (from: number, to: number) =>
    decisions.filter((d) => d.namespaceId === "rlns_Ours" && d.time >= from && d.time <= to);

  test.each<PresetId>(["1h", "24h", "7d", "30d"])(
    "the %s chart counts exactly the decisions in the range, passed and blocked, whichever table answers",
    async (preset) => {
      const range = resolveRange({ kind: "preset", preset }, NOW);
      const grain = grainOf(range.bucketMs);
      const rows = parseRatelimitBucketRows(
        await ask(ratelimitChartQuery({ namespaceId: "rlns_Ours", from: range.from, to: range.to }, grain)),
      );
      const expected = new Map<number, { passed: number; total: number }>();
      for (const d of inRange(range.from, range.to)) {
        const bucket = Math.floor(d.time / range.bucketMs) * range.bucketMs;
        const counts = expected.get(bucket) ?? { passed: 0, total: 0 };
        expected.set(bucket, { passed: counts.passed + (d.passed ? 1 : 0), total: counts.total + 1 });
      }
      const got = new Map<number, { passed: number; total: number }>();
      for (const row of rows) {
        const bucket = Math.floor(row.bucket / range.bucketMs) * range.bucketMs;
        const counts = got.get(bucket) ?? { passed: 0, total: 0 };
        got.set(bucket, { passed: counts.passed + row.passed, total: counts.total + row.total });
      }
      expect(new Map([...got].filter(([, counts]) => counts.total > 0))).toEqual(expected);
    },
  );

  test("the identifiers blocked most, most first, with their latest decision's limit and override in the range", async () => {
    const range = resolveRange({ kind: "preset", preset: "30d" }, NOW);
    const rows = parseBlockedRows(
      await ask(ratelimitTopBlockedQuery({ namespaceId: "rlns_Ours", from: range.from, to: range.to }, "day")),
    );
    const byIdentifier = new Map<string, Decision[]>();
    for (const d of inRange(range.from, range.to))
      byIdentifier.set(d.identifier, [...(byIdentifier.get(d.identifier) ?? []), d]);
    const expected = [...byIdentifier]
      .map(([identifier, list]) => {
        const latest = Math.max(...list.map((d) => d.time));
        const last = list.filter((d) => d.time === latest);
        return {
          identifier,
          blocked: list.filter((d) => !d.passed).length,
          passed: list.filter((d) => d.passed).length,
          lastTime: latest,
          lastLimit: Math.max(...last.map((d) => d.limit)),
          lastOverrideId:
            last
              .map((d) => d.overrideId)
              .sort()
              .at(-1) ?? "",
        };
      })
      .filter((row) => row.blocked > 0)
      .sort((a, b) => b.blocked - a.blocked || (a.identifier < b.identifier ? -1 : 1))
      .slice(0, TOP_BLOCKED);
    expect(rows).toEqual(expected);
    expect(rows.find((row) => row.identifier === "banned_bot")).toMatchObject({
      lastLimit: 0,
      lastOverrideId: "rlor_Ban",
    });
    expect(rows.find((row) => row.identifier === "user_2")).toMatchObject({ lastLimit: 30, lastOverrideId: "" });
  });

  test("a namespace is found by the id of an override it applied, and by nothing else", async () => {
    const since = NOW - 29 * DAY;
    expect(parseNamespaceIdRows(await ask(namespaceOfOverridesQuery(["rlor_Nope", "rlor_Team"], since)))).toMatch(
      /^rlns_(Ours|Theirs)$/,
    );
    expect(parseNamespaceIdRows(await ask(namespaceOfOverridesQuery(["rlor_Nope"], since)))).toBeUndefined();
  });
});
