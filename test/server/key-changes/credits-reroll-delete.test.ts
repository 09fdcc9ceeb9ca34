import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { updateApi } from "../../../server/db/apis";
import { startInProcess, type InProcessServer } from "../in-process";
import { ALL_KEY_PERMISSIONS, call, createKey, dataOf, errorOf, getKey, listedKeyIds, verify } from "./support";

let server: InProcessServer;
let rootKey: string;
let apiId: string;

beforeAll(() => {
  server = startInProcess();
  rootKey = server.admin.createRootKey({ permissions: ALL_KEY_PERMISSIONS }).secret;
  apiId = server.admin.createApi("changes");
});

afterAll(() => server.close());

describe("keys.updateCredits", () => {
  test("set, increment and decrement answer the key's credits, and the next verification spends from them", async () => {
    const created = await createKey(server, rootKey, {
      apiId,
      credits: { remaining: 5, refill: { interval: "daily", amount: 5 } },
    });
    expect(
      dataOf(await call(server, "keys.updateCredits", rootKey, { keyId: created.keyId, operation: "set", value: 2 })),
    ).toEqual({
      remaining: 2,
      refill: { interval: "daily", amount: 5 },
    });
    expect(
      dataOf(
        await call(server, "keys.updateCredits", rootKey, { keyId: created.keyId, operation: "increment", value: 3 }),
      ),
    ).toMatchObject({ remaining: 5 });
    expect(await verify(server, rootKey, created.key)).toMatchObject({ valid: true, credits: 4 });
    expect(
      dataOf(
        await call(server, "keys.updateCredits", rootKey, { keyId: created.keyId, operation: "decrement", value: 10 }),
      ),
    ).toMatchObject({ remaining: 0 });
    expect(await verify(server, rootKey, created.key)).toMatchObject({ valid: false, code: "USAGE_EXCEEDED" });
    expect((await getKey(server, rootKey, created.keyId)).credits).toMatchObject({ remaining: 0 });
  });

  test("set null makes the key unlimited and drops its refill; it then cannot be incremented", async () => {
    const created = await createKey(server, rootKey, {
      apiId,
      credits: { remaining: 1, refill: { interval: "daily", amount: 5 } },
    });
    expect(
      dataOf(
        await call(server, "keys.updateCredits", rootKey, { keyId: created.keyId, operation: "set", value: null }),
      ),
    ).toEqual({ remaining: null });
    expect((await getKey(server, rootKey, created.keyId)).credits).toBeUndefined();
    expect(await verify(server, rootKey, created.key)).toMatchObject({ valid: true });
    expect(
      errorOf(
        await call(server, "keys.updateCredits", rootKey, { keyId: created.keyId, operation: "increment", value: 1 }),
      ),
    ).toMatchObject({
      status: 400,
      detail: "You cannot increment or decrement a key with unlimited credits.",
    });
  });

  test("an increment past the largest whole number a client can read is refused with 400 and leaves the credits as they were", async () => {
    const created = await createKey(server, rootKey, { apiId, credits: { remaining: Number.MAX_SAFE_INTEGER - 1 } });
    expect(
      dataOf(
        await call(server, "keys.updateCredits", rootKey, { keyId: created.keyId, operation: "increment", value: 1 }),
      ),
    ).toEqual({
      remaining: Number.MAX_SAFE_INTEGER,
    });
    // Repeated, the same increment once walked past 2^53 (numbers JSON readers round) and then past SQLite's
    // 64-bit integers, where every further one failed with a 500.
    for (let i = 0; i < 3; i += 1) {
      const refused = errorOf(
        await call(server, "keys.updateCredits", rootKey, {
          keyId: created.keyId,
          operation: "increment",
          value: Number.MAX_SAFE_INTEGER,
        }),
      );
      expect(refused).toMatchObject({
        status: 400,
        code: "err:svc:application:invalid_input",
        locations: ["body.value"],
      });
      expect(refused.detail).toContain(String(Number.MAX_SAFE_INTEGER));
    }
    expect((await getKey(server, rootKey, created.keyId)).credits).toEqual({ remaining: Number.MAX_SAFE_INTEGER });
  });

  test("bad input is 400; an unknown key 404; without update_key 403", async () => {
    const created = await createKey(server, rootKey, { apiId, credits: { remaining: 1 } });
    for (const body of [
      {},
      { keyId: created.keyId },
      { keyId: created.keyId, operation: "double", value: 1 },
      { keyId: created.keyId, operation: "set", value: -1 },
      { keyId: created.keyId, operation: "set", value: 1.5 },
    ]) {
      expect(errorOf(await call(server, "keys.updateCredits", rootKey, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(
      errorOf(await call(server, "keys.updateCredits", rootKey, { keyId: created.keyId, operation: "decrement" })),
    ).toMatchObject({
      status: 400,
      detail: "When specifying an increment or decrement operation, a value must be provided.",
    });
    expect(
      errorOf(await call(server, "keys.updateCredits", rootKey, { keyId: "key_nothere1", operation: "set", value: 1 })),
    ).toMatchObject({
      status: 404,
      detail: "We could not find the requested key.",
    });
    const creator = server.admin.createRootKey({ permissions: ["api.*.create_key"] }).secret;
    expect(
      errorOf(await call(server, "keys.updateCredits", creator, { keyId: created.keyId, operation: "set", value: 9 }))
        .status,
    ).toBe(403);
    expect((await getKey(server, rootKey, created.keyId)).credits).toMatchObject({ remaining: 1 });
  });
});

describe("keys.rerollKey", () => {
  test("the new key copies the old one's settings; with expiration 0 the old one stops at once", async () => {
    const old = await createKey(server, rootKey, {
      apiId,
      prefix: "acme",
      name: "rolled",
      externalId: "user_9",
      meta: { plan: "pro" },
      permissions: ["documents.read"],
      credits: { remaining: 7, refill: { interval: "monthly", amount: 10, refillDay: 2 } },
      ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }],
    });
    const rolled = dataOf(await call(server, "keys.rerollKey", rootKey, { keyId: old.keyId, expiration: 0 }));
    const { keyId, key } = rolled as { keyId: string; key: string };
    expect(key).toMatch(/^acme_/);
    expect(keyId).not.toBe(old.keyId);
    const copy = await getKey(server, rootKey, keyId);
    expect(copy).toMatchObject({
      name: "rolled",
      meta: { plan: "pro" },
      permissions: ["documents.read"],
      credits: { remaining: 7, refill: { interval: "monthly", amount: 10, refillDay: 2 } },
      identity: { externalId: "user_9" },
      ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }],
    });
    expect(await verify(server, rootKey, key)).toMatchObject({ valid: true });
    expect(await verify(server, rootKey, old.key)).toMatchObject({ valid: false, code: "EXPIRED" });
    expect(await listedKeyIds(server, rootKey, apiId)).toEqual(expect.arrayContaining([old.keyId, keyId]));
  });

  test("the new key keeps what the old one's start holds before its first _, as the real handler (`my_app_…` becomes `my_…`)", async () => {
    const old = await createKey(server, rootKey, { apiId, prefix: "my_app" });
    expect(old.key).toMatch(/^my_app_/);
    const { key } = dataOf(await call(server, "keys.rerollKey", rootKey, { keyId: old.keyId, expiration: 0 })) as {
      key: string;
    };
    expect(key).toMatch(/^my_[1-9A-HJ-NP-Za-km-z]+$/);
    expect(await verify(server, rootKey, key)).toMatchObject({ valid: true });
  });

  test("a key without a prefix gets the API's default prefix, and the API's default byte length, as the real handler", async () => {
    const spaced = server.admin.createApi("with defaults");
    const old = await createKey(server, rootKey, { apiId: spaced });
    updateApi(server.admin.db, spaced, { defaultPrefix: "acme", defaultBytes: 64 });
    const { key } = dataOf(await call(server, "keys.rerollKey", rootKey, { keyId: old.keyId, expiration: 0 })) as {
      key: string;
    };
    expect(key).toMatch(/^acme_/);
    // 64 bytes: about 88 base58 characters, where 16 make about 22.
    expect(key.length - "acme_".length).toBeGreaterThanOrEqual(80);
    expect(await verify(server, rootKey, key)).toMatchObject({ valid: true });
  });

  test("with an expiration the old key works until then, rounded up to the minute", async () => {
    const old = await createKey(server, rootKey, { apiId });
    const before = Date.now();
    dataOf(await call(server, "keys.rerollKey", rootKey, { keyId: old.keyId, expiration: 3_600_000 }));
    const expires = (await getKey(server, rootKey, old.keyId)).expires ?? 0;
    expect(expires % 60_000).toBe(0);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_660_000);
    expect(await verify(server, rootKey, old.key)).toMatchObject({ valid: true });
  });

  test("without create_key: 403 and no new key; unknown key 404; bad input 400", async () => {
    const old = await createKey(server, rootKey, { apiId });
    const before = await listedKeyIds(server, rootKey, apiId);
    const updater = server.admin.createRootKey({ permissions: ["api.*.update_key", "api.*.read_key"] }).secret;
    expect(errorOf(await call(server, "keys.rerollKey", updater, { keyId: old.keyId, expiration: 0 })).status).toBe(
      403,
    );
    expect(await listedKeyIds(server, rootKey, apiId)).toEqual(before);
    expect(await verify(server, rootKey, old.key)).toMatchObject({ valid: true });
    expect(
      errorOf(await call(server, "keys.rerollKey", rootKey, { keyId: "key_nothere1", expiration: 0 })),
    ).toMatchObject({
      status: 404,
      detail: "The specified key was not found.",
    });
    for (const body of [{ keyId: old.keyId }, { keyId: old.keyId, expiration: -1 }, { expiration: 0 }]) {
      expect(errorOf(await call(server, "keys.rerollKey", rootKey, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("keys.deleteKey", () => {
  test("a deleted key is found by nothing at once: verify NOT_FOUND, getKey 404, gone from apis.listKeys", async () => {
    for (const permanent of [false, true]) {
      const created = await createKey(server, rootKey, {
        apiId,
        ratelimits: [{ name: "requests", limit: 1, duration: 1000 }],
      });
      expect(await listedKeyIds(server, rootKey, apiId)).toContain(created.keyId);
      expect(dataOf(await call(server, "keys.deleteKey", rootKey, { keyId: created.keyId, permanent }))).toEqual({});
      expect(await verify(server, rootKey, created.key)).toMatchObject({ valid: false, code: "NOT_FOUND" });
      expect(errorOf(await call(server, "keys.getKey", rootKey, { keyId: created.keyId })).status).toBe(404);
      expect(await listedKeyIds(server, rootKey, apiId)).not.toContain(created.keyId);
      const rows = server.admin.db.prepare("SELECT count(*) AS n FROM keys WHERE id = ?").get(created.keyId);
      expect(rows).toEqual({ n: permanent ? 0 : 1 });
      expect(errorOf(await call(server, "keys.deleteKey", rootKey, { keyId: created.keyId })).status).toBe(404);
    }
  });

  test("without delete_key: 403 and the key stays; delete_key on another API is not enough", async () => {
    const created = await createKey(server, rootKey, { apiId });
    const other = server.admin.createApi("other");
    for (const permissions of [["api.*.create_key", "api.*.update_key"], [`api.${other}.delete_key`]]) {
      const limited = server.admin.createRootKey({ permissions }).secret;
      expect(errorOf(await call(server, "keys.deleteKey", limited, { keyId: created.keyId })).status).toBe(403);
    }
    const scoped = server.admin.createRootKey({ permissions: [`api.${apiId}.delete_key`] }).secret;
    expect(await verify(server, rootKey, created.key)).toMatchObject({ valid: true });
    expect((await call(server, "keys.deleteKey", scoped, { keyId: created.keyId })).status).toBe(200);
  });

  test("bad input is 400; without a root key 401", async () => {
    for (const body of [{}, { keyId: "key_x", permanent: "yes" }, { keyId: "key x" }]) {
      expect(errorOf(await call(server, "keys.deleteKey", rootKey, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(errorOf(await call(server, "keys.deleteKey", undefined, { keyId: "key_x" })).status).toBe(401);
  });
});
