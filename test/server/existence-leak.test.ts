import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";
import { asError, callApi, typeFor, type ApiAnswer } from "./http";

/**
 * Nothing in an answer tells a caller whether a key it holds was ever valid: an unknown key and a revoked one
 * (even one that had spent its rate limit) get the same status, headers and body, apart from the request id
 * and the date.
 */

let server: StartedServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.stop();
});

function rootKeyId(name: string): string {
  const db = new Database(join(server.dataDir, "keyscope.sqlite"), { readonly: true });
  try {
    return db.prepare<[string], string>("SELECT id FROM root_keys WHERE name = ?").pluck().get(name) ?? "";
  } finally {
    db.close();
  }
}

/** Everything an answer says, but the parts that differ between any two answers. */
function comparable(answer: ApiAnswer) {
  const headers = Object.fromEntries([...answer.headers.entries()].filter(([name]) => name !== "date"));
  const envelope = asError(answer);
  return { status: answer.status, headers, body: { ...envelope, meta: { requestId: envelope.meta.requestId.length } } };
}

test("an unknown key, a revoked key and a revoked rate-limited key get the same answer in every header and byte", async () => {
  const revoked = await server.admin(["root-key", "create", "--name", "revoked"]);
  const limited = await server.admin(["root-key", "create", "--name", "revoked limited", "--ratelimit", "1/60s"]);
  expect((await callApi(server.url, { key: limited })).status).toBe(200);
  expect((await callApi(server.url, { key: limited })).status).toBe(429);
  await server.admin(["root-key", "revoke", rootKeyId("revoked")]);
  await server.admin(["root-key", "revoke", rootKeyId("revoked limited")]);
  // An unknown key of the same shape and length as the real ones.
  const unknown = `${revoked.slice(0, 8)}${"1".repeat(revoked.length - 8)}`;

  const answers = await Promise.all([unknown, revoked, limited].map((key) => callApi(server.url, { key, body: { limit: 5 } })));
  const [first, ...others] = answers.map(comparable);
  expect(first?.status).toBe(401);
  expect(first?.body.error.type).toBe(typeFor(server.url, "err:svc:authentication:key_not_found"));
  for (const other of others) expect(other).toEqual(first);
});
