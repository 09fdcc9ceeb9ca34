import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, test } from "vitest";
import { DATABASE_FILE_NAME } from "../../server/db/open";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * keys.verifyKey commits the verifications of one turn of the event loop together (server/db/group-commit.ts).
 * Through a real server: decisions stay exact under concurrency, and what was answered is on disk.
 */

let server: StartedServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

interface Answer {
  status: number;
  requestId?: string;
  code?: string;
}

async function verify(target: StartedServer, rootKey: string, key: string): Promise<Answer> {
  const response = await fetch(`${target.url}/v2/keys.verifyKey`, {
    method: "POST",
    headers: { authorization: `Bearer ${rootKey}`, "content-type": "application/json" },
    body: JSON.stringify({ key, tags: ["test=group-commit"] }),
  });
  const body = (await response.json()) as { meta?: { requestId?: string }; data?: { code?: string } };
  return { status: response.status, requestId: body.meta?.requestId, code: body.data?.code };
}

function storedRequestIds(dataDir: string): Set<string> {
  const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
  try {
    return new Set(
      db
        .prepare<[], string>("SELECT request_id FROM key_verifications WHERE tags = '[\"test=group-commit\"]'")
        .pluck()
        .all(),
    );
  } finally {
    db.close();
  }
}

test("concurrent verifications of a key with 5 credits: exactly 5 are VALID, and every one is recorded once answered", async () => {
  server = await startServer();
  const rootKey = server.rootKey ?? "";
  const [, secret = ""] = (await server.admin(["keys", "create", "--name", "five uses", "--credits", "5"])).split(" ");

  const answers = await Promise.all(Array.from({ length: 40 }, () => verify(server as StartedServer, rootKey, secret)));

  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  expect(answers.filter((answer) => answer.code === "VALID")).toHaveLength(5);
  expect(answers.filter((answer) => answer.code === "USAGE_EXCEEDED")).toHaveLength(35);
  // Read by another connection as soon as the answers are in: each answer followed its commit.
  const stored = storedRequestIds(server.dataDir);
  expect(stored.size).toBe(40);
  for (const answer of answers) expect(stored.has(answer.requestId ?? "")).toBe(true);
});

test("a server stopped (SIGTERM) in the middle of a flood of verifications exits 0 and lost none it answered", async () => {
  server = await startServer();
  const rootKey = server.rootKey ?? "";
  const { dataDir } = server;
  const [, secret = ""] = (await server.admin(["keys", "create", "--name", "flooded"])).split(" ");
  const target = server;

  let stopping: Promise<number | null> | undefined;
  const answered: string[] = [];
  // Ten clients in a loop until the server stops answering; the first answers trigger the stop.
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (;;) {
        let answer: Answer;
        try {
          answer = await verify(target, rootKey, secret);
        } catch {
          return;
        }
        if (answer.status !== 200) return;
        answered.push(answer.requestId ?? "");
        if (answered.length === 20) stopping = target.stop("SIGTERM");
      }
    }),
  );
  expect(await stopping).toBe(0);
  server = undefined;

  expect(answered.length).toBeGreaterThanOrEqual(20);
  const stored = storedRequestIds(dataDir);
  for (const requestId of answered) expect(stored.has(requestId)).toBe(true);
});
