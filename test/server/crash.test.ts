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
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
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
  const child = spawnNode(["server/main.ts", "--port", "0", "--host", "127.0.0.1", "--no-build", "--data-dir", dataDir]);
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
    const page = asKeyList(await callApi(url, { key, body: cursor === undefined ? { limit: 100 } : { limit: 100, cursor } }));
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
