import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { keyRoles, listData } from "./key-rbac-harness";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.addRoles (svc/api/routes/v2_keys_add_roles/*_test.go), replayed over HTTP,
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
  rootKey = h.rootKey(["api.*.update_key", "rbac.*.add_role_to_key"]);
});

afterAll(() => server.close());

const add = (body: object, key = rootKey) => h.call("keys.addRoles", body, { key });
const added = (body: object) => listData(h, "keys.addRoles", body, rootKey);
const role = (name: string, workspaceId = h.workspaceId) => createRole(server.admin.db, workspaceId, name, []);
const newKey = (roles: string[] = []) => h.key(apiId, { name: "Test Key", roles }).keyId;

describe("200", () => {
  test("add single role by name", async () => {
    const id = role("editor_single_name");
    const keyId = newKey();
    expect(await added({ keyId, roles: ["editor_single_name"] })).toEqual([
      expect.objectContaining({ id, name: "editor_single_name" }),
    ]);
    expect(keyRoles(server, keyId)).toEqual(["editor_single_name"]);
  });

  test("urn update_key permission can add roles", async () => {
    const id = role("editor_urn");
    const keyId = newKey();
    const data = await listData(
      h,
      "keys.addRoles",
      { keyId, roles: ["editor_urn"] },
      h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key")]),
    );
    expect(data.map((row) => row.id)).toEqual([id]);
  });

  test("idempotent behavior - add existing roles", async () => {
    role("admin_idempotent");
    role("editor_idempotent");
    const keyId = newKey(["admin_idempotent"]);
    expect((await added({ keyId, roles: ["admin_idempotent", "editor_idempotent"] })).map((row) => row.name)).toEqual([
      "admin_idempotent",
      "editor_idempotent",
    ]);
    expect(keyRoles(server, keyId)).toEqual(["admin_idempotent", "editor_idempotent"]);
  });

  test("TestAddRolesConcurrent", async () => {
    const keyId = newKey();
    const names = Array.from({ length: 10 }, (_, i) => `concurrent.add.role.${i}`);
    for (const name of names) role(name);
    await added({ keyId, roles: [names[0]] });
    const answers = await Promise.all(names.map((name) => add({ keyId, roles: [name] })));
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200));
    expect(keyRoles(server, keyId)).toEqual([...names].sort());
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
    ["empty roles array", () => ({ keyId, roles: [] })],
    ["malformed JSON body", () => ({ keyId, roles: "not-an-array" })],
    ["role with empty string", () => ({ keyId, roles: [] })],
  ])("%s", async (_, body) => {
    const error = errorOf(await add(body()));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("validate schema");
  });
});

describe("401", () => {
  let body: object;
  beforeAll(() => {
    body = { keyId: newKey(), roles: ["role_123"] };
  });

  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect(errorOf(await h.call("keys.addRoles", body, "none")).status).toBe(401);
  });

  test.each([
    ["invalid authorization token", "Bearer invalid_token_that_does_not_exist", 401],
    ["malformed authorization header", "malformed_header_without_bearer_prefix", 400],
    ["empty authorization header", "", 400],
    ["bearer token only", "Bearer ", 400],
    ["non-existent root key", "Bearer unkey_32kHz9hXEXWMa8qGpTLSgzTD5Q", 401],
    ["disabled root key", "Bearer invalid_disabled_key", 401],
  ])("%s", async (_, authorization, status) => {
    const error = errorOf(await h.call("keys.addRoles", body, { authorization }));
    expect(error.status).toBe(status);
    if (status === 401) expect(error.detail).toContain("invalid");
  });
});

describe("403", () => {
  test.each([
    ["insufficient permissions - no update_key", ["api.*.read_key"]],
    ["root key with read only permissions", ["api.*.read_key", "rbac.*.read_role"]],
  ])("%s", async (_, permissions) => {
    const keyId = newKey();
    const error = errorOf(await add({ keyId, roles: [role(`role_${Math.random()}`)] }, h.rootKey(permissions)));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("Missing one of these permissions");
    expect(keyRoles(server, keyId)).toEqual([]);
  });

  test("cross workspace access", async () => {
    const other = h.key(h.api(h.workspace())).keyId;
    const error = errorOf(await add({ keyId: other, roles: ["role_123"] }, h.rootKey(["api.*.update_key"])));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified key was not found");
  });

  test("expired root key", async () => {
    expect(
      errorOf(
        await h.call(
          "keys.addRoles",
          { keyId: newKey(), roles: ["role_123"] },
          { authorization: "Bearer expired_root_key_12345" },
        ),
      ).status,
    ).toBe(401);
  });
});

describe("404", () => {
  test.each([
    ["key not found", () => "key_nonexistent123456789"],
    ["key in different workspace", () => h.key(h.api(h.workspace())).keyId],
  ])("%s", async (_, keyId) => {
    const error = errorOf(await add({ keyId: keyId(), roles: ["role_123"] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified key was not found");
  });

  test.each([
    ["role not found by ID", () => "role_nonexistent123456789"],
    ["role not found by name", () => "nonexistent_role"],
    ["role in different workspace", () => role("admin_diff_workspace", h.workspace())],
    [
      "role by name in different workspace",
      () => (role("admin_by_name_diff_workspace", h.workspace()), "admin_by_name_diff_workspace"),
    ],
    ["deleted role", () => (role("admin_deleted_role"), "role_deleted123456789")],
  ])("%s", async (_, wanted) => {
    const keyId = newKey();
    const error = errorOf(await add({ keyId, roles: [wanted()] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("was not found");
    expect(keyRoles(server, keyId)).toEqual([]);
  });

  test("multiple roles one not found", async () => {
    role("admin_multiple_roles");
    const keyId = newKey();
    const error = errorOf(await add({ keyId, roles: ["admin_multiple_roles", "role_nonexistent123456789"] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("role_nonexistent123456789");
    expect(error.detail).toContain("was not found");
    expect(keyRoles(server, keyId)).toEqual([]);
  });

  test("deleted key", async () => {
    const keyId = newKey();
    expect((await h.call("keys.deleteKey", { keyId }, { key: h.rootKey(["api.*.delete_key"]) })).status).toBe(200);
    const error = errorOf(await add({ keyId, roles: [role("admin_deleted_key")] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified key was not found");
  });
});
