import { afterAll, beforeAll, expect, test } from "vitest";
import { loadFailed, runLoad } from "../../bench/load";
import { startServer, type StartedServer } from "../support/server-process";

// The short version of bench/load.ts (50 connections for 30 s): the same mix, for 5 s and at least 1,500 requests
// (a count, not a speed: the throughput target lives in the benchmark).
let server: StartedServer;
let rootKey: string;

beforeAll(async () => {
  server = await startServer();
  await server.admin(["keys", "seed", "--count", "500"]);
  rootKey = await server.admin(["root-key", "create", "--name", "load"]);
});

afterAll(async () => {
  await server.stop();
});

test("50 connections of mixed valid, invalid and unauthenticated requests for 5 s: no socket error, no 5xx, every answer right", async () => {
  const report = await runLoad({
    url: server.url,
    rootKey,
    connections: 50,
    durationMs: 5_000,
    minRequests: 1_500,
    sampleEvery: 5,
  });
  expect(report.wrong).toEqual([]);
  expect(report.socketErrors).toBe(0);
  expect(report.serverErrors).toBe(0);
  expect(loadFailed(report)).toBe(false);
  expect(report.requests).toBeGreaterThanOrEqual(1_500);
  expect(report.sampled).toBeGreaterThanOrEqual(300);
  // Every kind of request was in the mix, and the valid ones were answered with lists.
  expect(Object.keys(report.byKind)).toHaveLength(9);
  expect(report.byStatus["200"]).toBeGreaterThan(0);
  expect(report.byStatus["400"]).toBeGreaterThan(0);
  expect(report.byStatus["401"]).toBeGreaterThan(0);
  // And the server is still itself afterwards.
  const after = await fetch(`${server.url}/v2/liveness`);
  expect(after.status).toBe(200);
}, 120_000);

test("the load test refuses a target that is not this computer", async () => {
  await expect(runLoad({ url: "http://example.com", rootKey: "x", durationMs: 100 })).rejects.toThrow(
    /only targets this computer/,
  );
});
