import { afterAll, beforeAll, expect, test } from "vitest";
import { seedVerifications } from "../analytics-data";
import { callApi } from "../http";
import { startInProcessWithAnalytics } from "../in-process";
import examples from "./analytics-docs-examples.json";

/**
 * Every SQL statement of the real service's analytics docs pages that reads the verification tables
 * (docs/product/platform/analytics/*.mdx of its repository: a code block holding several statements gives one
 * example each), run unchanged against the reference server on seeded data.
 */

/** The examples that do not run, by their place in analytics-docs-examples.json, and why. */
const NOT_RUNNING = new Map([
  // The real service refuses these too (its retention check reads a lower bound this far back, for a 30-day workspace).
  [26, "query_range_exceeds_retention: a fixed billing period in January 2024"],
  [29, "query_range_exceeds_retention: INTERVAL 60 DAY"],
  [32, "query_range_exceeds_retention: INTERVAL 12 MONTH"],
  [35, "query_range_exceeds_retention: INTERVAL 12 MONTH (with WITH FILL)"],
]);

let server: Awaited<ReturnType<typeof startInProcessWithAnalytics>>;

beforeAll(async () => {
  server = await startInProcessWithAnalytics();
  seedVerifications(server.admin.db, { workspaceId: server.admin.workspaceId, count: 500, prefix: "docs" });
});

afterAll(async () => {
  await server.closeAll();
});

test(`the real analytics docs' examples run: ${examples.length - NOT_RUNNING.size} of ${examples.length}`, async () => {
  const failing = new Map<number, string>();
  for (const [index, { sql }] of examples.entries()) {
    const answer = await callApi(server, { path: "/v2/analytics.getVerifications", key: server.rootKey, body: { query: sql } });
    if (answer.status !== 200) failing.set(index, answer.text);
  }
  expect([...failing.keys()]).toEqual([...NOT_RUNNING.keys()]);
  for (const index of [26, 29, 32, 35]) expect(failing.get(index)).toContain("query_range_exceeds_retention");
  expect(examples.length - failing.size).toBeGreaterThanOrEqual(56);
}, 120_000);
