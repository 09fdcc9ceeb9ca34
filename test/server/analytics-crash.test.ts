import Database from "better-sqlite3";
import { join } from "node:path";
import * as v from "valibot";
import { afterEach, expect, test } from "vitest";
import { DATABASE_FILE_NAME } from "../../server/db/open";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * kill -9 of a real server process, then a restart on the same data directory (#41): analytics counts every
 * verification the clients were answered before the kill, and every verification SQLite holds exactly once (the
 * store's copy is committed batch by batch with the seq it reaches), in the rows and in every rollup.
 */

const KEYS = 5;
/** Verifications answered 200 before the kill: counted by the clients, not timed. */
const ANSWERED_BEFORE_KILL = 300;
const CLIENTS = 8;

const servers: StartedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop("SIGKILL");
});

const Count = v.object({ data: v.tuple([v.object({ n: v.number() })]) });
const Sums = v.object({ data: v.array(v.object({ n: v.number() })) });

async function started(dataDir?: string): Promise<StartedServer> {
  const server = await startServer(dataDir === undefined ? {} : { dataDir });
  servers.push(server);
  return server;
}

async function killed(server: StartedServer): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  await server.stop("SIGKILL");
}

/** The query's answer once analytics answers it: a 503 (catching up) is asked again after its Retry-After. */
async function analytics(server: StartedServer, rootKey: string, query: string): Promise<unknown> {
  for (;;) {
    const response = await fetch(`${server.url}/v2/analytics.getVerifications`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
      body: JSON.stringify({ query }),
    });
    const body: unknown = await response.json();
    if (response.status === 200) return body;
    expect(response.status, JSON.stringify(body)).toBe(503);
    expect(JSON.stringify(body)).toContain("service_unavailable");
    const seconds = Number(response.headers.get("retry-after"));
    await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 2) * 1000));
  }
}

/** What SQLite holds for `keyIds`, read by the test's own connection. */
function committedFor(dataDir: string, keyIds: readonly string[]): number {
  const sqlite = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
  try {
    return (
      sqlite
        .prepare<string[], number>(
          `SELECT count(*) FROM key_verifications WHERE key_id IN (${keyIds.map(() => "?").join(", ")})`,
        )
        .pluck()
        .get(...keyIds) ?? 0
    );
  } finally {
    sqlite.close();
  }
}

/** Every table counts each of SQLite's rows for the keys once. */
async function expectEveryRowOnce(server: StartedServer, rootKey: string, keyIds: readonly string[]): Promise<number> {
  const list = keyIds.map((id) => `'${id}'`).join(", ");
  const { n } = v.parse(
    Count,
    await analytics(server, rootKey, `SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id IN (${list})`),
  ).data[0];
  expect(n).toBe(committedFor(server.dataDir, keyIds));
  for (const table of ["minute", "hour", "day", "month"]) {
    const sums = v.parse(
      Sums,
      await analytics(
        server,
        rootKey,
        `SELECT sum(count) AS n FROM key_verifications_per_${table}_v1 WHERE key_id IN (${list})`,
      ),
    );
    expect(sums.data[0]?.n, table).toBe(n);
  }
  return n;
}

async function setUp(server: StartedServer): Promise<{ rootKey: string; keyIds: string[]; secrets: string[] }> {
  const rootKey = await server.admin([
    "root-key",
    "create",
    "--name",
    "crash",
    "--permissions",
    "api.*.verify_key,api.*.read_analytics",
  ]);
  const keyIds: string[] = [];
  const secrets: string[] = [];
  for (let index = 0; index < KEYS; index += 1) {
    const [keyId = "", secret = ""] = (await server.admin(["keys", "create", "--name", `crash ${index}`])).split(" ");
    keyIds.push(keyId);
    secrets.push(secret);
  }
  return { rootKey, keyIds, secrets };
}

test("kill -9 during a verification flood, then a restart: analytics counts every verification answered before the kill", async () => {
  const server = await started();
  const { rootKey, keyIds, secrets } = await setUp(server);
  let answered = 0;
  let sent = 0;
  let killing: Promise<void> | undefined;
  const client = async (index: number) => {
    for (let call = 0; killing === undefined; call += 1) {
      sent += 1;
      try {
        const response = await fetch(`${server.url}/v2/keys.verifyKey`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
          body: JSON.stringify({ key: secrets[(index + call) % secrets.length] }),
        });
        const body = await response.text();
        if (response.status === 200 && body.includes('"code":"VALID"')) answered += 1;
      } catch {
        // A request in flight when the server dies gets no answer: it is not counted.
      }
      // The kill comes while the other clients' requests are still in flight.
      if (answered >= ANSWERED_BEFORE_KILL && killing === undefined) killing = killed(server);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
  await killing;
  const answeredBeforeKill = answered;
  expect(answeredBeforeKill).toBeGreaterThanOrEqual(ANSWERED_BEFORE_KILL);

  const restarted = await started(server.dataDir);
  const counted = await expectEveryRowOnce(restarted, rootKey, keyIds);
  expect(counted).toBeGreaterThanOrEqual(answeredBeforeKill);
  expect(counted).toBeLessThanOrEqual(sent);
}, 180_000);

test("kill -9 while the store copies a large backlog, then a restart: every row once, none lost", async () => {
  const first = await started();
  const { rootKey, keyIds } = await setUp(first);
  await first.stop();
  // Written straight into SQLite while no server runs: the next start copies them in the background.
  const sqlite = new Database(join(first.dataDir, DATABASE_FILE_NAME));
  const workspaceId =
    sqlite
      .prepare<[string], string>("SELECT workspace_id FROM keys WHERE id = ?")
      .pluck()
      .get(keyIds[0] ?? "") ?? "";
  const insert = sqlite.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'api_backlog', ?, '', ?, 'local', '["path=/a"]', 1)`,
  );
  const now = Date.now();
  sqlite.transaction(() => {
    for (let index = 0; index < 250_000; index += 1)
      insert.run(
        `req_backlog${index}`,
        now - index * 997,
        workspaceId,
        keyIds[index % KEYS] ?? "",
        index % 7 ? "VALID" : "RATE_LIMITED",
      );
  })();
  sqlite.close();

  const copying = await started(first.dataDir);
  // Killed as soon as it listens: its first copy of the backlog has just begun.
  await killed(copying);
  const restarted = await started(first.dataDir);
  expect(await expectEveryRowOnce(restarted, rootKey, keyIds)).toBe(250_000);
}, 300_000);
