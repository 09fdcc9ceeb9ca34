import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.createKey (svc/api/routes/v2_keys_create_key/*_test.go), replayed over HTTP,
 * each named as its real t.Run (or Test… function). Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let creator: string;

const Created = v.object({ keyId: v.pipe(v.string(), v.regex(/^key_/)), key: v.pipe(v.string(), v.minLength(1)) });

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  creator = h.rootKey(["api.*.create_key"]);
});

afterAll(() => server.close());

const createKey = (body: object, key = creator) => h.call("keys.createKey", body, { key });
const created = async (body: object, key = creator) => v.parse(Created, dataOf(await createKey(body, key)));
const storedKey = (keyId: string) =>
  server.admin.db
    .prepare<
      [string],
      {
        name: string | null;
        hash: string;
        start: string;
        enabled: number;
        external_id: string | null;
        permissions: string;
        roles: string;
      }
    >("SELECT * FROM keys WHERE id = ?")
    .get(keyId);

const identitiesOf = (externalId: string) =>
  server.admin.db
    .prepare("SELECT count(*) FROM identities WHERE workspace_id = ? AND external_id = ?")
    .pluck()
    .get(h.workspaceId, externalId);

describe("200", () => {
  test("TestCreateKeySuccess", async () => {
    const { keyId, key } = await created({ apiId });
    const stored = storedKey(keyId);
    expect(stored?.hash).not.toBe("");
    expect(stored?.hash).not.toContain(key);
    expect(key.startsWith(stored?.start ?? "-")).toBe(true);
    expect(stored?.enabled).toBe(1);
  });

  test("TestCreateKeyWithLegacyAPIPermission", async () => {
    const { keyId } = await created({ apiId }, h.rootKey([`api.${apiId}.create_key`]));
    expect(server.admin.db.prepare("SELECT api_id FROM keys WHERE id = ?").pluck().get(keyId)).toBe(apiId);
  });

  test("TestCreateKeyWithURNPermission", async () => {
    const { keyId } = await created({ apiId }, h.rootKey([h.urn(`keyspaces/${apiId}`, "create_key")]));
    expect(server.admin.db.prepare("SELECT api_id FROM keys WHERE id = ?").pluck().get(keyId)).toBe(apiId);
  });

  test("TestCreateRecoverableKeyWithURNPermissions (served differently: 412, keys are never stored recoverable here)", async () => {
    const fresh = h.api();
    const urnCreator = h.rootKey([
      h.urn(`keyspaces/${fresh}`, "create_key"),
      h.urn(`keyspaces/${fresh}/keys/*`, "encrypt_key"),
    ]);
    const error = errorOf(await createKey({ apiId: fresh, recoverable: true }, urnCreator));
    // Past both permission checks (without encrypt_key it would be 404): the API does not store keys recoverably.
    expect([error.status, error.detail]).toEqual([412, "This API does not support key encryption."]);
  });

  test("TestCreateKeyWithOptionalFields", async () => {
    const { keyId, key } = await created({
      apiId,
      name: "Test Key",
      prefix: "test",
      externalId: "user_123",
      byteLength: 24,
      expires: 1704067200000,
      enabled: true,
    });
    expect(key).toContain("test_");
    expect(storedKey(keyId)).toMatchObject({ name: "Test Key", enabled: 1 });
    // A key names its identity by external id here; the identity is made with the key.
    expect(storedKey(keyId)?.external_id).toBe("user_123");
    expect(identitiesOf("user_123")).toBe(1);
  });

  test("TestCreateKeyConcurrentWithSameExternalId", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => created({ apiId, externalId: "user_concurrent_test" })),
    );
    expect(new Set(answers.map(({ keyId }) => storedKey(keyId)?.external_id))).toEqual(
      new Set(["user_concurrent_test"]),
    );
    expect(identitiesOf("user_concurrent_test")).toBe(1);
  });

  test("credits.remaining null without refill should succeed", async () => {
    await created({ apiId, credits: { remaining: null } });
  });

  test("falls back to 16 bytes when neither request nor keyspace provides byteLength", async () => {
    const { key } = await created({ apiId });
    expect(key.length).toBeGreaterThanOrEqual(20);
    expect(key.length).toBeLessThanOrEqual(24);
  });

  // TestCreateKeyAppliesKeySpaceDefaults: an API's default prefix and byte length (set by the admin CLI here, by the
  // real dashboard there) apply where the request leaves them out. 16 bytes encode to about 22 base58 characters, 64 to about 88.
  const MIN_ENCODED_LENGTH_FOR_64_BYTES = 80;

  test("default prefix is applied when request omits prefix", async () => {
    const { key } = await created({ apiId: h.api(h.workspaceId, { defaultPrefix: "dash" }) });
    expect(key.startsWith("dash_")).toBe(true);
  });

  test("default bytes is applied when request omits byteLength", async () => {
    const { key } = await created({ apiId: h.api(h.workspaceId, { defaultBytes: 64 }) });
    expect(key.length).toBeGreaterThanOrEqual(MIN_ENCODED_LENGTH_FOR_64_BYTES);
  });

  test("both defaults apply together", async () => {
    const { key } = await created({ apiId: h.api(h.workspaceId, { defaultPrefix: "both", defaultBytes: 64 }) });
    expect(key.startsWith("both_")).toBe(true);
    expect(key.slice("both_".length).length).toBeGreaterThanOrEqual(MIN_ENCODED_LENGTH_FOR_64_BYTES);
  });

  test("request prefix overrides keyspace default_prefix", async () => {
    const { key } = await created({ apiId: h.api(h.workspaceId, { defaultPrefix: "dash" }), prefix: "explicit" });
    expect(key.startsWith("explicit_")).toBe(true);
    expect(key.startsWith("dash_")).toBe(false);
  });

  test("request byteLength overrides keyspace default_bytes", async () => {
    const { key } = await created({ apiId: h.api(h.workspaceId, { defaultBytes: 64 }), byteLength: 16 });
    expect(key.length).toBeLessThan(MIN_ENCODED_LENGTH_FOR_64_BYTES);
  });

  test("this server's own check: a key made with the API's defaults verifies, and its start shows the default prefix", async () => {
    const { keyId, key } = await created({ apiId: h.api(h.workspaceId, { defaultPrefix: "acme", defaultBytes: 32 }) });
    expect(storedKey(keyId)?.start.startsWith("acme_")).toBe(true);
    const verified = await h.call("keys.verifyKey", { key }, { key: h.rootKey(["api.*.verify_key"]) });
    expect(dataOf(verified)).toMatchObject({ valid: true, keyId });
  });

  test("TestCreateKeyWithRolesAndPermissions", async () => {
    const roleNames = ["Billing Admin", "Support Team", "Read Only Access"];
    for (const name of roleNames) createRole(server.admin.db, h.workspaceId, name, []);
    const permissionSlugs = ["documents.read", "documents.*", "2fa.read", "api:read"];
    const { keyId } = await created({ apiId, roles: roleNames, permissions: permissionSlugs });
    const stored = storedKey(keyId);
    expect((JSON.parse(stored?.roles ?? "[]") as string[]).sort()).toEqual([...roleNames].sort());
    expect((JSON.parse(stored?.permissions ?? "[]") as string[]).sort()).toEqual([...permissionSlugs].sort());
  });
});

describe("400", () => {
  test.each([
    ["missing apiId", {}],
    ["empty apiId", { apiId: "" }],
    ["apiId too short", { apiId: "ab" }],
    ["byteLength too small", { byteLength: 10 }],
    ["byteLength too large", { byteLength: 300 }],
    ["prefix too long", { prefix: "this_prefix_is_way_too_long_for_the_api" }],
    ["negative expires timestamp", { expires: -1 }],
    ["empty permission in list", { permissions: [""] }],
    ["empty role in list", { roles: [""] }],
    ["permission too long", { permissions: ["a".repeat(513)] }],
    ["role too long", { roles: ["a".repeat(513)] }],
  ])("%s", async (name, body) => {
    const withApi = name.includes("apiId") ? body : { apiId, ...body };
    expect((await createKey(withApi)).status).toBe(400);
  });

  test("credits.remaining null with refill should error", async () => {
    const error = errorOf(
      await createKey({ apiId, credits: { remaining: null, refill: { amount: 100, interval: "daily" } } }),
    );
    expect(error.status).toBe(400);
    expect(error.detail).toContain("credits.remaining");
  });
});

describe("401", () => {
  test("this server's own check: no Authorization header is the seed's 401", async () => {
    expect(errorOf(await h.call("keys.createKey", { apiId }, "none")).status).toBe(401);
  });

  test.each([
    ["invalid bearer token", "Bearer invalid_key_12345", 401],
    ["nonexistent key", "Bearer key_2ZxY8kz7NwVhR4vZ3G9f", 401],
    ["bearer with extra spaces", "Bearer   invalid_key_with_spaces   ", 401],
  ])("%s", async (_, authorization, status) => {
    expect((await h.call("keys.createKey", { apiId }, { authorization })).status).toBe(status);
  });
});

describe("403 (answered 404: a missing permission does not tell the API exists)", () => {
  let otherApiId: string;
  beforeAll(() => {
    otherApiId = h.api();
  });

  test.each([
    ["no permissions", () => []],
    ["wrong action", () => [h.urn(`keyspaces/${apiId}`, "read_keyspace")]],
    ["create permission for different keyspace", () => [h.urn(`keyspaces/${otherApiId}`, "create_key")]],
  ])("%s", async (_, permissions) => {
    const answer = await createKey({ apiId }, h.rootKey(permissions()));
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain(apiId);
  });

  test("create recoverable key without perms", async () => {
    expect(
      (await createKey({ apiId, recoverable: true }, h.rootKey([h.urn(`keyspaces/${apiId}`, "create_key")]))).status,
    ).toBe(404);
  });
});

describe("404", () => {
  test.each([
    ["nonexistent api", () => "api_2ZxY8kz7NwVhR4vZ3G9f"],
    ["api with valid format but invalid id", () => "api_1234567890abcdef"],
    ["api with minimum valid length but nonexistent", () => "api"],
    ["deleted api", () => "api_3AbC8kz7NwVhR4vZ3G9f"],
  ])("%s", async (_, id) => {
    const error = errorOf(await createKey({ apiId: id() }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified API was not found");
  });

  test("api from different workspace", async () => {
    const other = h.workspace();
    const error = errorOf(await createKey({ apiId: h.api(other) }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified API was not found");
  });

  test.each([
    ["no permissions", []],
    ["create permission for a different keyspace", ["api.api_2ZxY8kz7NwVhR4vZ3G9f.create_key"]],
    ["unrelated permission", ["workspace.read"]],
  ])("TestCreateKeyMissingPermissionsDoNotLeakAPIOrKeyspaceState: %s", async (_, permissions) => {
    const key = h.rootKey(permissions);
    const existing = errorOf(await createKey({ apiId }, key));
    const missing = errorOf(await createKey({ apiId: "api_9ZxY8kz7NwVhR4vZ3G9f" }, key));
    expect(existing).toEqual(missing);
    expect(existing.status).toBe(404);
  });
});

describe("412", () => {
  test("Try creating a recoverable key without being opt-in", async () => {
    const fresh = h.api();
    const error = errorOf(
      await createKey(
        { apiId: fresh, recoverable: true },
        h.rootKey([`api.${fresh}.create_key`, `api.${fresh}.encrypt_key`]),
      ),
    );
    expect([error.status, error.detail]).toEqual([412, "This API does not support key encryption."]);
    expect(server.admin.db.prepare("SELECT count(*) FROM keys WHERE api_id = ?").pluck().get(fresh)).toBe(0);
  });
});
