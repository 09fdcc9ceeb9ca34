import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NewKey } from "../../../server/db/keys";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.updateKey (svc/api/routes/v2_keys_update_key/*_test.go), replayed over HTTP,
 * each named as its real t.Run (or Test… function). What the real tests read from the database is read here from
 * keys.getKey. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let updater: string;
let reader: string;

const Key = v.looseObject({
  name: v.optional(v.string()),
  meta: v.optional(v.record(v.string(), v.unknown())),
  expires: v.optional(v.number()),
  enabled: v.boolean(),
  permissions: v.optional(v.array(v.string())),
  roles: v.optional(v.array(v.string())),
  identity: v.optional(v.looseObject({ externalId: v.string() })),
  credits: v.optional(
    v.looseObject({
      remaining: v.nullable(v.number()),
      refill: v.optional(
        v.looseObject({ interval: v.string(), amount: v.number(), refillDay: v.optional(v.number()) }),
      ),
    }),
  ),
  ratelimits: v.optional(
    v.array(v.looseObject({ name: v.string(), limit: v.number(), duration: v.number(), autoApply: v.boolean() })),
  ),
});

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  updater = h.rootKey(["api.*.update_key"]);
  reader = h.rootKey(["api.*.read_key"]);
});

afterAll(() => server.close());

const updateKey = (body: object, key = updater) => h.call("keys.updateKey", body, { key });
const updated = async (body: object) => {
  const answer = await updateKey(body);
  expect(answer.status, answer.text).toBe(200);
};
const keyOf = async (keyId: string) => v.parse(Key, dataOf(await h.call("keys.getKey", { keyId }, { key: reader })));
const newKey = (settings: Partial<NewKey> = {}) => h.key(apiId, { name: "test", ...settings }).keyId;
const monthly = (amount: number, refillDay: number) => ({ interval: "monthly" as const, amount, refillDay });

describe("200", () => {
  test.each([
    ["TestUpdateKeyWithURNPermission", (keyId: string) => h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key")],
    ["TestUpdateKeyWithTranslatedAdminPermission", () => h.urn("**", "*")],
  ])("%s", async (_, permission) => {
    const keyId = newKey({ name: "before" });
    const answer = await updateKey({ keyId, name: "after" }, h.rootKey([permission(keyId)]));
    expect(answer.status, answer.text).toBe(200);
    expect((await keyOf(keyId)).name).toBe("after");
  });

  test("TestUpdateKeySuccess", async () => {
    const keyId = newKey();
    await updated({
      keyId,
      name: "test2",
      externalId: "test2",
      meta: { test: "test" },
      expires: Date.now() + 3_600_000,
      enabled: true,
    });
  });

  test("upsert ratelimit", async () => {
    const keyId = newKey();
    await updated({ keyId, ratelimits: [{ name: "test", limit: 100, duration: 300_000, autoApply: false }] });
    expect((await keyOf(keyId)).ratelimits).toMatchObject([
      { name: "test", limit: 100, duration: 300_000, autoApply: false },
    ]);
    await updated({ keyId, ratelimits: [{ name: "test", limit: 100, duration: 900_000, autoApply: true }] });
    expect((await keyOf(keyId)).ratelimits).toMatchObject([
      { name: "test", limit: 100, duration: 900_000, autoApply: true },
    ]);
  });

  test("TestUpdateKeyUpdateAllFields", async () => {
    const keyId = newKey();
    createRole(server.admin.db, h.workspaceId, "admin", []);
    createRole(server.admin.db, h.workspaceId, "user", []);
    await updated({
      keyId,
      name: "newName",
      externalId: "newExternalId",
      meta: { new: "meta" },
      expires: null,
      enabled: true,
      credits: { remaining: 100, refill: { interval: "daily", amount: 50 } },
      permissions: ["read", "write"],
      roles: ["admin", "user"],
    });
    const key = await keyOf(keyId);
    expect(key).toMatchObject({
      name: "newName",
      identity: { externalId: "newExternalId" },
      credits: { remaining: 100, refill: { amount: 50 } },
    });
  });

  test("TestKeyUpdateCreditsInvalidatesCache", async () => {
    const { keyId, secret } = h.key(apiId, { name: "test-key", credits: 100 });
    const verifier = h.rootKey(["api.*.verify_key"]);
    const verify = async () => (await h.call("keys.verifyKey", { key: secret }, { key: verifier })).json;
    expect(await verify()).toMatchObject({ data: { valid: true, credits: 99 } });
    await updated({ keyId, credits: { remaining: 50, refill: null } });
    expect(await verify()).toMatchObject({ data: { valid: true, credits: 49 } });
  });

  test("TestUpdateKeyConcurrentWithSameExternalId", async () => {
    const keyIds = Array.from({ length: 10 }, (_, i) => newKey({ name: `key-${i}` }));
    await updated({ keyId: keyIds[0], externalId: "shared_identity_deadlock_test" });
    const answers = await Promise.all(
      keyIds.map((keyId) => updateKey({ keyId, externalId: "shared_identity_deadlock_test" })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(keyIds.map(() => 200));
    const identities = server.admin.db
      .prepare("SELECT count(*) FROM identities WHERE workspace_id = ? AND external_id = ?")
      .pluck()
      .get(h.workspaceId, "shared_identity_deadlock_test");
    expect(identities).toBe(1);
    for (const keyId of keyIds) expect((await keyOf(keyId)).identity?.externalId).toBe("shared_identity_deadlock_test");
  });

  test("TestUpdateKeyConcurrentRatelimits", async () => {
    const keyId = newKey({ name: "concurrent-ratelimit-test-key" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        updateKey({
          keyId,
          ratelimits: ["a", "b", "c"].map((suffix, n) => ({
            name: `shared_limit_${suffix}`,
            limit: 100 * (n + 1) + i,
            duration: 60_000,
            autoApply: true,
          })),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect((await keyOf(keyId)).ratelimits?.map((limit) => limit.name).sort()).toEqual([
      "shared_limit_a",
      "shared_limit_b",
      "shared_limit_c",
    ]);
  });
});

describe("three-state update logic (TestThreeStateUpdateLogic)", () => {
  test("Name field three-state logic", async () => {
    const keyId = newKey();
    await updated({ keyId, name: "updated-name" });
    expect((await keyOf(keyId)).name).toBe("updated-name");
    await updated({ keyId, name: null });
    expect(await keyOf(keyId)).not.toHaveProperty("name");
    await updated({ keyId, name: "preserved-name" });
    await updated({ keyId, enabled: false });
    expect(await keyOf(keyId)).toMatchObject({ name: "preserved-name", enabled: false });
  });

  test("Meta field three-state logic", async () => {
    const keyId = newKey();
    await updated({ keyId, meta: { updated: "value" } });
    expect((await keyOf(keyId)).meta).toEqual({ updated: "value" });
    await updated({ keyId, meta: null });
    expect((await keyOf(keyId)).meta).toBeUndefined();
    await updated({ keyId, meta: { preserved: "value" } });
    await updated({ keyId, enabled: false });
    expect((await keyOf(keyId)).meta).toEqual({ preserved: "value" });
  });

  test("Expires field three-state logic", async () => {
    const keyId = newKey();
    const later = Date.now() + 86_400_000;
    await updated({ keyId, expires: later });
    expect((await keyOf(keyId)).expires).toBe(later);
    await updated({ keyId, expires: null });
    expect((await keyOf(keyId)).expires).toBeUndefined();
    await updated({ keyId, expires: later + 1000 });
    await updated({ keyId, enabled: false });
    expect((await keyOf(keyId)).expires).toBe(later + 1000);
  });

  test("Identity field three-state logic", async () => {
    const keyId = newKey();
    await updated({ keyId, externalId: "updated-user" });
    expect((await keyOf(keyId)).identity?.externalId).toBe("updated-user");
    await updated({ keyId, externalId: null });
    expect((await keyOf(keyId)).identity).toBeUndefined();
    await updated({ keyId, externalId: "preserved-user" });
    await updated({ keyId, enabled: false });
    expect((await keyOf(keyId)).identity?.externalId).toBe("preserved-user");
  });

  describe("Credits field three-state logic", () => {
    test.each([
      ["Set credits object to null clears everything", { credits: null }],
      ["Set credits.remaining to null clears everything", { credits: { remaining: null } }],
    ])("%s", async (_, change) => {
      const keyId = newKey({ credits: 100, refill: monthly(50, 15) });
      await updated({ keyId, ...change });
      expect((await keyOf(keyId)).credits).toBeUndefined();
    });

    test("Set credits.refill to null only clears refill, keeps remaining", async () => {
      const keyId = newKey({ credits: 300, refill: monthly(100, 25) });
      await updated({ keyId, credits: { refill: null } });
      expect((await keyOf(keyId)).credits).toEqual({ remaining: 300 });
    });

    test("Update refill without touching remaining", async () => {
      const keyId = newKey({ credits: 500, refill: monthly(50, 5) });
      await updated({ keyId, credits: { refill: { interval: "monthly", amount: 150, refillDay: 20 } } });
      expect((await keyOf(keyId)).credits).toMatchObject({ remaining: 500, refill: { amount: 150, refillDay: 20 } });
    });

    test("Update remaining without touching refill", async () => {
      const keyId = newKey({ name: "update-remaining-only", credits: 100, refill: monthly(200, 12) });
      await updated({ keyId, credits: { remaining: 999 } });
      expect((await keyOf(keyId)).credits).toMatchObject({ remaining: 999, refill: { amount: 200, refillDay: 12 } });
    });

    test("Undefined credits keeps everything", async () => {
      const keyId = newKey({ name: "undefined-credits-test", credits: 777, refill: monthly(111, 28) });
      await updated({ keyId, name: "renamed" });
      expect((await keyOf(keyId)).credits).toMatchObject({ remaining: 777, refill: { amount: 111, refillDay: 28 } });
    });

    test("Daily refill without refillDay", async () => {
      const keyId = newKey({ credits: 50 });
      await updated({ keyId, credits: { refill: { interval: "daily", amount: 25 } } });
      const { credits } = await keyOf(keyId);
      expect(credits).toMatchObject({ remaining: 50, refill: { interval: "daily", amount: 25 } });
      expect(credits?.refill?.refillDay).toBeUndefined();
    });

    test("Complex sequence of updates", async () => {
      const keyId = newKey();
      await updated({
        keyId,
        credits: { remaining: 1000, refill: { interval: "monthly", amount: 500, refillDay: 1 } },
      });
      await updated({ keyId, credits: { refill: null } });
      expect((await keyOf(keyId)).credits).toEqual({ remaining: 1000 });
      await updated({ keyId, credits: { refill: { interval: "daily", amount: 250 } } });
      expect((await keyOf(keyId)).credits).toMatchObject({ remaining: 1000, refill: { amount: 250 } });
      await updated({ keyId, credits: null });
      expect((await keyOf(keyId)).credits).toBeUndefined();
    });
  });

  test("All fields simultaneously", async () => {
    const keyId = newKey({ name: "initial-name", meta: { initial: "value" }, expires: Date.now() + 86_400_000 });
    await updated({ keyId, externalId: "initial-user" });
    await updated({ keyId, name: "updated-name", externalId: null, meta: {}, expires: null, enabled: false });
    const key = await keyOf(keyId);
    expect(key).toMatchObject({ name: "updated-name", enabled: false });
    expect(key.identity).toBeUndefined();
    expect(key.meta ?? {}).toEqual({});
    expect(key.expires).toBeUndefined();
  });
});

describe("400", () => {
  test("reject invalid refill config", async () => {
    const error = errorOf(
      await updateKey({
        keyId: newKey(),
        credits: { remaining: 100, refill: { interval: "daily", amount: 100, refillDay: 4 } },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.detail).toContain("must not be provided when the refill interval is");
  });
});

describe("401", () => {
  test("this server's own check: no Authorization header is the seed's 401", async () => {
    expect(errorOf(await h.call("keys.updateKey", { keyId: newKey() }, "none")).status).toBe(401);
  });

  test.each([
    ["invalid bearer token", "Bearer invalid_key_12345", 401],
    ["nonexistent key", "Bearer key_2ZxY8kz7NwVhR4vZ3G9f", 401],
    ["bearer with extra spaces", "Bearer   invalid_key_with_spaces   ", 401],
  ])("%s", async (_, authorization, status) => {
    expect((await h.call("keys.updateKey", { keyId: newKey() }, { authorization })).status).toBe(status);
  });
});

describe("403", () => {
  test.each([
    ["wildcard api", () => ["api.*.update_key"]],
    ["specific api", (api: string) => [`api.${api}.update_key`]],
  ])("TestUpdateKeyCorrectPermissions: %s", async (_, permissions) => {
    const api = h.api();
    const { keyId } = h.key(api, { name: "test" });
    expect((await updateKey({ keyId, enabled: false }, h.rootKey(permissions(api)))).status).toBe(200);
  });

  test("TestUpdateKeyInsufficientPermissions", async () => {
    expect((await updateKey({ keyId: newKey(), enabled: false }, h.rootKey(["api.*.create_key"]))).status).toBe(403);
  });

  test("TestUpdateKeyCrossWorkspaceIsolation (served differently: one wording for a key of another workspace and an unknown id)", async () => {
    const error = errorOf(
      await updateKey({ keyId: newKey(), enabled: false }, h.rootKey(["api.*.update_key"], h.workspace())),
    );
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });
});

describe("404", () => {
  test("when the key does not exist", async () => {
    const error = errorOf(await updateKey({ keyId: "nonexistent_key", enabled: false }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });

  test("when the key has been deleted", async () => {
    const keyId = newKey();
    expect((await h.call("keys.deleteKey", { keyId }, { key: h.rootKey(["api.*.delete_key"]) })).status).toBe(200);
    const error = errorOf(await updateKey({ keyId, enabled: false }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });
});
