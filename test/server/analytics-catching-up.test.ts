import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { Database } from "better-sqlite3";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createAnalyticsEngine, DEFAULT_ANALYTICS_LIMITS, type AnalyticsLimits } from "../../server/analytics/engine";
import { createQueryEngine } from "../../server/analytics/query-engine";
import { prepareStore, RATELIMITS } from "../../server/analytics/store-schema";
import { CatchUpFailed, createStoreSync } from "../../server/analytics/store-sync";
import { createApp } from "../../server/app";
import { createKeyStore } from "../../server/db/key-store";
import { createWorkspace } from "../../server/db/workspaces";
import { openDatabase } from "../../server/db/open";
import { createRateLimiter } from "../../server/auth/rate-limit";
import { hashSecret, secretStart } from "../../server/keys/secrets";
import { GET_VERIFICATIONS_PATH } from "../../src/lib/contract";
import { usageSql } from "../../src/features/keys/utils/usage";

/**
 * Analytics that cannot answer yet says so (#41): while its store copies a large backlog (after a restart, or a bulk
 * load), or after its copy failed, a query is answered 503 `service_unavailable` (the real service's code when its
 * analytics database is unavailable) with Retry-After, at once, never a 500 nor a request left hanging; the keys page's
 * usage query alike. A failed copy is tried again after a wait, not by every query.
 */

const ROOT_KEY = "ks_root_CatchingUpTestKey111111111";
const BACKLOG = 300_000;
const closing: (() => unknown)[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const close of closing.splice(0)) await close();
});

function backlogged(name: string): { db: Database; workspaceId: string } {
  const db = openDatabase(mkdtempSync(join(tmpdir(), `keyscope-${name}-`)));
  const workspaceId = createWorkspace(db, "Backlogged");
  db.prepare(
    "INSERT INTO root_keys (id, workspace_id, name, start, hash, permissions, created_at) VALUES ('key_root', ?, 'r', ?, ?, ?, ?)",
  ).run(workspaceId, secretStart(ROOT_KEY), hashSecret(ROOT_KEY), JSON.stringify(["api.*.read_analytics"]), Date.now());
  const insert = db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'api_b', ?, '', 'VALID', 'local', '[]', 0)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let index = 0; index < BACKLOG; index += 1)
      insert.run(`req_b${index}`, now - (index % 100_000) * 1000, workspaceId, `key_b${index % 7}`);
  })();
  closing.push(() => db.close());
  return { db, workspaceId };
}

/** A DuckDB store beside `db`, empty, as at a start with the whole backlog to copy. */
async function storeBeside(db: Database) {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  closing.push(() => {
    connection.closeSync();
    instance.closeSync();
  });
  await connection.run(`ATTACH '${join(db.name, "..", "store.duckdb")}' AS store`);
  await prepareStore(connection, "source", { verifications: BACKLOG, ratelimits: 0 });
  return { instance, connection };
}

