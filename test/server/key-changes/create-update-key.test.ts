import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { hashSecret } from "../../../server/keys/secrets";
import { startInProcess, type InProcessServer } from "../in-process";
import { ALL_KEY_PERMISSIONS, call, createKey, dataOf, errorOf, getKey, listedKeyIds, verify } from "./support";

let server: InProcessServer;
let rootKey: string;
let apiId: string;

beforeAll(() => {
  server = startInProcess();
  rootKey = server.admin.createRootKey({ permissions: ALL_KEY_PERMISSIONS }).secret;
  apiId = server.admin.createApi("changes");
  createRole(server.admin.db, server.admin.workspaceId, "doc-reader", ["documents.read"]);
});

afterAll(() => server.close());

describe("keys.createKey", () => {
  test("answers the secret once; the key is stored with its hash only and is verified, read and listed at once", async () => {
    const created = await createKey(server, rootKey, {
      apiId,
      prefix: "acme",
      name: "checkout",
      externalId: "user_1",
      meta: { plan: "pro" },
      permissions: ["documents.write"],
      roles: ["doc-reader"],
      expires: Date.now() + 3_600_000,
      credits: { remaining: 5, refill: { interval: "monthly", amount: 10, refillDay: 3 } },
      ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }],
    });
    expect(created.key).toMatch(/^acme_[1-9A-HJ-NP-Za-km-z]{22}$/);
    const stored = server.admin.db
      .prepare<[string], { hash: string; start: string }>("SELECT hash, start FROM keys WHERE id = ?")
      .get(created.keyId);
    expect(stored).toEqual({ hash: hashSecret(created.key), start: created.key.slice(0, "acme_".length + 4) });
    expect(JSON.stringify(server.admin.db.prepare("SELECT * FROM keys WHERE id = ?").get(created.keyId))).not.toContain(
      created.key,
    );

    const key = await getKey(server, rootKey, created.keyId);
    expect(key).toMatchObject({
      name: "checkout",
      meta: { plan: "pro" },
      permissions: ["documents.read", "documents.write"],
      roles: ["doc-reader"],
      credits: { remaining: 5, refill: { interval: "monthly", amount: 10, refillDay: 3 } },
      identity: { externalId: "user_1" },
      ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }],
    });
    expect(await verify(server, rootKey, created.key)).toMatchObject({ valid: true, credits: 4 });
    expect(await listedKeyIds(server, rootKey, apiId)).toContain(created.keyId);
  });

  test("a key without prefix or byteLength is 16 random bytes of base58; byteLength makes it longer", async () => {
    expect((await createKey(server, rootKey, { apiId })).key).toMatch(/^[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect((await createKey(server, rootKey, { apiId, byteLength: 32 })).key).toMatch(/^[1-9A-HJ-NP-Za-km-z]{44}$/);
  });

  test("a recoverable key is refused with the real service's 412 (404 without encrypt_key): keys here are never stored recoverable", async () => {
    const before = await listedKeyIds(server, rootKey, apiId);
    expect(errorOf(await call(server, "keys.createKey", rootKey, { apiId, recoverable: true }))).toMatchObject({
      status: 404,
    });
    const encrypter = server.admin.createRootKey({ permissions: [...ALL_KEY_PERMISSIONS, "api.*.encrypt_key"] }).secret;
    expect(errorOf(await call(server, "keys.createKey", encrypter, { apiId, recoverable: true }))).toMatchObject({
      status: 412,
      code: "err:svc:application:precondition_failed",
      detail: "This API does not support key encryption.",
    });
    expect(await listedKeyIds(server, rootKey, apiId)).toEqual(before);
  });

  test("a disabled key is created disabled", async () => {
    const created = await createKey(server, rootKey, { apiId, enabled: false });
    expect(await verify(server, rootKey, created.key)).toMatchObject({ valid: false, code: "DISABLED" });
  });

  test("without create_key the API is said not to exist (404), as on the real service, and nothing is created", async () => {
    const reader = server.admin.createRootKey({ permissions: ["api.*.read_key"] }).secret;
    const before = await listedKeyIds(server, rootKey, apiId);
    const answer = await call(server, "keys.createKey", reader, { apiId });
    expect(errorOf(answer)).toMatchObject({
      status: 404,
      code: "err:svc:data:api_not_found",
      detail: "The specified API was not found.",
    });
    expect(await listedKeyIds(server, rootKey, apiId)).toEqual(before);
  });

  test("create_key on this one API is enough", async () => {
    const scoped = server.admin.createRootKey({ permissions: [`api.${apiId}.create_key`] }).secret;
    expect((await call(server, "keys.createKey", scoped, { apiId })).status).toBe(200);
  });

  test("an unknown API is 404, an unknown role is 404 and nothing is created", async () => {
    expect(errorOf(await call(server, "keys.createKey", rootKey, { apiId: "api_nothere1" }))).toMatchObject({
      status: 404,
      code: "err:svc:data:api_not_found",
    });
    const before = await listedKeyIds(server, rootKey, apiId);
    const answer = await call(server, "keys.createKey", rootKey, {
      apiId,
      roles: ["doc-reader", "ghost"],
      permissions: ["brand.new"],
    });
    expect(errorOf(answer)).toMatchObject({
      status: 404,
      code: "err:svc:data:role_not_found",
      detail: "Role 'ghost' was not found.",
    });
    expect(await listedKeyIds(server, rootKey, apiId)).toEqual(before);
    expect(server.admin.db.prepare("SELECT count(*) AS n FROM permissions WHERE slug = 'brand.new'").get()).toEqual({
      n: 0,
    });
  });

  test("bad input is a 400 naming the field, never a 5xx", async () => {
    const cases: [unknown, string][] = [
      [{}, "body.apiId"],
      [{ apiId, byteLength: 8 }, "body.byteLength"],
      [{ apiId, prefix: "has space" }, "body.prefix"],
      [{ apiId, expires: -1 }, "body.expires"],
      [{ apiId, meta: [] }, "body.meta"],
      [{ apiId, credits: { remaining: -1 } }, "body.credits"],
      [{ apiId, ratelimits: [{ name: "r", limit: 1, duration: 1000 }] }, "body.ratelimits"],
      [{ apiId, ratelimits: [{ name: "requests", limit: 1, duration: 10 }] }, "body.ratelimits"],
      [{ apiId, permissions: ["has space"] }, "body.permissions"],
      [{ apiId, unknown: 1 }, "body.unknown"],
      [{ apiId, credits: { remaining: null, refill: { interval: "daily", amount: 1 } } }, "body.credits.remaining"],
      [
        { apiId, credits: { remaining: 1, refill: { interval: "monthly", amount: 1 } } },
        "body.credits.refill.refillDay",
      ],
      ["not json", "body"],
    ];
    for (const [body, location] of cases) {
      const answer = await call(server, "keys.createKey", rootKey, body);
      expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBe(400);
      const error = errorOf(answer);
      expect(error.status, JSON.stringify(body)).toBe(400);
      expect(error.locations[0], JSON.stringify(body)).toMatch(new RegExp(`^${location.replaceAll(".", "\\.")}`));
    }
  });

  test("without a root key: 401", async () => {
    expect(errorOf(await call(server, "keys.createKey", undefined, { apiId })).status).toBe(401);
    expect(errorOf(await call(server, "keys.createKey", "ks_root_unknown", { apiId })).status).toBe(401);
  });
});

