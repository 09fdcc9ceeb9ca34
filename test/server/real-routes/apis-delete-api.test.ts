import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { updateApi } from "../../../server/db/apis";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of apis.deleteApi (svc/api/routes/v2_apis_delete_api/*_test.go), replayed over HTTP,
 * each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let deleter: string;

const API_NOT_FOUND = "The requested API does not exist or has been deleted.";

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  deleter = h.rootKey(["api.*.delete_api"]);
});

afterAll(() => server.close());

const deleteApi = (body: unknown, key = deleter) => h.call("apis.deleteApi", body, { key });
const deletedAt = (apiId: string) =>
  server.admin.db.prepare("SELECT deleted_at FROM apis WHERE id = ?").pluck().get(apiId);

describe("200", () => {
  test.each([["delete api without keys"], ["delete api immediately after creation"]])("%s", async () => {
    const apiId = h.api();
    expect(deletedAt(apiId)).toBeNull();
    expect((await deleteApi({ apiId })).status).toBe(200);
    expect(deletedAt(apiId)).not.toBeNull();
  });

  test("delete api with active keys", async () => {
    const apiId = h.api();
    const { keyId, secret } = h.key(apiId);
    expect((await deleteApi({ apiId })).status).toBe(200);
    expect(deletedAt(apiId)).not.toBeNull();
    // The key's row stays; it verifies as no key from then on.
    expect(server.admin.db.prepare("SELECT id FROM keys WHERE id = ?").pluck().get(keyId)).toBe(keyId);
    const verified = await h.call("keys.verifyKey", { key: secret }, { key: h.rootKey(["api.*.verify_key"]) });
    expect(verified.json).toMatchObject({ data: { valid: false, code: "NOT_FOUND" } });
  });

  test("verify cache invalidation", async () => {
    const apiId = h.api();
    const reader = h.rootKey(["api.*.read_api"]);
    expect((await h.call("apis.getApi", { apiId }, { key: reader })).status).toBe(200);
    expect((await deleteApi({ apiId })).status).toBe(200);
    expect((await h.call("apis.getApi", { apiId }, { key: reader })).status).toBe(404);
  });

  test("idempotent deletion - multiple delete requests", async () => {
    const apiId = h.api();
    expect((await deleteApi({ apiId })).status).toBe(200);
    for (const attempt of [2, 3]) {
      const error = errorOf(await deleteApi({ apiId }));
      expect([attempt, error.status, error.detail]).toEqual([attempt, 404, API_NOT_FOUND]);
    }
  });
});

describe("400", () => {
  test.each([
    ["missing apiId", {}],
    ["invalid apiId format", { apiId: "" }],
  ])("%s", async (_, body) => {
    const error = errorOf(await deleteApi(body));
    expect(error.status).toBe(400);
    expect(error.detail).toBe("POST request body for '/v2/apis.deleteApi' failed to validate schema");
  });
});

describe("401", () => {
  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("apis.deleteApi", { apiId: "api_1234" }, "none")).status).toBe(401);
  });

  test("invalid authorization token", async () => {
    const error = errorOf(
      await h.call("apis.deleteApi", { apiId: "api_1234" }, { authorization: "Bearer invalid_token" }),
    );
    expect(error.status).toBe(401);
    expect(error.detail).toBe("The provided root key is invalid. We could not find the requested key.");
  });

  test("malformed authorization header", async () => {
    const error = errorOf(
      await h.call(
        "apis.deleteApi",
        { apiId: "api_1234" },
        { authorization: "malformed_header_without_bearer_prefix" },
      ),
    );
    expect(error.status).toBe(400);
    expect(error.detail).toBe(
      "You must provide a valid root key in the Authorization header in the format 'Bearer ROOT_KEY'. Your authorization header is missing the 'Bearer ' prefix.",
    );
  });
});

describe("403", () => {
  test.each([
    ["missing delete_api permission", ["api.*.read_api"]],
    ["permission for different API", ["api.api_different.delete_api"]],
  ])("%s", async (_, permissions) => {
    const error = errorOf(await deleteApi({ apiId: h.api() }, h.rootKey(permissions)));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("Missing one of these permissions:");
  });

  test("wrong workspace", async () => {
    const apiId = h.api();
    expect(errorOf(await deleteApi({ apiId }, h.rootKey(["api.*.delete_api"], h.workspace()))).status).toBe(404);
    expect(deletedAt(apiId)).toBeNull();
  });
});

describe("404", () => {
  test.each([
    ["non-existent API", () => "api_does_not_exist"],
    ["API belongs to different workspace", () => h.api(h.workspace())],
  ])("%s", async (_, apiId) => {
    const error = errorOf(await deleteApi({ apiId: apiId() }));
    expect([error.status, error.detail]).toEqual([404, API_NOT_FOUND]);
  });

  test("already deleted API", async () => {
    const apiId = h.api();
    server.admin.db.prepare("UPDATE apis SET deleted_at = ? WHERE id = ?").run(Date.now(), apiId);
    const error = errorOf(await deleteApi({ apiId }));
    expect([error.status, error.detail]).toEqual([404, API_NOT_FOUND]);
  });
});

describe("412", () => {
  test("delete protected API", async () => {
    const apiId = h.api(h.workspaceId, { deleteProtection: true });
    const error = errorOf(await deleteApi({ apiId }));
    expect(error).toMatchObject({
      status: 412,
      detail: "This API has delete protection enabled. Disable it before attempting to delete.",
    });
    expect(error.type).toMatch(/\/errors\/svc\/application\/protected_resource$/);
    expect(deletedAt(apiId)).toBeNull();
  });

  test("this server's own check: the protected API's keys still verify, and it deletes once the protection is off", async () => {
    const apiId = h.api(h.workspaceId, { deleteProtection: true });
    const { secret } = h.key(apiId);
    expect((await deleteApi({ apiId })).status).toBe(412);
    const verifier = h.rootKey(["api.*.verify_key"]);
    expect((await h.call("keys.verifyKey", { key: secret }, { key: verifier })).json).toMatchObject({
      data: { valid: true },
    });
    updateApi(server.admin.db, apiId, { deleteProtection: false });
    expect((await deleteApi({ apiId })).status).toBe(200);
    expect((await h.call("keys.verifyKey", { key: secret }, { key: verifier })).json).toMatchObject({
      data: { valid: false, code: "NOT_FOUND" },
    });
  });
});
