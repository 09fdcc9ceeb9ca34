import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { startServer } from "../support/server-process";
import { asKeyList, callApi } from "./http";

/**
 * kill -9 in the middle of use: the server while it answers requests, and an admin `keys seed` while it writes.
 * A restart on the same data directory lists every key the database holds (all of those there before the
 * crash among them), and the database passes its integrity check.
 */

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** The node process itself (not a tsx wrapper that would pass a signal on), so SIGKILL hits the server. */
function spawnNode(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, KEYSCOPE_PARENT_PID: String(process.pid) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  return child;
}

function spawnServer(dataDir: string): Promise<{ url: string; process: ChildProcess }> {
  const child = spawnNode([
    "server/main.ts",
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--no-build",
    "--data-dir",
    dataDir,
  ]);
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      output += chunk;
      const url = /^Keyscope is running at (\S+)$/m.exec(output)?.[1];
      if (url !== undefined) resolve({ url, process: child });
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before it was running:\n${output}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    }
  });
}

function walSize(dataDir: string): number {
  try {
    return statSync(join(dataDir, "keyscope.sqlite-wal")).size;
  } catch {
    return 0;
  }
}

async function walGrowsPast(dataDir: string, bytes: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (walSize(dataDir) <= bytes) {
    if (Date.now() > deadline) throw new Error("the seed never wrote to the write-ahead log");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function listAll(url: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = asKeyList(
      await callApi(url, { key, body: cursor === undefined ? { limit: 100 } : { limit: 100, cursor } }),
    );
    ids.push(...page.data.keys.map((entry) => entry.keyId));
    if (!page.pagination.hasMore) return ids;
    cursor = page.pagination.cursor;
  }
}

function readDatabase(dataDir: string): { integrity: string; keyIds: string[] } {
  const db = new Database(join(dataDir, "keyscope.sqlite"), { readonly: true });
  try {
    return {
      integrity: db.pragma("integrity_check", { simple: true }) as string,
      keyIds: db.prepare<[], string>("SELECT id FROM keys ORDER BY id").pluck().all(),
    };
  } finally {
    db.close();
  }
}

test("after kill -9 during requests and a seed, a restart lists every key and the database is intact", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-crash-"));
  // Data from before the crash, written by a server that shut down normally.
  const first = await startServer({ dataDir });
  const key = await first.admin(["root-key", "create", "--name", "crash"]);
  await first.admin(["keys", "seed", "--count", "3000"]);
  await first.stop();
  const before = readDatabase(dataDir).keyIds;
  expect(before.length).toBeGreaterThan(3000);

  const server = await spawnServer(dataDir);
  let stop = false;
  let answered = 0;
  const traffic = Array.from({ length: 8 }, async () => {
    while (!stop) {
      try {
        await callApi(server.url, { key, body: { limit: 100 } });
        answered += 1;
      } catch {
        // The connection dies with the server: expected.
      }
    }
  });
  // A seed that commits while the server runs: its keys must survive the crash too.
  const committed = spawnNode(["server/admin.ts", "keys", "seed", "--count", "2000", "--data-dir", dataDir]);
  expect(await new Promise((resolve) => committed.once("exit", resolve))).toBe(0);
  const beforeCrash = readDatabase(dataDir).keyIds;
  expect(beforeCrash.length).toBe(before.length + 2000);

  const seed = spawnNode(["server/admin.ts", "keys", "seed", "--count", "200000", "--data-dir", dataDir]);
  // Kill once the seed's transaction is spilling pages into the write-ahead log: mid-write.
  await walGrowsPast(dataDir, walSize(dataDir) + 4 * 1024 * 1024);
  await Promise.all([killed(server.process), killed(seed)]);
  stop = true;
  await Promise.all(traffic);
  expect(answered).toBeGreaterThan(0);

  const restarted = await spawnServer(dataDir);
  const listed = await listAll(restarted.url, key);
  await killed(restarted.process);

  const after = readDatabase(dataDir);
  expect(after.integrity).toBe("ok");
  expect(new Set(listed).size).toBe(listed.length);
  expect(listed).toEqual(after.keyIds);
  const listedSet = new Set(listed);
  expect(beforeCrash.filter((id) => !listedSet.has(id))).toEqual([]);
  // The seed is one transaction: it is in whole or not at all (here: not, it was killed mid-write).
  expect([beforeCrash.length, beforeCrash.length + 200_000]).toContain(after.keyIds.length);
}, 120_000);

