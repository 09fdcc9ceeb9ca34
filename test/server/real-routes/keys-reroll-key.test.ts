import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.rerollKey (svc/api/routes/v2_keys_reroll_key/*_test.go), replayed over HTTP,
 * each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let creator: string;

const Rerolled = v.object({ data: v.object({ keyId: v.string(), key: v.string() }) });

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  creator = h.rootKey(["api.*.create_key"]);
});

afterAll(() => server.close());

const reroll = (body: unknown, key = creator) => h.call("keys.rerollKey", body, { key });
const verifyCode = async (secret: string) =>
  v.parse(
    v.object({ data: v.object({ code: v.string() }) }),
    (await h.call("keys.verifyKey", { key: secret }, { key: h.rootKey(["api.*.verify_key"]) })).json,
  ).data.code;

describe("200", () => {
  test("successfully rerolled key with all options (expiration 0 revokes the original at once)", async () => {
    const { keyId, secret } = h.key(apiId, {
      name: "rerolled",
      meta: { plan: "pro" },
      credits: 10,
      permissions: ["documents.read"],
    });
    const answer = await reroll({ keyId, expiration: 0 });
    expect(answer.status, answer.text).toBe(200);
    const { data } = v.parse(Rerolled, answer.json);
    expect(data.keyId).not.toBe(keyId);
    expect(await verifyCode(data.key)).toBe("VALID");
    expect(await verifyCode(secret)).not.toBe("VALID");
  });

  test("TestRerollKeyWithURNPermission", async () => {
    const { keyId } = h.key(apiId);
    const answer = await reroll({ keyId, expiration: 0 }, h.rootKey([h.urn(`keyspaces/${apiId}`, "create_key")]));
    expect(answer.status, answer.text).toBe(200);
    const { data } = v.parse(Rerolled, answer.json);
    expect(data.keyId).not.toBe(keyId);
    expect(await verifyCode(data.key)).toBe("VALID");
  });

  test("reroll sets TTL on original key when expiration is provided", async () => {
    const { keyId, secret } = h.key(apiId);
    expect((await reroll({ keyId, expiration: 3_600_000 })).status).toBe(200);
    // The original still works until the TTL runs out.
    expect(await verifyCode(secret)).toBe("VALID");
  });
});

describe("400", () => {
  test.each([
    ["missing keyId", {}],
    ["empty keyId", { keyId: "" }],
    ["keyId too short", { keyId: "ab" }],
    ["negative expiration", { keyId: "key_1234567891abcdef", expiration: -1 }],
  ])("%s", async (_, body) => {
    expect((await reroll(body)).status).toBe(400);
  });
});

describe("401", () => {
  test.each([
    ["invalid bearer token", "Bearer invalid_key_12345"],
    ["nonexistent key", "Bearer ks_root_nonexistent1234567890"],
  ])("%s", async (_, authorization) => {
    expect(
      (await h.call("keys.rerollKey", { keyId: h.key(apiId).keyId, expiration: 0 }, { authorization })).status,
    ).toBe(401);
  });

  test("bearer with extra spaces", async () => {
    // The key is read past the spaces, as the real service reads it: an unknown key.
    const error = errorOf(
      await h.call(
        "keys.rerollKey",
        { keyId: h.key(apiId).keyId, expiration: 0 },
        { authorization: "Bearer   invalid_key_with_spaces   " },
      ),
    );
    expect(error.status).toBe(401);
    expect(error.type).toMatch(/\/authentication\/key_not_found$/);
  });
});

describe("403", () => {
  test.each([
    ["no permissions", () => []],
    ["wrong permission - has read but not create", () => ["api.*.read_key"]],
    ["permission for different API", () => [`api.${h.api()}.create_key`]],
  ])("%s", async (_, permissions) => {
    expect((await reroll({ keyId: h.key(apiId).keyId, expiration: 0 }, h.rootKey(permissions()))).status).toBe(403);
  });
});

describe("404", () => {
  test("nonexistent key", async () => {
    const error = errorOf(await reroll({ keyId: "key_1234567891abcdef", expiration: 0 }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified key was not found");
  });

  test("key belongs to different workspace", async () => {
    const error = errorOf(await reroll({ keyId: h.key(h.api(h.workspace())).keyId, expiration: 0 }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified key was not found");
  });
});
