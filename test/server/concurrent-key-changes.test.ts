import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as v from "valibot";
import { errorCodeFromType } from "../../src/lib/contract";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * Key changes racing each other and verifications, through real concurrent requests to a real server. The real
 * service's handlers take no lock: `keys.rerollKey` reads the key if it is not deleted (expired or not), inserts a
 * new key copying its settings, its expiry among them, and sets the old key's expiry; `keys.deleteKey` and
 * `keys.updateKey` each find the live key first. This server runs each change atomically, so every race ends in
 * one of the answers the real service gives for the same two calls one after the other.
 */

let server: StartedServer;
let rootKey: string;

beforeAll(async () => {
  server = await startServer({ args: ["--port", "9341"] });
  rootKey = server.rootKey ?? "";
});

afterAll(async () => {
  await server.stop();
});

const ENVELOPE = v.object({
  meta: v.object({ requestId: v.string() }),
  data: v.optional(v.unknown()),
  error: v.optional(v.object({ type: v.string(), status: v.number() })),
});

interface Answer {
  status: number;
  data: unknown;
  /** The code `error.type` names, as `err:svc:data:key_not_found`. */
  errorCode: string | null;
}

async function call(operation: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}/v2/${operation}`, {
    method: "POST",
    headers: { authorization: `Bearer ${rootKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const parsed = v.parse(ENVELOPE, await response.json());
  return {
    status: response.status,
    data: parsed.data,
    errorCode: parsed.error === undefined ? null : errorCodeFromType(parsed.error.type),
  };
}

const NEW_KEY = v.object({ keyId: v.string(), key: v.string() });
const VERIFIED = v.object({ valid: v.boolean(), code: v.string(), credits: v.optional(v.number()) });
const CREDITS = v.object({ remaining: v.nullable(v.number()) });
const GOT_KEY = v.object({
  keyId: v.string(),
  expires: v.optional(v.number()),
  credits: v.optional(v.object({ remaining: v.nullable(v.number()) })),
});

async function newKey(args: readonly string[] = []): Promise<{ keyId: string; secret: string }> {
  const [keyId = "", secret = ""] = (await server.admin(["keys", "create", "--name", "race", ...args])).split(" ");
  return { keyId, secret };
}

async function verify(secret: string): Promise<v.InferOutput<typeof VERIFIED>> {
  const answer = await call("keys.verifyKey", { key: secret });
  expect(answer.status).toBe(200);
  return v.parse(VERIFIED, answer.data);
}

async function reroll(keyId: string, expiration: number): Promise<v.InferOutput<typeof NEW_KEY>> {
  const answer = await call("keys.rerollKey", { keyId, expiration });
  expect(answer.status).toBe(200);
  return v.parse(NEW_KEY, answer.data);
}

async function getKey(keyId: string): Promise<v.InferOutput<typeof GOT_KEY>> {
  const answer = await call("keys.getKey", { keyId });
  expect(answer.status).toBe(200);
  return v.parse(GOT_KEY, answer.data);
}

