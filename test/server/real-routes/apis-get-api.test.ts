import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApi } from "../../../server/db/apis";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of apis.getApi (svc/api/routes/v2_apis_get_api/*_test.go), replayed over HTTP, each
 * named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let reader: string;

const Api = v.object({ data: v.object({ id: v.string(), name: v.string() }) });

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  reader = h.rootKey(["api.*.read_api"]);
});

afterAll(() => server.close());

const getApi = (body: unknown, key = reader) => h.call("apis.getApi", body, { key });
const namedApi = (name: string) => createApi(server.admin.db, h.workspaceId, name);

describe("200", () => {
  test.each([
    ["get existing api", "test-get-existing-api"],
    [
      "get api with very long name",
      "this-is-a-very-long-api-name-for-testing-the-limits-of-what-the-system-can-handle-when-dealing-with-extremely-verbose-identifiers-that-might-challenge-database-storage-ui-rendering-and-overall-system-performance-with-edge-cases",
    ],
    ["get api with special characters in name", "special!@#$%^&*()_+-=[]{}|;:,.<>?/~` characters"],
    ["get api with unicode characters in name", "Unicode 测试 API 名称 🔑 🔒 ✅"],
  ])("%s", async (_, name) => {
    const apiId = namedApi(name);
    const answer = await getApi({ apiId });
    expect(answer.status, answer.text).toBe(200);
    expect(v.parse(Api, answer.json).data).toEqual({ id: apiId, name });
  });

  test("authorization scopes: wildcard permission (the bare `*` grants nothing: 403)", async () => {
    const apiId = namedApi("test-get-existing-api");
    expect((await getApi({ apiId }, h.rootKey(["*"]))).status).toBe(403);
  });

  test("get recently created api with timestamp verification", async () => {
    const createdAt = Date.now();
    const apiId = createApi(server.admin.db, h.workspaceId, "recent-api", createdAt);
    const answer = await getApi({ apiId });
    expect(v.parse(Api, answer.json).data).toEqual({ id: apiId, name: "recent-api" });
    expect(server.admin.db.prepare("SELECT created_at FROM apis WHERE id = ?").pluck().get(apiId)).toBe(createdAt);
  });

  // The real test also makes the API store keys encrypted, which no API does here (keys are kept as hashes only); it
  // asserts nothing of it.
  test("get api with complete data verification", async () => {
    const createdAt = Date.now();
    const apiId = createApi(server.admin.db, h.workspaceId, "complete-verification-api", createdAt, {
      defaultPrefix: "test_",
      defaultBytes: 16,
      deleteProtection: true,
    });
    const answer = await getApi({ apiId });
    expect(answer.status, answer.text).toBe(200);
    expect(v.parse(Api, answer.json).data).toEqual({ id: apiId, name: "complete-verification-api" });
    expect(server.admin.db.prepare("SELECT * FROM apis WHERE id = ?").get(apiId)).toMatchObject({
      workspace_id: h.workspaceId,
      created_at: createdAt,
      default_prefix: "test_",
      default_bytes: 16,
      delete_protection: 1,
      deleted_at: null,
    });
  });

  test.each([
    ["api wildcard permission", () => ["api.*.read_api"]],
    ["specific api permission", (apiId: string) => [`api.${apiId}.read_api`]],
    ["multiple permissions including relevant one", () => ["other.permission", "api.*.read_api"]],
  ])("authorization scopes: %s", async (_, permissions) => {
    const apiId = namedApi("test-get-existing-api");
    expect((await getApi({ apiId }, h.rootKey(permissions(apiId)))).status).toBe(200);
  });
});

describe("400", () => {
  test.each([
    ["missing apiId field", {}],
    ["empty apiId", { apiId: "" }],
  ])("%s", async (_, body) => {
    expect((await getApi(body)).status).toBe(400);
  });

  test("valid request", async () => {
    expect((await getApi({ apiId: h.api() })).status).toBe(200);
  });
});

describe("403", () => {
  test.each([
    ["no permissions", () => []],
    ["unrelated permission", () => ["unrelated.permission"]],
    ["wrong api permission", () => ["api.*.create_api"]],
    ["wrong scope for specific api", (apiId: string) => [`api.${apiId}.create_api`]],
    ["permission for different api", () => [`api.${h.api()}.read_api`]],
    ["multiple insufficient permissions", () => ["key.*.create", "ratelimit.*.create", "identity.*.read"]],
  ])("%s", async (_, permissions) => {
    const apiId = h.api();
    const error = errorOf(await getApi({ apiId }, h.rootKey(permissions(apiId))));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("Missing one of these permissions:");
  });

  test("key from wrong workspace (404)", async () => {
    expect((await getApi({ apiId: h.api() }, h.rootKey(["api.*.read_api"], h.workspace()))).status).toBe(404);
  });
});

describe("404", () => {
  test("non-existent api id", async () => {
    expect((await getApi({ apiId: "api_1234567891abcdef" })).status).toBe(404);
  });

  test("api from different workspace", async () => {
    expect((await getApi({ apiId: h.api(h.workspace()) })).status).toBe(404);
  });

  test("deleted api", async () => {
    const apiId = h.api();
    expect((await h.call("apis.deleteApi", { apiId }, { key: h.rootKey(["api.*.delete_api"]) })).status).toBe(200);
    expect((await getApi({ apiId })).status).toBe(404);
  });

  test("empty api id (400)", async () => {
    expect((await getApi({ apiId: "" })).status).toBe(400);
  });
});
