import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { AUTHORIZATION_CASES, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.updateCredits (svc/api/routes/v2_keys_update_credits/*_test.go), replayed
 * over HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let updater: string;

const Credits = v.object({ data: v.object({ remaining: v.nullable(v.number()) }) });

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  updater = h.rootKey(["api.*.update_key"]);
});

afterAll(() => server.close());

const update = (body: unknown, key = updater) => h.call("keys.updateCredits", body, { key });
async function remaining(body: unknown): Promise<number | null> {
  const answer = await update(body);
  expect(answer.status, answer.text).toBe(200);
  return v.parse(Credits, answer.json).data.remaining;
}

describe("200", () => {
  test("update key set to unlimited credits / set to fixed value / increase credits / decrease credits", async () => {
    const { keyId } = h.key(apiId, { credits: 100 });
    expect(await remaining({ keyId, operation: "set", value: null })).toBeNull();
    expect(await remaining({ keyId, operation: "set", value: 50 })).toBe(50);
    expect(await remaining({ keyId, operation: "increment", value: 25 })).toBe(75);
    expect(await remaining({ keyId, operation: "decrement", value: 100 })).toBe(0);
  });

  test("TestKeyUpdateCreditsWithURNPermission", async () => {
    const { keyId } = h.key(apiId, { credits: 100 });
    const answer = await update(
      { keyId, operation: "set", value: 12 },
      h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key")]),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(server.admin.db.prepare("SELECT credits_remaining FROM keys WHERE id = ?").pluck().get(keyId)).toBe(12);
  });

  test("counter cache invalidation after credit update", async () => {
    const { keyId, secret } = h.key(apiId, { credits: 0 });
    const verifier = h.rootKey(["api.*.verify_key"]);
    const code = async () =>
      v.parse(
        v.object({ data: v.object({ code: v.string() }) }),
        (await h.call("keys.verifyKey", { key: secret }, { key: verifier })).json,
      ).data.code;
    expect(await code()).toBe("USAGE_EXCEEDED");
    expect(await remaining({ keyId, operation: "set", value: 1 })).toBe(1);
    expect(await code()).toBe("VALID");
    expect(await code()).toBe("USAGE_EXCEEDED");
  });
});

describe("400", () => {
  test("missing keyId", async () => {
    const error = errorOf(await update({ operation: "set", value: 1 }));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("POST request body for '/v2/keys.updateCredits' failed to validate schema");
  });

  test("empty keyId string", async () => {
    expect((await update({ keyId: "", operation: "set", value: 1 })).status).toBe(400);
  });

  test.each([
    ["increment with null throws error", "increment", null, 100],
    ["can't increment unlimited key", "increment", 1, undefined],
    ["decrement with null throws error", "decrement", null, 100],
    ["can't decrement unlimited key", "decrement", 1, undefined],
  ])("%s", async (_, operation, value, credits) => {
    const { keyId } = h.key(apiId, credits === undefined ? {} : { credits });
    expect((await update({ keyId, operation, value })).status).toBe(400);
  });
});

describe("401", () => {
  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(
      errorOf(await h.call("keys.updateCredits", { keyId: h.key(apiId).keyId, operation: "set", value: 1 }, "none"))
        .status,
    ).toBe(401);
  });

  test.each(AUTHORIZATION_CASES)("%s", async (_, authorization, status) => {
    const body = { keyId: h.key(apiId, { credits: 100 }).keyId, operation: "increment", value: 10 };
    expect((await h.call("keys.updateCredits", body, { authorization })).status).toBe(status);
  });
});

describe("403", () => {
  const body = () => ({ keyId: h.key(apiId, { credits: 100 }).keyId, operation: "increment", value: 10 });

  test.each([
    ["no permissions", []],
    ["wrong permission - has create but not update", ["api.*.create_key"]],
  ])("%s", async (_, permissions) => {
    expect((await update(body(), h.rootKey(permissions))).status).toBe(403);
  });

  test("cross workspace access (404)", async () => {
    expect((await update(body(), h.rootKey(["api.*.update_key"], h.workspace()))).status).toBe(404);
  });

  test("cross api access", async () => {
    expect((await update(body(), h.rootKey([`api.${h.api()}.update_key`]))).status).toBe(403);
  });
});

describe("404", () => {
  test("nonexistent keyId", async () => {
    const error = errorOf(await update({ keyId: "key_1234567891abcdef", operation: "set", value: 10 }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("We could not find the requested key");
  });
});
