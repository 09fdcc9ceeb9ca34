import { describe, expect, test } from "vitest";
import { quoteKeywordColumns } from "../../server/analytics/keyword-columns";
import { rewriteParametricCalls } from "../../server/analytics/parametric-calls";

/**
 * What the engine does to a query's text before DuckDB parses it: ClickHouse's parametric calls and keyword-named
 * columns in the forms DuckDB's grammar takes, and nothing else (strings, quoted names and comments untouched).
 */

describe("parametric calls", () => {
  test.each([
    ["SELECT quantile(0.9)(latency) AS p90 FROM t", "SELECT quantile(latency, 0.9) AS p90 FROM t"],
    ["SELECT quantile (0.5) ( latency ) FROM t", "SELECT quantile(latency, 0.5) FROM t"],
    [
      "SELECT quantilesTDigestMerge(0.75)(latency_p75)[1] FROM t",
      "SELECT quantilesTDigestMerge(latency_p75, 0.75)[1] FROM t",
    ],
    ["SELECT quantile(0.5)(quantile(0.9)(x)) FROM t", "SELECT quantile(quantile(x, 0.9), 0.5) FROM t"],
    ["SELECT f()(x) FROM t", "SELECT f(x) FROM t"],
  ])("%s", (written, rewritten) => {
    expect(rewriteParametricCalls(written)).toBe(rewritten);
  });

  test.each([
    "SELECT count(*) FROM t WHERE a IN (1, 2) AND b = (3)",
    "SELECT 'quantile(0.9)(x)' AS text FROM t",
    'SELECT "quantile(0.9)(x)" FROM t',
    "SELECT 1 -- quantile(0.9)(x)\nFROM t",
    "SELECT 1 /* quantile(0.9)(x) */ FROM t",
    "SELECT x FROM t WHERE EXISTS (SELECT 1) AND (y)",
    "SELECT row_number() OVER (ORDER BY x) FROM t",
    "SELECT quantile(0.9)(x FROM t",
  ])("left as written: %s", (sql) => {
    expect(rewriteParametricCalls(sql)).toBe(sql);
  });
});

describe("keyword-named columns", () => {
  test.each([
    ["SELECT limit, remaining FROM ratelimits_v1", 'SELECT "limit", remaining FROM ratelimits_v1'],
    ["SELECT identifier, limit FROM ratelimits_v1 LIMIT 10", 'SELECT identifier, "limit" FROM ratelimits_v1 LIMIT 10'],
    ["SELECT r.limit FROM ratelimits_v1 r", 'SELECT r."limit" FROM ratelimits_v1 r'],
    ["SELECT limit - remaining AS used FROM t", 'SELECT "limit" - remaining AS used FROM t'],
    ["SELECT max(limit) FROM t WHERE limit > 5", 'SELECT max("limit") FROM t WHERE "limit" > 5'],
    ["SELECT x FROM t ORDER BY limit DESC LIMIT 5", 'SELECT x FROM t ORDER BY "limit" DESC LIMIT 5'],
    ["SELECT limit AS l FROM t", 'SELECT "limit" AS l FROM t'],
  ])("%s", (written, rewritten) => {
    expect(quoteKeywordColumns(written)).toBe(rewritten);
  });

  test.each([
    "SELECT x FROM t LIMIT 50 OFFSET 0",
    "SELECT x FROM t LIMIT (SELECT 1)",
    "SELECT x FROM t LIMIT -5",
    "SELECT 'limit, x' FROM t",
    'SELECT "limit" FROM t',
    "SELECT ratelimit, limits FROM t",
  ])("left as written: %s", (sql) => {
    expect(quoteKeywordColumns(sql)).toBe(sql);
  });
});
