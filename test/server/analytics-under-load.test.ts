import autocannon from "autocannon";
import Database from "better-sqlite3";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DATABASE_FILE_NAME } from "../../server/db/open";
import { usageSql } from "../../src/features/keys/utils/usage";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * Analytics queries sent while keys are being verified, to a real server process on 127.0.0.1 (#28 item 9). Before a
 * query answered from the rows committed when it arrived, its catch-up of DuckDB's copy (and of SQLite's per-hour
 * sums) kept chasing the newest rows for as long as verifications kept coming: it answered only once the flood was
 * over. Here a flood of at most FLOOD_LIMIT verifications runs until the queries have answered: each must answer
 * while the flood still runs, counting every verification committed before it was sent and none committed after
 * its answer (read from SQLite by this test's own connection).
 */

const CONNECTIONS = 20;
/** The flood's bound: many times what the queries need to answer in, on a busy machine. */
const FLOOD_LIMIT = 100_000;
/** Verifications committed before the first query is sent: the flood is under way. */
const WARM_UP = 500;
const KEYS = 10;

const CountRows = v.object({ data: v.tuple([v.object({ n: v.number() })]) });
const UsageRows = v.object({ data: v.array(v.object({ count: v.number() })) });

let server: StartedServer;
let rootKey: string;
const keyIds: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  server = await startServer();
  rootKey = await server.admin([
    "root-key",
    "create",
    "--name",
    "flood",
    "--permissions",
    "api.*.verify_key,api.*.read_analytics",
  ]);
  for (let index = 0; index < KEYS; index += 1) {
    const [keyId = "", secret = ""] = (await server.admin(["keys", "create", "--name", `flood ${index}`])).split(" ");
    keyIds.push(keyId);
    secrets.push(secret);
  }
}, 60_000);

afterAll(async () => {
  await server.stop();
});

const keyList = () => keyIds.map((id) => `'${id}'`).join(", ");

async function analytics(query: string): Promise<unknown> {
  const response = await fetch(`${server.url}/v2/analytics.getVerifications`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    body: JSON.stringify({ query }),
  });
  const body: unknown = await response.json();
  if (response.status !== 200) throw new Error(`analytics answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

const floodCount = async () =>
  v.parse(CountRows, await analytics(`SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id IN (${keyList()})`))
    .data[0].n;
const floodUsage = async () =>
  v.parse(UsageRows, await analytics(usageSql(keyIds))).data.reduce((sum, row) => sum + row.count, 0);

/** At most FLOOD_LIMIT verifications of the test's keys on CONNECTIONS connections; `stop` ends it sooner. */
function startFlood() {
  let next = 0;
  const bodies = secrets.map((key) => JSON.stringify({ key }));
  let ended = false;
  let settle: (result: autocannon.Result) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const instance = autocannon(
    {
      url: `${server.url}/v2/keys.verifyKey`,
      method: "POST",
      connections: CONNECTIONS,
      amount: FLOOD_LIMIT,
      headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
      requests: [
        { method: "POST", setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] ?? "" }) },
      ],
    },
    (error, done) => {
      ended = true;
      if (error !== null && error !== undefined) fail(error instanceof Error ? error : new Error(String(error)));
      else settle(done);
    },
  );
  return { result, ended: () => ended, stop: () => instance.stop() };
}

test("analytics queries sent during a verifyKey flood answer while it runs, from the rows committed when they arrived", async () => {
  const sqlite = new Database(join(server.dataDir, DATABASE_FILE_NAME), { readonly: true });
  const committed = sqlite
    .prepare<[], number>(`SELECT count(*) FROM key_verifications WHERE key_id IN (${keyList()})`)
    .pluck();
  try {
    // DuckDB's first copy (the demo data) is made before the flood: what is tried below is the catch-up alone.
    expect(await floodCount()).toBe(0);
    expect(await floodUsage()).toBe(0);

    const flood = startFlood();
    try {
      while ((committed.get() ?? 0) < WARM_UP) await new Promise((resolve) => setTimeout(resolve, 20));
      const asks = [
        ["a count over key_verifications_v1 (DuckDB)", floodCount],
        ["the keys page's usage query (SQLite's sums)", floodUsage],
      ] as const;
      for (const [name, ask] of asks) {
        for (let round = 0; round < 2; round += 1) {
          const before = committed.get() ?? 0;
          const counted = await ask();
          const after = committed.get() ?? 0;
          const context = `${name}, round ${round}: ${before} committed before it was sent, ${after} after its answer`;
          expect(counted, context).toBeGreaterThanOrEqual(before);
          expect(counted, context).toBeLessThanOrEqual(after);
          // It answered while the flood still ran.
          expect(flood.ended(), context).toBe(false);
          expect(after, context).toBeLessThan(FLOOD_LIMIT);
        }
      }
    } finally {
      flood.stop();
    }
    const result = await flood.result;
    expect(result.errors).toBe(0);
    expect(result.non2xx).toBe(0);
    // After the flood, every verification it committed is counted.
    expect(await floodCount()).toBe(committed.get());
  } finally {
    sqlite.close();
  }
}, 300_000);
