import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { keyRoles, listData } from "./key-rbac-harness";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.setRoles (svc/api/routes/v2_keys_set_roles/*_test.go), replayed over HTTP,
 * each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let rootKey: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  rootKey = h.rootKey(["api.*.update_key"]);
});

afterAll(() => server.close());

const set = (body: object, key = rootKey) => h.call("keys.setRoles", body, { key });
const setData = (body: object) => listData(h, "keys.setRoles", body, rootKey);
const role = (name: string, workspaceId = h.workspaceId) => createRole(server.admin.db, workspaceId, name, []);
const newKey = (roles: string[] = []) => h.key(apiId, { name: "Test Key", roles }).keyId;

describe("200", () => {
  test("set single role", async () => {
    const id = role("admin_set_single");
    const keyId = newKey();
    expect(await setData({ keyId, roles: ["admin_set_single"] })).toEqual([
      expect.objectContaining({ id, name: "admin_set_single" }),
    ]);
    expect(keyRoles(server, keyId)).toEqual(["admin_set_single"]);
  });

  test("replace existing roles", async () => {
    role("admin_replace_old");
    const id = role("editor_replace_new");
    const keyId = newKey(["admin_replace_old"]);
    expect(await setData({ keyId, roles: ["editor_replace_new"] })).toEqual([
      expect.objectContaining({ id, name: "editor_replace_new" }),
    ]);
    expect(keyRoles(server, keyId)).toEqual(["editor_replace_new"]);
  });

  test("set roles to empty - remove all roles", async () => {
    role("admin_remove_all");
    const keyId = newKey(["admin_remove_all"]);
    expect(await setData({ keyId, roles: [] })).toEqual([]);
    expect(keyRoles(server, keyId)).toEqual([]);
  });

  test("set same roles as current - no changes", async () => {
    const id = role("admin_no_change");
    const keyId = newKey(["admin_no_change"]);
    expect(await setData({ keyId, roles: ["admin_no_change"] })).toEqual([
      expect.objectContaining({ id, name: "admin_no_change" }),
    ]);
    expect(keyRoles(server, keyId)).toEqual(["admin_no_change"]);
  });

  test("TestSetRolesConcurrent", async () => {
    const keyId = newKey();
    const names = Array.from({ length: 10 }, (_, i) => `concurrent.set.role.${i}`);
    for (const name of names) role(name);
    await setData({ keyId, roles: [names[0]] });
    const answers = await Promise.all(names.map((name) => set({ keyId, roles: [name] })));
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200));
    expect(keyRoles(server, keyId)).toHaveLength(1);
  });
});

describe("400", () => {
  let keyId: string;
  beforeAll(() => {
    keyId = newKey();
  });

  test.each([
    ["missing keyId", () => ({ roles: [{ id: "role_123" }] })],
    ["missing roles", () => ({ keyId })],
    ["invalid keyId format", () => ({ keyId: "invalid_key_format", roles: [{ id: "role_123" }] })],
    ["malformed JSON body", () => ({ keyId, roles: "not-an-array" })],
  ])("%s", async (_, body) => {
    const error = errorOf(await set(body()));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("validate schema");
  });
});

describe("401", () => {
  const body = { keyId: "key_123", roles: ["role_123"] };

  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("keys.setRoles", body, "none")).status).toBe(401);
  });

  test.each([
    ["invalid authorization token", "Bearer invalid_token_that_does_not_exist", 401],
    ["malformed authorization header", "malformed_header_without_bearer_prefix", 400],
  ])("%s", async (_, authorization, status) => {
    const error = errorOf(await h.call("keys.setRoles", body, { authorization }));
    expect(error.status).toBe(status);
    if (status === 401) expect(error.detail).toContain("invalid");
  });
});

describe("403", () => {
  test.each([
    ["missing update_key permission", ["api.*.create_key"]],
    ["no permissions", []],
  ])("%s", async (_, permissions) => {
    const name = `test-role-${permissions.length}`;
    const id = role(name);
    const keyId = newKey([name]);
    const error = errorOf(await set({ keyId, roles: [id] }, h.rootKey(permissions)));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("permission");
  });
});

describe("404", () => {
  let keyId: string;
  let validRoleId: string;
  beforeAll(() => {
    keyId = newKey();
    validRoleId = role("admin_404_valid");
  });

  test.each([
    ["non-existent key ID", () => "key_nonexistent_404"],
    ["key from different workspace", () => h.key(h.api(h.workspace())).keyId],
    ["valid key format but non-existent", () => "key_2ZxY8kz7NwVhR4vZ3G9f"],
  ])("%s", async (_, id) => {
    const error = errorOf(await set({ keyId: id(), roles: [validRoleId] }));
    expect([error.status, error.detail.includes("key was not found")]).toEqual([404, true]);
  });

  test.each([
    ["non-existent role ID", () => "role_nonexistent_404"],
    ["non-existent role name", () => "nonexistent_role_name_404"],
    ["role from different workspace: by role ID", () => role("other_role_by_id", h.workspace())],
    [
      "role from different workspace: by role name",
      () => (role("other_role_by_name", h.workspace()), "other_role_by_name"),
    ],
    ["valid role format but non-existent", () => "role_2ZxY8kz7NwVhR4vZ3G9f"],
  ])("%s", async (_, wanted) => {
    const missing = wanted();
    const error = errorOf(await set({ keyId, roles: [missing] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain(`Role '${missing}' was not found`);
  });

  test("multiple roles with first one non-existent", async () => {
    const error = errorOf(await set({ keyId, roles: ["role_nonexistent_first", validRoleId] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("Role 'role_nonexistent_first' was not found");
    expect(keyRoles(server, keyId)).toEqual([]);
  });
});
