import type { Database } from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkQuery } from "../../server/analytics/check-query";
import { PUBLIC_TABLES } from "../../server/analytics/dialect";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsEngine } from "../../server/analytics/engine";
import { seedTwoWorkspaces } from "./analytics-data";

/** Generated queries through the checker and the engine: nothing throws, and only what should pass passes. */

let db: Database;
let engine: AnalyticsEngine;
let own: string;
let other: string;

beforeAll(async () => {
  ({ db, own, other } = seedTwoWorkspaces("checker", 300));
  engine = await createAnalyticsEngine(db, { ...DEFAULT_ANALYTICS_LIMITS, threads: 1, timeoutMs: 10_000 });
});

afterAll(async () => {
  await engine.close();
  db.close();
});

interface Part {
  sql: string;
  allowed: boolean;
}

const ALLOWED_TABLES: Part[] = PUBLIC_TABLES.map((sql) => ({ sql, allowed: true }));
const FORBIDDEN_TABLES: Part[] = [
  "store.verifications",
  "store.per_hour",
  "verifications",
  "information_schema.tables",
  "system.tables",
  "temp.key_verifications_v1",
  "duckdb_tables()",
  "read_csv('/etc/passwd')",
  "glob('/*')",
  "'/etc/passwd'",
].map((sql) => ({ sql, allowed: false }));

// Aggregates over the columns every public table has, so that an allowed query also binds and runs.
const ALLOWED_EXPRESSIONS: Part[] = [
  "count(*)",
  "uniq(key_id)",
  "uniqExact(outcome)",
  "max(time)",
  "countIf(outcome = 'VALID')",
  "sumIf(spent_credits, has(tags, 'path=/api/users'))",
  "groupUniqArray(outcome)",
  "min(lower(outcome))",
  "sum(length(tags))",
  "max(toString(time))",
  "avg(spent_credits) + 1",
].map((sql) => ({ sql, allowed: true }));
const FORBIDDEN_EXPRESSIONS: Part[] = [
  "getenv('HOME')",
  "current_setting('threads')",
  "version()",
  "read_text('/etc/passwd')",
  "md5(key_id)",
  "string_agg(key_id, ',')",
  "regexp_matches(key_id, 'x')",
  "list_aggregate(tags, 'count')",
].map((sql) => ({ sql, allowed: false }));

const table = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ALLOWED_TABLES) },
  { weight: 1, arbitrary: fc.constantFrom(...FORBIDDEN_TABLES) },
);
const expression = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ALLOWED_EXPRESSIONS) },
  { weight: 1, arbitrary: fc.constantFrom(...FORBIDDEN_EXPRESSIONS) },
);

function all(...parts: Part[]): boolean {
  return parts.every((part) => part.allowed);
}

/** `SELECT workspace_id, <expression> FROM <table> GROUP BY workspace_id`, nested in one of several shapes. */
const generatedQuery = fc.oneof(
  fc.record({ from: table, value: expression }).map(({ from, value }) => ({
    sql: `SELECT workspace_id, ${value.sql} AS v FROM ${from.sql} GROUP BY workspace_id`,
    allowed: all(from, value),
  })),
  fc
    .record({ inner: table, value: expression, name: fc.constantFrom("c", "key_verifications_v1", "verifications") })
    .map(({ inner, value, name }) => ({
      sql: `WITH ${name} AS (SELECT * FROM ${inner.sql}) SELECT workspace_id, ${value.sql} AS v FROM ${name} GROUP BY workspace_id`,
      allowed: all(inner, value),
    })),
  fc.record({ left: table, right: table, value: expression }).map(({ left, right, value }) => ({
    // The expression in HAVING: its type differs between tables, which UNION would refuse.
    sql: `SELECT workspace_id, count(*) AS v FROM ${left.sql} GROUP BY workspace_id HAVING ${value.sql} IS NOT NULL UNION ALL SELECT workspace_id, count(*) FROM ${right.sql} GROUP BY workspace_id`,
    allowed: all(left, right, value),
  })),
  fc.record({ outer: table, inner: table, value: expression }).map(({ outer, inner, value }) => ({
    sql: `SELECT workspace_id, ${value.sql} AS v FROM ${outer.sql} WHERE key_id IN (SELECT key_id FROM ${inner.sql}) GROUP BY workspace_id`,
    allowed: all(outer, inner, value),
  })),
  fc.record({ from: table, value: expression }).map(({ from, value }) => ({
    sql: `SELECT * FROM (SELECT workspace_id, ${value.sql} AS v FROM ${from.sql} GROUP BY workspace_id) AS s`,
    allowed: all(from, value),
  })),
);

const SQL_TOKENS = [
  "SELECT",
  "*",
  "FROM",
  "key_verifications_v1",
  "key_verifications_per_hour_v1",
  "store.verifications",
  "(",
  ")",
  ",",
  "WITH",
  "x",
  "AS",
  "UNION",
  "ALL",
  "getenv('HOME')",
  "count(*)",
  ";",
  "DROP",
  "TABLE",
  "WHERE",
  "1",
  "=",
  "'a'",
  "workspace_id",
  "read_csv('/etc/passwd')",
  "--",
  "/*",
  "*/",
  "ATTACH",
  "COPY",
  "TO",
  "'/tmp/x'",
  "SET",
  "PRAGMA",
  "INSERT",
  "INTO",
  "VALUES",
];

describe("generated queries", () => {
  test("the engine accepts a generated query exactly when all its tables and functions are allowed, and shows only the caller's rows", async () => {
    await fc.assert(
      fc.asyncProperty(generatedQuery, async ({ sql, allowed }) => {
        const outcome = await engine.query(own, sql);
        if (allowed) {
          expect(outcome).toMatchObject({ kind: "rows" });
          if (outcome.kind === "rows") expect(outcome.json).not.toContain(other);
        } else {
          expect(outcome.kind).toBe("refused");
          if (outcome.kind === "refused") expect(["table", "function"]).toContain(outcome.refusal);
        }
      }),
      { numRuns: 150 },
    );
  });

  test("token soup never makes the engine throw, and never shows another workspace's rows", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...SQL_TOKENS), { maxLength: 14 }), async (tokens) => {
        const outcome = await engine.query(own, tokens.join(" "));
        expect(["rows", "refused", "limit"]).toContain(outcome.kind);
        if (outcome.kind === "rows") expect(outcome.json).not.toContain(other);
      }),
      { numRuns: 300 },
    );
  });

  test("arbitrary text never makes the engine throw", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        const outcome = await engine.query(own, text);
        expect(["rows", "refused", "limit"]).toContain(outcome.kind);
      }),
      { numRuns: 200 },
    );
  });

  test("the checker never throws on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = checkQuery(value);
        expect(typeof result.ok).toBe("boolean");
      }),
      { numRuns: 500 },
    );
  });
});