describe("roles and permissions given to createKey and updateKey (#29)", () => {
  // The real service authorizes both operations by create_key / update_key alone: its TestCreateKeyWithRolesAndPermissions
  // and TestUpdateKeyUpdateAllFields use a root key with only that permission, and no rbac.* check is in either handler.
  test("create_key alone sets roles and permissions, creating a missing permission, as on the real service", async () => {
    const creator = server.admin.createRootKey({ permissions: ["api.*.create_key"] }).secret;
    const created = await createKey(server, creator, { apiId, roles: ["doc-reader"], permissions: ["rbac29.created"] });
    expect(await getKey(server, rootKey, created.keyId)).toMatchObject({
      roles: ["doc-reader"],
      permissions: ["documents.read", "rbac29.created"],
    });
  });

  test("update_key alone sets roles and permissions, creating a missing permission, as on the real service", async () => {
    const created = await createKey(server, rootKey, { apiId });
    const updater = server.admin.createRootKey({ permissions: ["api.*.update_key"] }).secret;
    const answer = await call(server, "keys.updateKey", updater, {
      keyId: created.keyId,
      roles: ["doc-reader"],
      permissions: ["rbac29.updated"],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(await getKey(server, rootKey, created.keyId)).toMatchObject({
      roles: ["doc-reader"],
      permissions: ["documents.read", "rbac29.updated"],
    });
  });
});

describe("keys.updateKey", () => {
  test("every field given replaces the key's, null clears, and the next read and verification see it", async () => {
    const created = await createKey(server, rootKey, {
      apiId,
      name: "before",
      externalId: "user_2",
      meta: { a: 1 },
      expires: Date.now() + 3_600_000,
      credits: { remaining: 1, refill: { interval: "daily", amount: 5 } },
      ratelimits: [
        { name: "requests", limit: 10, duration: 60_000, autoApply: true },
        { name: "burst", limit: 2, duration: 1000 },
      ],
      permissions: ["documents.read"],
    });
    const answer = await call(server, "keys.updateKey", rootKey, {
      keyId: created.keyId,
      name: "after",
      externalId: "user_3",
      meta: { b: 2 },
      expires: null,
      credits: { remaining: 50, refill: { interval: "monthly", amount: 100, refillDay: 15 } },
      ratelimits: [{ name: "requests", limit: 20, duration: 1000, autoApply: false }],
      roles: ["doc-reader"],
      permissions: ["documents.write"],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ data: {} });
    const key = await getKey(server, rootKey, created.keyId);
    expect(key).toMatchObject({
      name: "after",
      meta: { b: 2 },
      identity: { externalId: "user_3" },
      credits: { remaining: 50, refill: { interval: "monthly", amount: 100, refillDay: 15 } },
      roles: ["doc-reader"],
      permissions: ["documents.read", "documents.write"],
    });
    expect(key.expires).toBeUndefined();
    expect(key.updatedAt).toBeGreaterThan(0);
    expect(key.ratelimits).toEqual([
      { id: expect.any(String) as string, name: "requests", limit: 20, duration: 1000, autoApply: false },
    ]);

    await call(server, "keys.updateKey", rootKey, {
      keyId: created.keyId,
      name: null,
      meta: null,
      externalId: null,
      credits: null,
      ratelimits: [],
    });
    const cleared = await getKey(server, rootKey, created.keyId);
    expect(cleared.meta).toBeUndefined();
    expect(cleared.identity).toBeUndefined();
    expect(cleared.credits).toBeUndefined();
    expect(cleared.ratelimits).toBeUndefined();
    expect(cleared).not.toHaveProperty("name");

    await call(server, "keys.updateKey", rootKey, { keyId: created.keyId, enabled: false });
    expect(await verify(server, rootKey, created.key)).toMatchObject({ code: "DISABLED" });
    await call(server, "keys.updateKey", rootKey, { keyId: created.keyId, enabled: true, expires: Date.now() - 1 });
    expect(await verify(server, rootKey, created.key)).toMatchObject({ code: "EXPIRED" });
  });

  test("credits.remaining null makes the key unlimited and drops its refill; refill null drops only the refill", async () => {
    const created = await createKey(server, rootKey, {
      apiId,
      credits: { remaining: 3, refill: { interval: "daily", amount: 5 } },
    });
    await call(server, "keys.updateKey", rootKey, { keyId: created.keyId, credits: { refill: null } });
    expect((await getKey(server, rootKey, created.keyId)).credits).toEqual({ remaining: 3 });
    await call(server, "keys.updateKey", rootKey, { keyId: created.keyId, credits: { remaining: null } });
    expect((await getKey(server, rootKey, created.keyId)).credits).toBeUndefined();
  });

  test("without update_key: 403 naming the permission, and nothing changes", async () => {
    const created = await createKey(server, rootKey, { apiId, name: "kept" });
    const creator = server.admin.createRootKey({ permissions: ["api.*.create_key", "api.*.read_key"] }).secret;
    const error = errorOf(await call(server, "keys.updateKey", creator, { keyId: created.keyId, name: "changed" }));
    expect(error).toMatchObject({ status: 403, code: "err:svc:authorization:insufficient_permissions" });
    expect(error.detail).toContain("api.*.update_key");
    expect((await getKey(server, rootKey, created.keyId)).name).toBe("kept");
  });

  test("an unknown role refuses the whole update: nothing of it is kept", async () => {
    const created = await createKey(server, rootKey, { apiId, name: "kept" });
    // The identity is written before the roles are found missing: the refusal undoes it too.
    const error = errorOf(
      await call(server, "keys.updateKey", rootKey, {
        keyId: created.keyId,
        name: "changed",
        externalId: "rolled_back",
        roles: ["ghost"],
      }),
    );
    expect(error).toMatchObject({ status: 404, code: "err:svc:data:role_not_found" });
    expect((await getKey(server, rootKey, created.keyId)).name).toBe("kept");
    expect(
      server.admin.db.prepare("SELECT count(*) AS n FROM identities WHERE external_id = 'rolled_back'").get(),
    ).toEqual({ n: 0 });
  });

  test("an unknown key is 404 in the real service's words; bad input is 400", async () => {
    expect(errorOf(await call(server, "keys.updateKey", rootKey, { keyId: "key_nothere1", name: "x" }))).toMatchObject({
      status: 404,
      code: "err:svc:data:key_not_found",
      detail: "We could not find the requested key.",
    });
    for (const body of [
      {},
      { keyId: "key_x", name: "" },
      { keyId: "key_x", enabled: "yes" },
      { keyId: "key_x", credits: { refill: { interval: "weekly", amount: 1 } } },
    ]) {
      expect(errorOf(await call(server, "keys.updateKey", rootKey, body)).status, JSON.stringify(body)).toBe(400);
    }
    const created = await createKey(server, rootKey, { apiId });
    const daily = errorOf(
      await call(server, "keys.updateKey", rootKey, {
        keyId: created.keyId,
        credits: { refill: { interval: "daily", amount: 1, refillDay: 2 } },
      }),
    );
    expect(daily).toMatchObject({
      status: 400,
      detail: "`refillDay` must not be provided when the refill interval is `daily`.",
    });
  });
});

describe("a key with no name", () => {
  /** Every answer that carries this key, by operation: keys.listKeys is the seed's, whose keys always have a name. */
  async function answersFor(created: { keyId: string; key: string }) {
    const data = async (operation: string, body: Record<string, unknown>) =>
      dataOf(await call(server, operation, rootKey, body));
    const listed = (keys: unknown) =>
      v.parse(v.array(v.looseObject({ keyId: v.string() })), keys).find((key) => key.keyId === created.keyId);
    return {
      getKey: await data("keys.getKey", { keyId: created.keyId }),
      whoami: await data("keys.whoami", { key: created.key }),
      verifyKey: await data("keys.verifyKey", { key: created.key }),
      "apis.listKeys": listed(await data("apis.listKeys", { apiId, limit: 100 })),
      "keys.listKeys": listed(
        v.parse(v.object({ keys: v.unknown() }), await data("keys.listKeys", { apiId, limit: 100 })).keys,
      ),
    };
  }

  function expectNameless(answers: Awaited<ReturnType<typeof answersFor>>) {
    for (const operation of ["getKey", "whoami", "verifyKey", "apis.listKeys"] as const) {
      expect(answers[operation], operation).toBeDefined();
      expect(answers[operation], operation).not.toHaveProperty("name");
    }
    expect(answers["keys.listKeys"]).toMatchObject({ name: "" });
  }

  test('created without one: answered without name, as the real service does (the seed\'s keys.listKeys: name "")', async () => {
    expectNameless(await answersFor(await createKey(server, rootKey, { apiId })));
  });

  test("cleared with name: null: answered without name; a name given again is answered everywhere", async () => {
    const created = await createKey(server, rootKey, { apiId, name: "to clear" });
    await call(server, "keys.updateKey", rootKey, { keyId: created.keyId, name: null });
    expectNameless(await answersFor(created));
    await call(server, "keys.updateKey", rootKey, { keyId: created.keyId, name: "named again" });
    for (const answer of Object.values(await answersFor(created)))
      expect(answer).toMatchObject({ name: "named again" });
  });

  test("an empty name is refused, by createKey and updateKey alike (the real minLength 1)", async () => {
    expect((await call(server, "keys.createKey", rootKey, { apiId, name: "" })).status).toBe(400);
    const created = await createKey(server, rootKey, { apiId, name: "kept" });
    expect((await call(server, "keys.updateKey", rootKey, { keyId: created.keyId, name: "" })).status).toBe(400);
    expect(await getKey(server, rootKey, created.keyId)).toMatchObject({ name: "kept" });
  });
});
