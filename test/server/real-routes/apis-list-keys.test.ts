import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of apis.listKeys (svc/api/routes/v2_apis_list_keys/*_test.go), replayed over HTTP,
 * each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let reader: string;
const secrets: string[] = [];

const Page = v.object({
  data: v.array(
    v.looseObject({
      keyId: v.string(),
      start: v.string(),
      ratelimits: v.optional(v.array(v.looseObject({ name: v.string(), limit: v.number() }))),
    }),
  ),
  pagination: v.object({ cursor: v.optional(v.string()), hasMore: v.boolean() }),
});

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  reader = h.rootKey(["api.*.read_key", "api.*.read_api", "api.*.decrypt_key"]);
  for (let index = 0; index < 3; index += 1)
    secrets.push(h.key(apiId, { externalId: "identity_1", meta: { index } }).secret);
  secrets.push(
    h.key(apiId, { ratelimits: [{ name: "api_calls", limit: 100, durationMs: 60_000, autoApply: true }] }).secret,
  );
  secrets.push(h.key(apiId).secret);
});

afterAll(() => server.close());

const list = (body: unknown, key = reader) => h.call("apis.listKeys", body, { key });
async function page(body: unknown, key = reader) {
  const answer = await list(body, key);
  expect(answer.status).toBe(200);
  return v.parse(Page, answer.json);
}

describe("200", () => {
  test("list all keys with default pagination", async () => {
    expect((await page({ apiId })).data).toHaveLength(5);
  });

  test("list keys with limit parameter", async () => {
    const { data, pagination } = await page({ apiId, limit: 2 });
    expect(data).toHaveLength(2);
    expect(pagination.hasMore).toBe(true);
    expect(pagination.cursor).toBeDefined();
  });

  test("list keys with pagination cursor", async () => {
    const first = await page({ apiId, limit: 2 });
    const second = await page({ apiId, limit: 2, cursor: first.pagination.cursor });
    expect(second.data).toHaveLength(2);
    expect(second.data.map((key) => key.keyId)).not.toContain(first.data[0]?.keyId);
  });

  test("filter by external ID", async () => {
    expect((await page({ apiId, externalId: "identity_1" })).data).toHaveLength(3);
  });

  test("filter by non-existent external ID returns empty", async () => {
    const { data, pagination } = await page({ apiId, externalId: "nobody" });
    expect(data).toHaveLength(0);
    expect(pagination).toEqual({ hasMore: false });
  });

  test("verify identity information is included", async () => {
    const { data } = await page({ apiId, externalId: "identity_1" });
    expect(data[0]).toMatchObject({ identity: { externalId: "identity_1" } });
  });

  test("verify key metadata is included", async () => {
    const { data } = await page({ apiId, externalId: "identity_1" });
    expect(data.map((key) => key.meta)).toContainEqual({ index: 0 });
  });

  test("empty API returns empty result", async () => {
    const { data, pagination } = await page({ apiId: h.api() });
    expect(data).toHaveLength(0);
    expect(pagination).toEqual({ hasMore: false });
  });

  test("verify no sensitive data is exposed", async () => {
    const answer = await list({ apiId });
    for (const secret of secrets) expect(answer.text).not.toContain(secret);
  });

  test("verify correct ordering of results", async () => {
    const ids = (await page({ apiId })).data.map((key) => key.keyId);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids).toEqual([...ids].sort());
  });

  test("root key lists all keys without externalId filter", async () => {
    expect((await page({ apiId })).data).toHaveLength(5);
  });

  test("root key filters by externalId normally", async () => {
    const { keyId } = h.key(apiId, { externalId: "identity_2" });
    const { data } = await page({ apiId, externalId: "identity_2" });
    expect(data.map((key) => key.keyId)).toEqual([keyId]);
    expect(data[0]).toMatchObject({ identity: { externalId: "identity_2" } });
    expect((await page({ apiId })).data).toHaveLength(6);
  });

  test("verify ratelimits are returned correctly", async () => {
    const { data } = await page({ apiId });
    const limited = data.filter((key) => (key.ratelimits ?? []).length > 0);
    expect(limited).toHaveLength(1);
    expect(limited[0]?.ratelimits?.[0]).toMatchObject({ name: "api_calls", limit: 100 });
  });
});

describe("400", () => {
  test("missing apiId", async () => {
    expect((await list({})).status).toBe(400);
  });

  test.each([
    ["empty apiId", { apiId: "" }, [400, 404]],
    ["negative limit", { apiId: "api_1234567890", limit: -1 }, [400]],
    ["zero limit", { apiId: "api_1234567890", limit: 0 }, [400]],
    ["invalid apiId format", { apiId: "invalid_format_123" }, [400, 404]],
    ["extremely large limit", { apiId: "api_1234567890", limit: 1_000_000 }, [400]],
    ["malformed cursor", { apiId: "api_1234567890", cursor: "not_a_valid_cursor_format_!!!" }, [200, 400, 404]],
    ["empty external ID", { apiId: "api_1234567890", externalId: "" }, [200, 400, 404]],
    ["multiple validation errors", { limit: -5 }, [400]],
  ])("%s", async (_, body, statuses) => {
    expect(statuses).toContain((await list(body)).status);
  });

  test.each([
    ["valid boolean decrypt parameter", { apiId: "api_1234567890", decrypt: true }],
    ["valid limit values", { apiId: "api_1234567890", limit: 50 }],
  ])("%s", async (_, body) => {
    expect((await list(body)).status).not.toBe(400);
  });

  test("verify response structure for validation errors", async () => {
    expect(errorOf(await list({ apiId: "" })).status).toBe(400);
  });
});

describe("401", () => {
  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("apis.listKeys", { apiId }, "none")).status).toBe(401);
  });

  test.each([
    ["invalid authorization token", "Bearer invalid_token_that_does_not_exist"],
    ["invalid key", "Bearer not_a_valid_key"],
    ["valid format non-existent key", "Bearer sk_test_1234567890abcdef1234567890abcdef"],
    ["verify error response structure", "Bearer clearly_invalid_token_format"],
  ])("%s", async (_, authorization) => {
    const error = errorOf(await h.call("apis.listKeys", { apiId }, { authorization }));
    expect(error.status).toBe(401);
    expect(error.detail).toContain("key");
  });
});

describe("403", () => {
  test.each([
    ["missing read_key permission", ["api.*.read_api"]],
    ["no permissions", ["workspace.read"]],
    ["verify error response structure", ["workspace.read"]],
    ["partial permissions insufficient", ["api.*.read_api"]],
  ])("%s (404, existence hidden)", async (_, permissions) => {
    const error = errorOf(await list({ apiId }, h.rootKey(permissions)));
    expect(error.status).toBe(404);
  });

  // A unit test of the real handler's permission query (permissions_test.go): its grant sets, each through the route.
  test("TestReadKeysPermissionsRequiresBothActions", async () => {
    const otherApi = h.api();
    const cases: [string[], number][] = [
      [[], 404],
      [[`api.${apiId}.read_key`], 404],
      [[`api.${apiId}.read_api`], 404],
      [["api.*.read_key"], 404],
      [["api.*.read_api"], 404],
      [[`api.${apiId}.read_key`, `api.${apiId}.read_api`], 200],
      [["api.*.read_key", "api.*.read_api"], 200],
      [["api.*.read_key", `api.${apiId}.read_api`], 200],
      [[`api.${otherApi}.read_key`, `api.${otherApi}.read_api`], 404],
    ];
    for (const [permissions, status] of cases) {
      expect([permissions, (await list({ apiId }, h.rootKey(permissions))).status]).toEqual([permissions, status]);
    }
  });

  test("missing read_api permission", async () => {
    const readKeysOnly = h.rootKey(["api.*.read_key"]);
    const error = errorOf(await list({ apiId }, readKeysOnly));
    expect(error.status).toBe(404);
    // The seed's keys.listKeys asks read_key alone.
    expect((await h.call("keys.listKeys", { apiId }, { key: readKeysOnly })).status).toBe(200);
  });

  test("permission for different API (404, existence hidden)", async () => {
    const other = "api_different_123";
    expect((await list({ apiId }, h.rootKey([`api.${other}.read_key`, `api.${other}.read_api`]))).status).toBe(404);
  });

  test("cross workspace access (404)", async () => {
    expect((await list({ apiId }, h.rootKey(["api.*.read_key", "api.*.read_api"], h.workspace()))).status).toBe(404);
  });

  test("missing decrypt permission", async () => {
    const error = errorOf(await list({ apiId, decrypt: true }, h.rootKey(["api.*.read_key", "api.*.read_api"])));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("permission");
  });

  test("wildcard permissions should work", async () => {
    expect((await list({ apiId }, h.rootKey(["api.*.read_key", "api.*.read_api"]))).status).toBe(200);
  });

  test("specific API permissions should work", async () => {
    expect((await list({ apiId }, h.rootKey([`api.${apiId}.read_key`, `api.${apiId}.read_api`]))).status).toBe(200);
  });

  test("TestUnauthorizedDoesNotLeakExistence", async () => {
    const outsider = h.rootKey(["workspace.read"]);
    const missing = await list({ apiId: "api_doesnotexist" }, outsider);
    const existing = await list({ apiId }, outsider);
    expect([missing.status, existing.status]).toEqual([404, 404]);
    expect(errorOf(existing).detail).toBe(errorOf(missing).detail);
  });
});

describe("404", () => {
  test.each([
    ["non-existent API", "api_1234567890"],
    ["invalid API ID format", "invalid_format"],
    ["verify error response structure", "api_definitely_does_not_exist"],
    ["very long API ID", `api_${"\u0000".repeat(500)}`],
    ["API ID with special characters", "api_special!@#$%^&*()"],
  ])("%s", async (_, id) => {
    const error = errorOf(await list({ apiId: id }));
    expect(error.status).toBe(404);
    expect(error.detail).not.toBe("");
  });

  test("deleted API", async () => {
    const deleted = h.api();
    h.key(deleted);
    expect((await h.call("apis.deleteApi", { apiId: deleted }, { key: h.rootKey(["api.*.delete_api"]) })).status).toBe(
      200,
    );
    expect(errorOf(await list({ apiId: deleted })).status).toBe(404);
  });

  test("empty API ID", async () => {
    expect([400, 404]).toContain((await list({ apiId: "" })).status);
  });

  test("API in different workspace", async () => {
    expect((await list({ apiId: h.api(h.workspace()) })).status).toBe(404);
  });

  test("API exists but has no keys", async () => {
    expect((await page({ apiId: h.api() })).data).toEqual([]);
  });
});

describe("412", () => {
  test("decrypt with wildcard permission should work (served differently: 412, keys are never stored recoverable here)", async () => {
    expect(
      errorOf(
        await list({ apiId, decrypt: true }, h.rootKey(["api.*.read_key", "api.*.read_api", "api.*.decrypt_key"])),
      ).status,
    ).toBe(412);
  });

  test("Try decrypting key without opt-in", async () => {
    expect(errorOf(await list({ apiId, decrypt: true })).status).toBe(412);
  });
});
