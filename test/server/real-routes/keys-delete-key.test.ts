import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { AUTHORIZATION_CASES, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.deleteKey (svc/api/routes/v2_keys_delete_key/*_test.go), replayed over HTTP,
 * each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let deleter: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  deleter = h.rootKey(["api.*.delete_key"]);
});

afterAll(() => server.close());

const deleteKey = (body: unknown, key = deleter) => h.call("keys.deleteKey", body, { key });
const verifyCode = async (secret: string) =>
  (await h.call("keys.verifyKey", { key: secret }, { key: h.rootKey(["api.*.verify_key"]) })).json;

describe("200", () => {
  test("soft delete key", async () => {
    const { keyId, secret } = h.key(apiId);
    expect((await deleteKey({ keyId })).status).toBe(200);
    expect(await verifyCode(secret)).toMatchObject({ data: { valid: false, code: "NOT_FOUND" } });
  });

  test.each([
    ["specific keyspace", () => h.urn(`keyspaces/${apiId}/keys/*`, "delete_key")],
    ["all keyspaces", () => h.urn("keyspaces/*/keys/*", "delete_key")],
  ])("TestKeyDeleteWithURNPermission: %s", async (_, permission) => {
    const { keyId, secret } = h.key(apiId);
    const answer = await deleteKey({ keyId }, h.rootKey([permission()]));
    expect(answer.status, answer.text).toBe(200);
    expect(await verifyCode(secret)).toMatchObject({ data: { valid: false, code: "NOT_FOUND" } });
  });

  test("permanently delete key", async () => {
    const { keyId } = h.key(apiId);
    expect((await deleteKey({ keyId, permanent: true })).status).toBe(200);
    expect(server.admin.db.prepare("SELECT count(*) FROM keys WHERE id = ?").pluck().get(keyId)).toBe(0);
  });
});

describe("400", () => {
  test("missing keyId", async () => {
    const error = errorOf(await deleteKey({}));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("POST request body for '/v2/keys.deleteKey' failed to validate schema");
  });

  test("empty keyId string", async () => {
    expect((await deleteKey({ keyId: "" })).status).toBe(400);
  });
});

describe("401", () => {
  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("keys.deleteKey", { keyId: h.key(apiId).keyId }, "none")).status).toBe(401);
  });

  test.each(AUTHORIZATION_CASES)("%s", async (_, authorization, status) => {
    expect((await h.call("keys.deleteKey", { keyId: h.key(apiId).keyId }, { authorization })).status).toBe(status);
  });
});

describe("403", () => {
  test.each([
    ["no permissions", []],
    ["wrong permission - has create but not delete", ["api.*.create_key"]],
  ])("%s", async (_, permissions) => {
    expect((await deleteKey({ keyId: h.key(apiId).keyId }, h.rootKey(permissions))).status).toBe(403);
  });

  test("cross workspace access (404)", async () => {
    expect(
      (await deleteKey({ keyId: h.key(apiId).keyId }, h.rootKey(["api.*.delete_key"], h.workspace()))).status,
    ).toBe(404);
  });

  test("cross api access", async () => {
    expect((await deleteKey({ keyId: h.key(apiId).keyId }, h.rootKey([`api.${h.api()}.delete_key`]))).status).toBe(403);
  });
});

describe("404", () => {
  test("nonexistent keyId", async () => {
    const error = errorOf(await deleteKey({ keyId: "key_1234567891abcdef" }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });

  test("can't delete soft deleted key", async () => {
    const { keyId } = h.key(apiId);
    expect((await deleteKey({ keyId })).status).toBe(200);
    const error = errorOf(await deleteKey({ keyId }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });
});
