import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { keyRoles, listData } from "./key-rbac-harness";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.removeRoles (svc/api/routes/v2_keys_remove_roles/*_test.go), replayed over
 * HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let rootKey: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  rootKey = h.rootKey(["api.*.update_key", "rbac.*.remove_role_from_key"]);
});

afterAll(() => server.close());

const remove = (body: object, key = rootKey) => h.call("keys.removeRoles", body, { key });
const removed = (body: object) => listData(h, "keys.removeRoles", body, rootKey);
let roleCount = 0;
const role = (name = `test_role_${++roleCount}`, workspaceId = h.workspaceId) => {
  createRole(server.admin.db, workspaceId, name, []);
  return name;
};
const newKey = (roles: string[] = []) => h.key(apiId, { name: "Test Key", roles }).keyId;
const SCHEMA = "POST request body for '/v2/keys.removeRoles' failed to validate schema";

describe("200", () => {
  test("remove single role", async () => {
    const keyId = newKey([role("admin_remove_single")]);
    expect(keyRoles(server, keyId)).toHaveLength(1);
    expect(await removed({ keyId, roles: ["admin_remove_single"] })).toEqual([]);
    expect(keyRoles(server, keyId)).toEqual([]);
  });

  test("idempotent operation - removing non-assigned role", async () => {
    const keyId = newKey();
    expect(await removed({ keyId, roles: [role("admin_remove_idempotent")] })).toEqual([]);
  });
});

describe("400", () => {
  let keyId: string;
  beforeAll(() => {
    keyId = newKey();
  });

  test.each([
    ["missing keyId field", () => ({ roles: [{ id: role() }] })],
    ["empty keyId string", () => ({ keyId: "", roles: [role()] })],
    ["missing roles field", () => ({ keyId })],
    ["empty roles array", () => ({ keyId, roles: [] })],
  ])("%s", async (_, body) => {
    const error = errorOf(await remove(body()));
    expect(error.status).toBe(400);
    expect(error.detail).toContain(SCHEMA);
  });

  test.each([
    ["invalid keyId format", () => ({ keyId: "invalid_key_format", roles: [role()] })],
    ["role not found by ID", () => ({ keyId, roles: ["role_2ZxY8kz7NwVhR4vZ3G9f"] })],
    ["role not found by name", () => ({ keyId, roles: ["nonexistent_role_name"] })],
    ["key not found", () => ({ keyId: "key_2ZxY8kz7NwVhR4vZ3G9f", roles: [role()] })],
    [
      "role from different workspace by ID",
      () => ({ keyId, roles: [createRole(server.admin.db, h.workspace(), "role_different_workspace", [])] }),
    ],
    [
      "role from different workspace by name",
      () => ({ keyId, roles: [role("role_different_workspace_name", h.workspace())] }),
    ],
  ])("%s", async (_, body) => {
    const error = errorOf(await remove(body()));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("not found");
  });
});

describe("401", () => {
  let body: object;
  beforeAll(() => {
    body = { keyId: newKey(), roles: [role()] };
  });

  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("keys.removeRoles", body, "none")).status).toBe(401);
  });

  test.each([
    ["invalid bearer token", "Bearer invalid_token_that_does_not_exist", 401, "root key is invalid"],
    ["malformed authorization header", "NotBearer invalid_format", 400, "Bearer"],
    ["empty bearer token", "Bearer ", 400, "Authorization header"],
    ["non-existent root key", "Bearer unkey_32characterslongfaketoken12345", 401, "root key"],
  ])("%s", async (_, authorization, status, detail) => {
    const error = errorOf(await h.call("keys.removeRoles", body, { authorization }));
    expect(error.status).toBe(status);
    expect(error.detail).toContain(detail);
  });

  test("root key from different workspace", async () => {
    const error = errorOf(await remove(body, h.rootKey(["api.*.update_key"], h.workspace())));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("not found");
  });
});

describe("403", () => {
  test.each([
    ["root key without required permissions", []],
    ["root key with partial permissions", ["api.read.update_key"]],
    ["root key with unrelated permissions", ["different.permission.scope"]],
    ["root key with create permissions but not update", ["api.*.create_key"]],
    ["root key with delete permissions but not update", ["api.*.delete_key"]],
    ["root key with specific API permissions but not wildcard", ["api.specific.update_key"]],
    [
      "root key with mixed permissions but missing required",
      ["api.*.create_key", "api.*.delete_key", "api.*.read_key"],
    ],
  ])("%s", async (_, permissions) => {
    const name = role();
    const keyId = newKey([name]);
    const error = errorOf(await remove({ keyId, roles: [name] }, h.rootKey(permissions)));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("Missing one of these permissions:");
    expect(keyRoles(server, keyId)).toEqual([name]);
  });
});

describe("404", () => {
  test.each([
    ["key not found", () => "key_3AbC8kz7NwVhR4vZ3G9f"],
    ["key from different workspace", () => h.key(h.api(h.workspace())).keyId],
  ])("%s", async (_, keyId) => {
    const error = errorOf(await remove({ keyId: keyId(), roles: [role()] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("key");
    expect(error.detail).toContain("not found");
  });

  test.each([
    ["role not found by ID", "role_3AbC8kz7NwVhR4vZ3G9f"],
    ["role not found by name", "nonexistent_role_404"],
  ])("%s", async (_, wanted) => {
    const error = errorOf(await remove({ keyId: newKey(), roles: [wanted] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("Role");
    expect(error.detail).toContain("not found");
    expect(error.detail).toContain(wanted);
  });

  test.each([
    [
      "role from different workspace by ID",
      () => createRole(server.admin.db, h.workspace(), "admin_diff_workspace_id", []),
    ],
    ["role from different workspace by name", () => role("admin_diff_workspace_name", h.workspace())],
  ])("%s", async (_, wanted) => {
    const error = errorOf(await remove({ keyId: newKey(), roles: [wanted()] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("not found");
  });

  test("multiple roles with one not found", async () => {
    const valid = role("admin_multiple_remove");
    const keyId = newKey([valid]);
    const error = errorOf(await remove({ keyId, roles: [valid, "nonexistent_role_multiple"] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("Role");
    expect(error.detail).toContain("not found");
    expect(error.detail).toContain("nonexistent_role_multiple");
    expect(keyRoles(server, keyId)).toEqual([valid]);
  });
});