interface KeyState {
  name: string;
  meta: string | null;
  credits: number | null;
  permissions: string;
  ratelimits: string;
}

function keyStates(dataDir: string, apiId: string): Map<string, KeyState> {
  const db = new Database(join(dataDir, "keyscope.sqlite"), { readonly: true });
  try {
    const rows = db
      .prepare<[string], KeyState & { id: string }>(
        `SELECT k.id, k.name, k.meta, k.credits_remaining AS credits, k.permissions,
                (SELECT coalesce(group_concat(name || '=' || "limit" || '/' || duration_ms, ','), '') FROM
                   (SELECT * FROM key_ratelimits WHERE key_id = k.id ORDER BY name)) AS ratelimits
           FROM keys k WHERE k.api_id = ? AND k.deleted_at IS NULL`,
      )
      .all(apiId);
    return new Map(rows.map(({ id, ...state }) => [id, state]));
  } finally {
    db.close();
  }
}

/** What keys.updateKey of key `index` in the burst makes of it. */
function changedState(index: number): KeyState {
  return {
    name: `changed ${index}`,
    meta: JSON.stringify({ change: index }),
    credits: 1000 + index,
    permissions: JSON.stringify([`documents.${index}`]),
    ratelimits: `burst=${index + 1}/1000,requests=${index + 2}/60000`,
  };
}

test("after kill -9 during a burst of key changes, every key is as before or as after its change, and every answered change is kept", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-crash-changes-"));
  const first = await startServer({ dataDir });
  const key = await first.admin([
    "root-key",
    "create",
    "--name",
    "crash",
    "--permissions",
    "api.*.read_key,api.*.update_key,rbac.*.create_permission",
  ]);
  const apiId = await first.admin(["apis", "create", "--name", "crash-changes"]);
  await first.admin(["keys", "seed", "--count", "600", "--api", apiId]);
  await first.stop();
  const before = keyStates(dataDir, apiId);
  const keyIds = [...before.keys()];
  expect(keyIds).toHaveLength(600);

  const server = await spawnServer(dataDir);
  const answered = new Set<string>();
  let enough: () => void = () => undefined;
  const halfway = new Promise<void>((resolve) => (enough = resolve));
  // Every key changed in several tables at once (the key's row, its rate limits, the workspace's permissions), by
  // eight clients in a row each; once a third have been answered no more are sent, and the server is killed with
  // the last ones in flight.
  const queue = keyIds.map((keyId, index) => ({ keyId, index }));
  const workers = Array.from({ length: 8 }, async () => {
    for (let next = queue.shift(); next !== undefined && answered.size < keyIds.length / 3; next = queue.shift()) {
      const { keyId, index } = next;
      const target = changedState(index);
      try {
        const answer = await callApi(server.url, {
          key,
          path: "/v2/keys.updateKey",
          body: {
            keyId,
            name: target.name,
            meta: { change: index },
            credits: { remaining: target.credits },
            permissions: [`documents.${index}`],
            ratelimits: [
              { name: "requests", limit: index + 2, duration: 60_000, autoApply: true },
              { name: "burst", limit: index + 1, duration: 1000, autoApply: false },
            ],
          },
        });
        if (answer.status === 200) answered.add(keyId);
        if (answered.size >= keyIds.length / 3) enough();
      } catch {
        // The connection dies with the server: expected; this client stops.
        return;
      }
    }
  });
  await halfway;
  await killed(server.process);
  await Promise.all(workers);
  expect(answered.size).toBeGreaterThan(0);

  const after = keyStates(dataDir, apiId);
  expect(readDatabase(dataDir).integrity).toBe("ok");
  expect([...after.keys()].sort()).toEqual([...keyIds].sort());
  let changed = 0;
  for (const [index, keyId] of keyIds.entries()) {
    const state = after.get(keyId);
    const target = changedState(index);
    if (answered.has(keyId)) expect(state, keyId).toEqual(target);
    else expect([before.get(keyId), target], keyId).toContainEqual(state);
    if (JSON.stringify(state) === JSON.stringify(target)) changed += 1;
  }
  // Killed in the middle: some changes were made, and some were not.
  expect(changed).toBeGreaterThanOrEqual(answered.size);
  expect(changed).toBeLessThan(keyIds.length);
}, 120_000);
