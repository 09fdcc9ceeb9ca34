import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { AUTHORIZATION_CASES, dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.getKey and keys.whoami (svc/api/routes/v2_keys_get_key, v2_keys_whoami),
 * replayed over HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
});

afterAll(() => server.close());

const getKey = (body: unknown, key: string) => h.call("keys.getKey", body, { key });
const whoami = (body: unknown, key: string) => h.call("keys.whoami", body, { key });

/** The 200 scenarios both routes share (TestGetKey_AdditionalScenarios), by keyId and by the secret. */
const SCENARIOS = [
  [
    "key with complex meta data",
    { meta: { plan: "pro", nested: { list: [1, 2], flag: true } } },
    { meta: { plan: "pro", nested: { list: [1, 2], flag: true } } },
  ],
  ["key with expiration date", { expires: Date.now() + 86_400_000 }, {}],
  [
    "key with credits and daily refill",
    { credits: 100, refill: { interval: "daily", amount: 100 } },
    { credits: { remaining: 100, refill: { interval: "daily", amount: 100 } } },
  ],
  [
    "key with monthly refill",
    { credits: 50, refill: { interval: "monthly", amount: 50, refillDay: 15 } },
    { credits: { remaining: 50, refill: { interval: "monthly", amount: 50, refillDay: 15 } } },
  ],
  [
    "key with roles and permissions",
    { permissions: ["documents.read"], roles: ["real-test-role"] },
    { permissions: ["documents.read"], roles: ["real-test-role"] },
  ],
  [
    "key with ratelimits",
    { ratelimits: [{ name: "requests", limit: 10, durationMs: 60_000, autoApply: true }] },
    { ratelimits: [{ name: "requests", limit: 10, duration: 60_000, autoApply: true }] },
  ],
  ["disabled key", { enabled: false }, { enabled: false }],
] as const;

/** The 401 tests both routes share (TestGetKeyUnauthorized), with a body naming a key of the workspace. */
function authenticationTests(operation: string, body: () => unknown): void {
  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call(operation, body(), "none")).status).toBe(401);
  });

  test.each(AUTHORIZATION_CASES)("%s", async (_, authorization, status) => {
    expect((await h.call(operation, body(), { authorization })).status).toBe(status);
  });
}

describe("keys.getKey", () => {
  let reader: string;
  beforeAll(() => {
    reader = h.rootKey(["api.*.read_key"]);
  });

  test("get key by keyId without decrypting", async () => {
    const { keyId } = h.key(apiId);
    expect(dataOf(await getKey({ keyId, decrypt: false }, reader))).toMatchObject({ keyId, enabled: true });
  });

  test("TestGetKeyWithURNPermission", async () => {
    const { keyId } = h.key(apiId);
    const urnReader = h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "read_key")]);
    expect(dataOf(await getKey({ keyId, decrypt: false }, urnReader))).toMatchObject({ keyId });
  });

  test.each(SCENARIOS)("%s", async (_, settings, expected) => {
    const { keyId } = h.key(apiId, settings);
    expect(dataOf(await getKey({ keyId }, reader))).toMatchObject({ keyId, ...expected });
  });

  test("empty keyId string (400)", async () => {
    expect((await getKey({ keyId: "" }, reader)).status).toBe(400);
  });

  test("invalid key format", async () => {
    // The body is validated before the root key is looked at: an empty keyId with an unknown root key is a 400.
    const error = errorOf(
      await h.call(
        "keys.getKey",
        { keyId: "", decrypt: false },
        { authorization: "Bearer invalid_key_format_not_uid" },
      ),
    );
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/application\/invalid_input$/);
  });

  authenticationTests("keys.getKey", () => ({ keyId: h.key(apiId).keyId }));

  test.each([
    ["no permissions", [], false],
    ["wrong permission - has create but not read", ["api.*.create_key"], false],
    ["wrong permission - trying to decrypt key but no decrypt permissions", ["api.*.read_key"], true],
    ["decrypt permission without read permission", ["api.*.decrypt_key"], false],
    ["wrong resource type permissions", ["workspace.*.read", "identity.*.read"], false],
  ])("%s (403)", async (_, permissions, decrypt) => {
    const { keyId } = h.key(apiId);
    expect((await getKey({ keyId, decrypt }, h.rootKey(permissions))).status).toBe(403);
  });

  test("cross api access (403)", async () => {
    const { keyId } = h.key(apiId);
    expect((await getKey({ keyId }, h.rootKey([`api.${h.api()}.read_key`]))).status).toBe(403);
  });

  test("specific API permission but wrong action (403)", async () => {
    const { keyId } = h.key(apiId);
    expect((await getKey({ keyId }, h.rootKey([`api.${apiId}.delete_key`]))).status).toBe(403);
  });

  test("cross workspace access (404)", async () => {
    const { keyId } = h.key(apiId);
    expect((await getKey({ keyId }, h.rootKey(["api.*.read_key", "api.*.read_api"], h.workspace()))).status).toBe(404);
  });

  test("nonexistent keyId (404)", async () => {
    const error = errorOf(await getKey({ keyId: "key_1234567891abcdef", decrypt: false }, reader));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });

  test("key from different workspace (served differently: the unknown key's wording, so the answer tells nothing about other workspaces)", async () => {
    const { keyId } = h.key(h.api(h.workspace()));
    const error = errorOf(await getKey({ keyId, decrypt: false }, reader));
    expect(error.status).toBe(404);
    expect(error.detail).toBe("We could not find the requested key.");
  });

  test("Try getting a recoverable key without being opt-in (412)", async () => {
    const { keyId } = h.key(apiId);
    const error = errorOf(await getKey({ keyId, decrypt: true }, h.rootKey(["api.*.read_key", "api.*.decrypt_key"])));
    expect(error.status).toBe(412);
  });

  test("api not set up for key encryption (412)", async () => {
    const { keyId } = h.key(apiId);
    const error = errorOf(await getKey({ keyId, decrypt: true }, h.rootKey(["api.*.read_key", "api.*.decrypt_key"])));
    expect(error.status).toBe(412);
    expect(error.detail).toContain("does not support key encryption");
  });
});

