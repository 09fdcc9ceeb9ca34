import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "./in-process";
import { realHarness, type RealHarness } from "./real-routes/real-harness";

/**
 * URN-form root-key permissions (`unkey:v1:<ws>:<resource>#<action>`) allow what the real service's handlers let
 * them allow, and no more: the route tests in real-routes/ replay what they allow; these are what they must not.
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

const keyUrn = (keyId: string, action: string, api = apiId) => h.urn(`keyspaces/${api}/keys/${keyId}`, action);
const rename = (keyId: string, permissions: string[]) =>
  h.call("keys.updateKey", { keyId, name: "renamed" }, { key: h.rootKey(permissions) });
const storedName = (keyId: string) => server.admin.db.prepare("SELECT name FROM keys WHERE id = ?").pluck().get(keyId);

describe("a URN names one resource, one action, one workspace", () => {
  test("update_key on one key changes that key, not another key of the same API", async () => {
    const { keyId } = h.key(apiId);
    const other = h.key(apiId).keyId;
    const answer = await rename(other, [keyUrn(keyId, "update_key")]);
    expect(answer.status).toBe(403);
    expect(answer.text).toContain(keyUrn(other, "update_key"));
    expect(storedName(other)).toBe("test key");
  });

  test("update_key on a key neither deletes nor reads it", async () => {
    const { keyId } = h.key(apiId);
    const key = h.rootKey([keyUrn(keyId, "update_key")]);
    expect((await h.call("keys.deleteKey", { keyId }, { key })).status).toBe(403);
    expect((await h.call("keys.getKey", { keyId }, { key })).status).toBe(403);
    expect(server.admin.db.prepare("SELECT deleted_at FROM keys WHERE id = ?").pluck().get(keyId)).toBeNull();
  });

  test("a key space's create_key creates keys there, but neither in another API nor changes its keys", async () => {
    const { keyId } = h.key(apiId);
    const key = h.rootKey([h.urn(`keyspaces/${apiId}`, "create_key")]);
    expect((await h.call("keys.createKey", { apiId: h.api() }, { key })).status).toBe(404);
    expect((await rename(keyId, [h.urn(`keyspaces/${apiId}`, "create_key")])).status).toBe(403);
  });

  test("`keyspaces/<apiId>/**` covers every key below the API; `keyspaces/*` does not reach into keys", async () => {
    const { keyId } = h.key(apiId);
    expect((await rename(keyId, [h.urn(`keyspaces/${apiId}/**`, "update_key")])).status).toBe(200);
    expect((await rename(keyId, [h.urn("keyspaces/*", "update_key")])).status).toBe(403);
    expect((await rename(keyId, [h.urn(`keyspaces/${h.api()}/**`, "update_key")])).status).toBe(403);
  });

  test("another workspace's URN, even its admin grant, allows nothing here", async () => {
    const { keyId } = h.key(apiId);
    const other = h.workspace();
    expect(
      (await rename(keyId, [h.urn("**", "*", other), h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key", other)]))
        .status,
    ).toBe(403);
    expect(storedName(keyId)).toBe("test key");
  });

  test("verify_key on one key: another key of the API is NOT_FOUND and not recorded", async () => {
    const { keyId } = h.key(apiId);
    const other = h.key(apiId);
    const key = h.rootKey([keyUrn(keyId, "verify_key")]);
    const answer = await h.call("keys.verifyKey", { key: other.secret }, { key });
    expect(answer.json).toMatchObject({ data: { valid: false, code: "NOT_FOUND" } });
    expect(
      server.admin.db.prepare("SELECT count(*) FROM key_verifications WHERE key_id = ?").pluck().get(other.keyId),
    ).toBe(0);
  });
});

describe("the real service's grammar: what is not a URN grant is nothing", () => {
  test.each([
    [
      "an action wildcard off the workspace-wide path",
      (keyId: string) => h.urn(`keyspaces/${apiId}/keys/${keyId}`, "*"),
    ],
    ["a one-segment `*` as the whole path", () => h.urn("*", "*")],
    ["a `*` inside a segment", () => h.urn(`keyspaces/${apiId}/keys/key_*`, "update_key")],
    ["`**` before the end", () => h.urn("keyspaces/**/keys", "update_key")],
    ["two actions", (keyId: string) => `${keyUrn(keyId, "update_key")}#update_key`],
    ["another version", (keyId: string) => keyUrn(keyId, "update_key").replace("unkey:v1:", "unkey:v2:")],
  ])("%s", async (_, permission) => {
    const { keyId } = h.key(apiId);
    expect((await rename(keyId, [permission(keyId)])).status).toBe(403);
  });

  test("a legacy tuple is matched exactly: `api.*` or `*` grants nothing", async () => {
    const { keyId } = h.key(apiId);
    expect((await rename(keyId, ["api.*", "*", "api.*.*"])).status).toBe(403);
  });
});

