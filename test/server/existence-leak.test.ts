import { afterAll, beforeAll, expect, test } from "vitest";
import { asError, callApi, typeFor, type ApiAnswer } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

/**
 * Nothing in an answer tells a caller whether a key it holds was ever valid: an unknown key and a revoked one
 * (even one that had spent its rate limit) get the same status, headers and body, apart from the request id
 * and the date.
 */

let server: InProcessServer;

beforeAll(() => {
  server = startInProcess();
});

afterAll(() => {
  server.close();
});

/** Everything an answer says, but the parts that differ between any two answers. */
function comparable(answer: ApiAnswer) {
  const headers = Object.fromEntries([...answer.headers.entries()].filter(([name]) => name !== "date"));
  const envelope = asError(answer);
  return { status: answer.status, headers, body: { ...envelope, meta: { requestId: envelope.meta.requestId.length } } };
}

test("an unknown key, a revoked key and a revoked rate-limited key get the same answer in every header and byte", async () => {
  const revokedKey = server.admin.createRootKey({ name: "revoked" });
  const limitedKey = server.admin.createRootKey({ name: "revoked limited", ratelimit: "1/60s" });
  const [revoked, limited] = [revokedKey.secret, limitedKey.secret];
  expect((await callApi(server, { key: limited })).status).toBe(200);
  expect((await callApi(server, { key: limited })).status).toBe(429);
  server.admin.changeRootKey(revokedKey.id, "revoke");
  server.admin.changeRootKey(limitedKey.id, "revoke");
  // An unknown key of the same shape and length as the real ones.
  const unknown = `${revoked.slice(0, 8)}${"1".repeat(revoked.length - 8)}`;

  const answers = await Promise.all(
    [unknown, revoked, limited].map((key) => callApi(server, { key, body: { limit: 5 } })),
  );
  const [first, ...others] = answers.map(comparable);
  expect(first?.status).toBe(401);
  expect(first?.body.error.type).toBe(typeFor(server.url, "err:svc:authentication:key_not_found"));
  for (const other of others) expect(other).toEqual(first);
});
