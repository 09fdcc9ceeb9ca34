import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createApp } from "../../server/app";
import { openDatabase } from "../../server/db/open";
import { createRateLimiter } from "../../server/auth/rate-limit";
import { directMode } from "../../server/process/start";
import { startServer } from "../support/server-process";
import { callApi, type ApiTarget } from "./http";
import { IN_PROCESS_URL, startInProcess } from "./in-process";

/**
 * A root key's rate limit holds however its requests arrive: many at once, on several connections, across a
 * restart of the server, and through several server processes on one data directory. (Reported once: a key
 * made with --ratelimit 3/60s got 11 answers of 200 within 8 s. The limiter lived in each process's memory,
 * so every restart, and every other process on the same data, handed out a fresh allowance.)
 */

const WINDOW = { limit: 3, windowMs: 60_000 };

function statuses(answers: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe("the limiter", () => {
  test("a window allows `limit` requests, says how long until the next, and opens again after `windowMs`", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "keyscope-limiter-"));
    const db = new Database(":memory:");
    let now = 1_000_000;
    const limiter = createRateLimiter(db, dataDir, () => now);

    expect([1, 2, 3].map(() => limiter.take("key_a", WINDOW))).toEqual([undefined, undefined, undefined]);
    expect(limiter.take("key_a", WINDOW)).toBe(60);
    now += 45_500;
    expect(limiter.take("key_a", WINDOW)).toBe(15);
    expect(limiter.take("key_b", WINDOW)).toBeUndefined();
    now += 14_500;
    expect(limiter.take("key_a", WINDOW)).toBeUndefined();
    db.close();
  });

  test("two servers on one data directory share one window", async () => {
    const server = startInProcess();
    const { secret } = server.admin.createRootKey({ ratelimit: "3/60s" });
    // A second server process, as far as SQLite can tell: its own connection and limiter on the same files.
    const otherDb = openDatabase(server.dataDir);
    const other = createApp({ mode: directMode(otherDb, server.dataDir), distDir: server.dataDir });
    const second: ApiTarget = { url: IN_PROCESS_URL, fetch: async (url, init) => other.request(url, init) };
    try {
      const answers = [];
      for (let round = 0; round < 4; round += 1) {
        answers.push(await callApi(server, { key: secret, body: { limit: 1 } }));
        answers.push(await callApi(second, { key: secret, body: { limit: 1 } }));
      }
      expect(statuses(answers)).toEqual({ 200: 3, 429: 5 });
    } finally {
      otherDb.close();
      server.close();
    }
  });
});

test("over HTTP: requests at once on many connections get exactly `limit` 200s, and a restart opens no new window", async () => {
  const first = await startServer();
  let restarted: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const key = await first.admin(["root-key", "create", "--name", "three a minute", "--ratelimit", "3/60s"]);
    // fetch opens a connection for each request still waiting for its answer.
    const burst = await Promise.all(Array.from({ length: 12 }, () => callApi(first.url, { key, body: { limit: 1 } })));
    expect(statuses(burst)).toEqual({ 200: 3, 429: 9 });

    expect(await first.stop()).toBe(0);
    restarted = await startServer({ dataDir: first.dataDir });
    const afterRestart = await Promise.all(
      Array.from({ length: 3 }, () => callApi(restarted?.url ?? "", { key, body: { limit: 1 } })),
    );
    expect(statuses(afterRestart)).toEqual({ 429: 3 });
    const retryAfter = Number(afterRestart[0]?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  } finally {
    await first.stop();
    await restarted?.stop();
  }
});