describe("keys.whoami", () => {
  let reader: string;
  beforeAll(() => {
    reader = h.rootKey(["api.*.read_key"]);
  });

  test("get key by plaintext key", async () => {
    const { keyId, secret } = h.key(apiId);
    expect(dataOf(await whoami({ key: secret }, reader))).toMatchObject({ keyId });
  });

  test("TestWhoamiWithURNPermission", async () => {
    const { keyId, secret } = h.key(apiId);
    const urnReader = h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "read_key")]);
    expect(dataOf(await whoami({ key: secret }, urnReader))).toMatchObject({ keyId });
  });

  test.each(SCENARIOS)("%s", async (_, settings, expected) => {
    const { keyId, secret } = h.key(apiId, settings);
    expect(dataOf(await whoami({ key: secret }, reader))).toMatchObject({ keyId, ...expected });
  });

  test("empty key string (400)", async () => {
    expect((await whoami({ key: "" }, reader)).status).toBe(400);
  });

  authenticationTests("keys.whoami", () => ({ key: h.key(apiId).secret }));

  test("nonexistent raw key (404)", async () => {
    const error = errorOf(await whoami({ key: "test_nonexistent" }, reader));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });

  test.each([
    ["no permissions", []],
    ["wrong permission - has create but not read", ["api.*.create_key"]],
  ])("%s (404)", async (_, permissions) => {
    const { secret } = h.key(apiId);
    expect((await whoami({ key: secret }, h.rootKey(permissions))).status).toBe(404);
  });

  test("cross workspace access (404)", async () => {
    const { secret } = h.key(apiId);
    expect((await whoami({ key: secret }, h.rootKey(["api.*.read_key", "api.*.read_api"], h.workspace()))).status).toBe(
      404,
    );
  });

  test("cross api access (404)", async () => {
    const { secret } = h.key(apiId);
    expect((await whoami({ key: secret }, h.rootKey([`api.${h.api()}.read_key`]))).status).toBe(404);
  });
});

// TestInternalError of both routes closes the real harness's database before the call; here the keys table goes
// from under the server (the admin's connection renames it), so that reading the key fails while the root key's
// lookup, in its own table, still works.
describe("500", () => {
  let broken: InProcessServer;
  let bh: RealHarness;
  let reader: string;

  beforeAll(() => {
    broken = startInProcess();
    bh = realHarness(broken);
    reader = bh.rootKey(["api.*.read_key"]);
    broken.admin.db.exec("ALTER TABLE keys RENAME TO keys_gone");
  });

  afterAll(() => broken.close());

  test.each([
    ["keys.getKey", { keyId: "key_1234567891abcdef", decrypt: false }],
    ["keys.whoami", { key: "test_some_raw_key_string" }],
  ])("%s: database connection closed during request", async (operation, body) => {
    const answer = await bh.call(operation, body, { key: reader });
    const error = errorOf(answer);
    expect(error.status).toBe(500);
    expect(error.detail).toContain("We could not load the requested key");
    expect(error.type).toMatch(/\/errors\/svc\/application\/unexpected_error$/);
    // The server's log has the database's own error, under the answer's request id.
    const requestId = (answer.json as { meta: { requestId: string } }).meta.requestId;
    expect(broken.output()).toMatch(new RegExp(`Unexpected error in ${requestId}: .*no such table`));
  });
});