/** The app over `db` with an engine that copies only when asked (a query, or catchUp), as at a start with a backlog. */
async function appOver(db: Database, limits: Partial<AnalyticsLimits> = {}) {
  const engine = await createAnalyticsEngine(
    db,
    { ...DEFAULT_ANALYTICS_LIMITS, threads: 1, ...limits },
    { rollup: true, catchUpEveryMs: 0 },
  );
  closing.unshift(() => engine.close());
  const dataDir = join(db.name, "..");
  const app = createApp({
    mode: { kind: "direct", store: createKeyStore(db), rateLimiter: createRateLimiter(db, dataDir) },
    distDir: dataDir,
    analytics: { engine },
  });
  const ask = async (query: string) => {
    const response = await app.request(GET_VERIFICATIONS_PATH, {
      method: "POST",
      headers: { authorization: `Bearer ${ROOT_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() };
  };
  return { engine, ask };
}

describe("while the store copies a large backlog", () => {
  test("a query and the keys page's usage query are told at once that analytics is catching up, then answer", async () => {
    const { db } = backlogged("catching-up");
    const { engine, ask } = await appOver(db);

    const count = await ask("SELECT count(*) AS n FROM key_verifications_v1");
    expect(count.status).toBe(503);
    expect(JSON.parse(count.body)).toMatchObject({
      error: {
        status: 503,
        type: expect.stringMatching(/\/errors\/svc\/application\/service_unavailable$/) as unknown,
        detail: expect.stringMatching(/^Analytics is catching up: about 300,000 verifications/) as unknown,
      },
    });
    expect(Number(count.retryAfter)).toBeGreaterThanOrEqual(1);
    // The usage bars' query: SQLite's sums are behind too, so DuckDB would answer it, and says the same.
    const usage = await ask(usageSql(["key_b0", "key_b1"]));
    expect(usage.status).toBe(503);
    expect(usage.body).toContain("catching up");

    await engine.catchUp();
    expect(await ask("SELECT count(*) AS n FROM key_verifications_v1")).toMatchObject({
      status: 200,
      body: expect.stringContaining(`"data":[{"n":${BACKLOG}}]`) as unknown,
    });
    const bars = await ask(usageSql(["key_b0", "key_b1"]));
    expect(bars.status).toBe(200);
  });

  test("the copy a query is told to wait for paces itself by the requests' load: nobody waits for it", async () => {
    const { db, workspaceId } = backlogged("paced");
    const { instance, connection } = await storeBeside(db);
    // Asked after every batch it copies without someone waiting; a copy someone waits for never asks.
    let asked = 0;
    const pacing = {
      pauseAfter: () => {
        asked += 1;
        return 0;
      },
    };
    const verifications = createStoreSync(db, connection, 0, pacing);
    const engine = createQueryEngine({
      instance,
      limits: { ...DEFAULT_ANALYTICS_LIMITS, threads: 1 },
      copies: { verifications, ratelimits: createStoreSync(db, connection, 0, pacing, RATELIMITS) },
      keyRollup: undefined,
    });
    closing.unshift(() => engine.close());
    const outcome = await engine.query({
      family: "verifications",
      workspaceId,
      sql: "SELECT count(*) AS n FROM key_verifications_v1",
      retentionDays: 30,
      narrowTo: undefined,
      upTo: BACKLOG,
      now: undefined,
    });
    expect(outcome).toMatchObject({
      kind: "unavailable",
      message: expect.stringMatching(/^Analytics is catching up/) as unknown,
    });
    // The copy the query started: joined without hurrying it, until every row is copied.
    await verifications.catchUp(BACKLOG, { background: true });
    expect(verifications.copiedSeq).toBe(BACKLOG);
    expect(asked).toBeGreaterThan(0);
  });
});

describe("a copy that fails", () => {
  test("is told as 503 with its reason and when it is tried again, never a 500", async () => {
    const { db } = backlogged("copy-fails");
    // Too little memory for any batch of the copy.
    const { engine, ask } = await appOver(db, { memoryLimitBytes: 4 * 1024 ** 2 });
    await expect(engine.catchUp()).rejects.toThrow(/Out of Memory Error/);
    const answer = await ask("SELECT count(*) AS n FROM key_verifications_v1");
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: {
        detail: expect.stringMatching(
          /^Analytics could not copy the verifications recorded since its last copy \(Out of Memory Error: [^\n]*\); it tries again in \d+ s$/,
        ) as unknown,
      },
    });
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  });

  test("is not tried again by the queries that come before its retry: they get its failure at once", async () => {
    const { db } = backlogged("no-retry");
    const { connection } = await storeBeside(db);
    // Every statement the copy sends is counted; staging a batch fails, as a disk that is full would.
    let statements = 0;
    const failing = new Proxy(connection, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== "run") return value;
        return (sql: string, values?: Record<string, string>) => {
          statements += 1;
          if (sql.startsWith("INSERT INTO temp.stage"))
            return Promise.reject(new Error("IO Error: No space left on device"));
          return target.run(sql, values);
        };
      },
    });
    // Date alone is faked: the clock stands still, so the retry's time never comes during the test.
    vi.useFakeTimers({ toFake: ["Date"] });
    const startedAt = Date.now();
    const sync = createStoreSync(db, failing, 0);
    const first = await sync.catchUp(BACKLOG).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(CatchUpFailed);
    expect((first as CatchUpFailed).reason).toBe("IO Error: No space left on device");
    const tried = statements;
    for (let query = 0; query < 5; query += 1) await expect(sync.catchUp(BACKLOG)).rejects.toBe(first);
    expect(statements).toBe(tried);
    expect(sync.failure()).toBe(first);
    // Once its time has come, the next catch-up tries again (and here fails again, to wait longer).
    vi.setSystemTime(startedAt + 60_000);
    const second = await sync.catchUp(BACKLOG).catch((error: unknown) => error);
    expect(statements).toBeGreaterThan(tried);
    expect(second).toBeInstanceOf(CatchUpFailed);
    const waits = [first, second].map(
      (failure, index) => (failure as CatchUpFailed).retryAt - startedAt - index * 60_000,
    );
    expect(waits[1]).toBeGreaterThan(waits[0] ?? Infinity);
  });
});