describe("keys.rerollKey", () => {
  test("two rerolls of one key at once both succeed with two new keys, as on the real service (it locks nothing)", async () => {
    const old = await newKey();
    const [first, second] = await Promise.all([reroll(old.keyId, 0), reroll(old.keyId, 0)]);

    expect(first.keyId).not.toBe(second.keyId);
    expect(first.key).not.toBe(second.key);
    expect((await verify(old.secret)).code).toBe("EXPIRED");
    // The old key is read afresh by each: the reroll that came second copied the expiry the first one gave the old
    // key (now), as the real handler's `Expires: key.Expires` does for a key it reads after the first reroll.
    const codes = await Promise.all([verify(first.key), verify(second.key)]);
    expect(codes.map((code) => code.code).sort()).toEqual(["EXPIRED", "VALID"]);
  });

  test("a second reroll of a rerolled key succeeds; its new key keeps the old key's expiry, which the second reroll sets again", async () => {
    const old = await newKey();
    const minute = 60_000;
    const first = await reroll(old.keyId, 10 * minute);
    const afterFirst = await getKey(old.keyId);
    // The old key's expiry is rounded up to the next minute, as the real handler does.
    expect(afterFirst.expires).toBeDefined();
    expect((afterFirst.expires ?? 0) % minute).toBe(0);
    expect((await getKey(first.keyId)).expires).toBeUndefined();

    const second = await reroll(old.keyId, 0);
    expect(second.keyId).not.toBe(first.keyId);
    // The second new key copies the old key's expiry as it was when read: the one the first reroll set.
    expect((await getKey(second.keyId)).expires).toBe(afterFirst.expires);
    expect((await verify(second.key)).code).toBe("VALID");
    expect((await verify(first.key)).code).toBe("VALID");
    expect((await verify(old.secret)).code).toBe("EXPIRED");
  });

  test("a reroll racing a delete of the same key: each answers 200 or 404 key_not_found, and the old key ends deleted", async () => {
    for (let round = 0; round < 5; round++) {
      const old = await newKey();
      const [rerolled, deleted] = await Promise.all([
        call("keys.rerollKey", { keyId: old.keyId, expiration: 0 }),
        call("keys.deleteKey", { keyId: old.keyId }),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(rerolled.status);
      if (rerolled.status === 404) expect(rerolled.errorCode).toBe("err:svc:data:key_not_found");
      expect((await call("keys.getKey", { keyId: old.keyId })).status).toBe(404);
    }
  });
});

describe("keys.deleteKey during keys.updateKey", () => {
  test("an update racing a delete answers 200 or 404 key_not_found, never brings the key back, and never 5xx", async () => {
    for (let round = 0; round < 10; round++) {
      const key = await newKey();
      const [updated, deleted] = await Promise.all([
        call("keys.updateKey", { keyId: key.keyId, name: `renamed ${round}`, enabled: true }),
        call("keys.deleteKey", { keyId: key.keyId }),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(updated.status);
      if (updated.status === 404) expect(updated.errorCode).toBe("err:svc:data:key_not_found");
      expect((await call("keys.getKey", { keyId: key.keyId })).status).toBe(404);
      expect((await verify(key.secret)).code).toBe("NOT_FOUND");
    }
  });

  test("two deletes at once: one 200, the other 404 key_not_found", async () => {
    const key = await newKey();
    const answers = await Promise.all([
      call("keys.deleteKey", { keyId: key.keyId }),
      call("keys.deleteKey", { keyId: key.keyId }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
    expect(answers.find((answer) => answer.status === 404)?.errorCode).toBe("err:svc:data:key_not_found");
  });
});

describe("keys.updateCredits racing verifications", () => {
  test("increments and decrements racing 120 verifications: the credits left are exact", async () => {
    const start = 1000;
    const key = await newKey(["--credits", String(start)]);
    const increments = Array.from({ length: 20 }, (_, index) => index + 1);
    const decrements = Array.from({ length: 20 }, (_, index) => 2 * index + 1);
    const changes = [
      ...increments.map((value) => call("keys.updateCredits", { keyId: key.keyId, operation: "increment", value })),
      ...decrements.map((value) => call("keys.updateCredits", { keyId: key.keyId, operation: "decrement", value })),
    ];
    const verifications = Array.from({ length: 120 }, () => verify(key.secret));
    const [changed, verified] = await Promise.all([Promise.all(changes), Promise.all(verifications)]);

    for (const answer of changed) {
      expect(answer.status).toBe(200);
      expect(v.parse(CREDITS, answer.data).remaining).not.toBeNull();
    }
    expect(verified.every((answer) => answer.code === "VALID")).toBe(true);
    const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
    const expected = start + sum(increments) - sum(decrements) - verified.length;
    expect((await getKey(key.keyId)).credits?.remaining).toBe(expected);
  });

  test("verifications racing decrements of a key with few credits: never below 0, and every credit is spent once", async () => {
    const key = await newKey(["--credits", "30"]);
    const decrements = Array.from({ length: 5 }, () =>
      call("keys.updateCredits", { keyId: key.keyId, operation: "decrement", value: 4 }),
    );
    const verifications = Array.from({ length: 40 }, () => verify(key.secret));
    const [changed, verified] = await Promise.all([Promise.all(decrements), Promise.all(verifications)]);

    const valid = verified.filter((answer) => answer.code === "VALID");
    expect(
      verified.filter((answer) => answer.code !== "VALID").every((answer) => answer.code === "USAGE_EXCEEDED"),
    ).toBe(true);
    // Each VALID answer reports the credits it left: all different, as no two spent the same credit.
    const left = valid.map((answer) => answer.credits);
    expect(new Set(left).size).toBe(left.length);
    expect(changed.every((answer) => answer.status === 200)).toBe(true);
    // 40 verifications of 30 credits: some find none left, and credits only fall, so none are left at the end.
    expect(valid.length).toBeLessThan(verified.length);
    expect((await getKey(key.keyId)).credits?.remaining).toBe(0);
    // The decrements (5 × 4) took at most 20 of the 30: at least 10 went to verifications, at most 30.
    expect(valid.length).toBeGreaterThanOrEqual(10);
    expect(valid.length).toBeLessThanOrEqual(30);
  });
});
