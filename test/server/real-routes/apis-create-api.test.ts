import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of apis.createApi (svc/api/routes/v2_apis_create_api/*_test.go), replayed over HTTP,
 * each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let creator: string;

const Created = v.object({ apiId: v.pipe(v.string(), v.regex(/^api_/)) });

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  creator = h.rootKey(["api.*.create_api"]);
});

afterAll(() => server.close());

const createApi = (body: unknown, key = creator) => h.call("apis.createApi", body, { key });
const storedApi = (apiId: string) =>
  server.admin.db
    .prepare<[string], { name: string; workspace_id: string; deleted_at: number | null }>(
      "SELECT name, workspace_id, deleted_at FROM apis WHERE id = ?",
    )
    .get(apiId);

describe("200", () => {
  test("insert api via DB", () => {
    expect(storedApi(h.api())?.workspace_id).toBe(h.workspaceId);
  });

  test.each([
    ["create basic api", "test-api-basic"],
    ["create api with long name", "my-super-awesome-production-api-for-customer-management-and-analytics"],
    ["create api with UUID name", "test_2ZxY8kz7NwVhR4vZ3G9f"],
  ])("%s", async (_, name) => {
    const { apiId } = v.parse(Created, dataOf(await createApi({ name })));
    expect(storedApi(apiId)).toEqual({ name, workspace_id: h.workspaceId, deleted_at: null });
  });

  test("create multiple apis", async () => {
    const names = ["api-1", "api-2", "api-3"];
    const ids: string[] = [];
    for (const name of names) ids.push(v.parse(Created, dataOf(await createApi({ name }))).apiId);
    expect(new Set(ids).size).toBe(names.length);
    expect(ids.map((apiId) => storedApi(apiId)?.name)).toEqual(names);
  });
});

describe("400", () => {
  test.each([
    ["name too short", { name: "ab" }],
    ["missing name field", {}],
    ["empty name", { name: "" }],
  ])("%s", async (_, body) => {
    expect((await createApi(body)).status).toBe(400);
  });

  test("verify error response structure", async () => {
    const error = errorOf(await createApi({ name: "ab" }));
    expect(error.status).toBe(400);
    // The type's origin is this server's docs URL; its path is the real one.
    expect(error.type).toMatch(/\/application\/invalid_input$/);
    expect(error.detail).toBe("POST request body for '/v2/apis.createApi' failed to validate schema");
  });

  test("invalid json", async () => {
    const answer = await createApi('{"name": "test-api", "invalid json": }');
    expect(errorOf(answer).status).toBe(400);
    expect(errorOf(answer).detail).not.toBe("");
  });

  test("unexpected fields", async () => {
    // The real test accepts either a 400 or a 200; this server's schemas are strict.
    expect((await createApi({ name: "valid-api-name", unexpectedField: true, anotherField: 42 })).status).toBe(400);
  });

  test("missing authorization (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("apis.createApi", { name: "test-api" }, "none")).status).toBe(401);
  });
});

describe("401", () => {
  test("invalid auth token", async () => {
    expect(
      (await h.call("apis.createApi", { name: "test-api" }, { authorization: "Bearer invalid_token" })).status,
    ).toBe(401);
  });
});

describe("403", () => {
  test("insufficient permissions", async () => {
    expect((await createApi({ name: "test-api" }, h.rootKey(["identity.*.create_identity"]))).status).toBe(403);
  });

  test.each([
    ["specific permission", ["api.*.create_api"], 200],
    ["specific permission and more", ["some.other.permission", "xxx", "api.*.create_api", "another.permission"], 200],
    ["insufficient permission", ["api.*.read_api"], 403],
    ["unrelated permission", ["identity.*.create_identity"], 403],
  ])("permission combinations: %s", async (_, permissions, status) => {
    const answer = await createApi({ name: "test-api-permissions" }, h.rootKey(permissions));
    expect(answer.status, answer.text).toBe(status);
    if (status === 200) expect(storedApi(v.parse(Created, dataOf(answer)).apiId)?.name).toBe("test-api-permissions");
  });
});