describe("operations the real service checks by legacy tuples only: the admin grant does not open them", () => {
  let admin: string;
  beforeAll(() => {
    admin = h.rootKey([h.urn("**", "*")]);
  });

  test.each([
    ["apis.createApi", () => ({ name: "not made" })],
    ["apis.getApi", () => ({ apiId })],
    ["apis.deleteApi", () => ({ apiId })],
    ["permissions.listPermissions", () => ({})],
    ["permissions.listRoles", () => ({})],
  ])("%s is 403", async (operation, body) => {
    expect((await h.call(operation, body(), { key: admin })).status).toBe(403);
  });

  test("but it changes, reads, verifies, lists and deletes keys, and reads identities", async () => {
    const { keyId, secret } = h.key(apiId);
    expect((await h.call("keys.getKey", { keyId }, { key: admin })).status).toBe(200);
    expect((await h.call("keys.verifyKey", { key: secret }, { key: admin })).json).toMatchObject({
      data: { valid: true },
    });
    expect((await h.call("apis.listKeys", { apiId }, { key: admin })).status).toBe(200);
    expect((await h.call("identities.listIdentities", {}, { key: admin })).status).toBe(200);
    expect((await h.call("keys.deleteKey", { keyId }, { key: admin })).status).toBe(200);
  });
});

describe("listing keys in URN form", () => {
  test("apis.listKeys needs read_key on every key of the key space and read_keyspace on it, both", async () => {
    const readKeys = h.urn(`keyspaces/${apiId}/keys/*`, "read_key");
    const readKeySpace = h.urn(`keyspaces/${apiId}`, "read_keyspace");
    expect((await h.call("apis.listKeys", { apiId }, { key: h.rootKey([readKeys, readKeySpace]) })).status).toBe(200);
    expect((await h.call("apis.listKeys", { apiId }, { key: h.rootKey([readKeys]) })).status).toBe(404);
    expect((await h.call("apis.listKeys", { apiId }, { key: h.rootKey([readKeySpace]) })).status).toBe(404);
  });

  test("read_key on one key does not list its API's keys", async () => {
    const { keyId } = h.key(apiId);
    const key = h.rootKey([keyUrn(keyId, "read_key"), h.urn(`keyspaces/${apiId}`, "read_keyspace")]);
    expect((await h.call("apis.listKeys", { apiId }, { key })).status).toBe(404);
    expect((await h.call("keys.listKeys", { apiId }, { key })).status).toBe(403);
  });

  test("keys.listKeys without apiId lists every API's keys with `keyspaces/*/keys/*#read_key`, not with one API's", async () => {
    expect(
      (await h.call("keys.listKeys", {}, { key: h.rootKey([h.urn("keyspaces/*/keys/*", "read_key")]) })).status,
    ).toBe(200);
    expect(
      (await h.call("keys.listKeys", {}, { key: h.rootKey([h.urn(`keyspaces/${apiId}/keys/*`, "read_key")]) })).status,
    ).toBe(403);
  });
});
