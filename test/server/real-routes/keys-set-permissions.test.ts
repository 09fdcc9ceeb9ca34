import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { describePermissionRouteAuthentication, insertPermission, keyPermissions, listData } from "./key-rbac-harness";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.setPermissions (svc/api/routes/v2_keys_set_permissions/*_test.go), replayed
 * over HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let rootKey: string;

const ALL_RBAC = [
  "api.*.update_key",
  "rbac.*.remove_permission_from_key",
  "rbac.*.add_permission_to_key",
  "rbac.*.create_permission",
];

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  rootKey = h.rootKey(ALL_RBAC);
});

afterAll(() => server.close());

const set = (body: object, key = rootKey) => h.call("keys.setPermissions", body, { key });
const setData = (body: object) => listData(h, "keys.setPermissions", body, rootKey);
const permission = (slug: string) => insertPermission(server, h.workspaceId, slug);
const newKey = (permissions: string[] = []) => h.key(apiId, { name: "Test Key", permissions }).keyId;

describe("200", () => {
  test("set permissions using permission IDs", async () => {
    permission("documents.read.initial");
    const ids = [permission("documents.write.new"), permission("documents.delete.new")];
    const keyId = newKey(["documents.read.initial"]);
    const data = await setData({ keyId, permissions: ["documents.write.new", "documents.delete.new"] });
    expect(data.map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(keyPermissions(server, keyId)).toEqual(["documents.delete.new", "documents.write.new"]);
  });

  test("urn update_key permission can set permissions", async () => {
    const keyId = newKey();
    const id = permission("documents.write.urn.set");
    const data = await listData(
      h,
      "keys.setPermissions",
      { keyId, permissions: ["documents.write.urn.set"] },
      h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key")]),
    );
    expect(data.map((row) => row.id)).toEqual([id]);
  });

  test("set permissions using permission names", async () => {
    permission("documents.read.byname");
    const id = permission("documents.write.byname");
    const keyId = newKey(["documents.read.byname"]);
    expect(await setData({ keyId, permissions: ["documents.write.byname"] })).toEqual([
      expect.objectContaining({ id, name: "documents.write.byname" }),
    ]);
    expect(keyPermissions(server, keyId)).toEqual(["documents.write.byname"]);
  });

  test("set empty permissions (remove all)", async () => {
    permission("documents.read.empty");
    permission("documents.write.empty");
    const keyId = newKey(["documents.read.empty", "documents.write.empty"]);
    expect(await setData({ keyId, permissions: [] })).toEqual([]);
    expect(keyPermissions(server, keyId)).toEqual([]);
  });

  test("set permissions with no changes (idempotent)", async () => {
    const id = permission("documents.read.idempotent");
    const keyId = newKey(["documents.read.idempotent"]);
    expect((await setData({ keyId, permissions: ["documents.read.idempotent"] })).map((row) => row.id)).toEqual([id]);
    expect(keyPermissions(server, keyId)).toEqual(["documents.read.idempotent"]);
  });

  test("create permission on-the-fly using slug", async () => {
    const keyId = newKey();
    expect((await setData({ keyId, permissions: ["documents.create.onthefly"] })).map((row) => row.name)).toEqual([
      "documents.create.onthefly",
    ]);
    const created = server.admin.db
      .prepare<[string, string], { name: string; slug: string }>(
        "SELECT name, slug FROM permissions WHERE workspace_id = ? AND slug = ?",
      )
      .get(h.workspaceId, "documents.create.onthefly");
    expect(created).toEqual({ name: "documents.create.onthefly", slug: "documents.create.onthefly" });
    expect(keyPermissions(server, keyId)).toEqual(["documents.create.onthefly"]);
  });

  test("TestSetPermissionsConcurrent", async () => {
    const keyId = newKey();
    const names = Array.from({ length: 10 }, (_, i) => `concurrent.set.permission.${i}`);
    for (const name of names) permission(name);
    await setData({ keyId, permissions: [names[0]] });
    const submitted = names.map((_, i) => [names[i], names[(i + 1) % 10], names[(i + 2) % 10]]);
    const answers = await Promise.all(submitted.map((permissions) => set({ keyId, permissions })));
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200));
    const final = keyPermissions(server, keyId);
    expect(submitted.some((permissions) => JSON.stringify([...permissions].sort()) === JSON.stringify(final))).toBe(
      true,
    );
  });
});

describe("400", () => {
  let keyId: string;
  let updateOnly: string;
  beforeAll(() => {
    keyId = newKey();
    updateOnly = h.rootKey(["api.*.update_key"]);
  });

  test.each([
    ["missing keyId", () => ({ permissions: [] })],
    ["missing permissions field", () => ({ keyId })],
    ["permission with empty string id and name", () => ({ keyId, permissions: [""] })],
  ])("%s", async (_, body) => {
    const error = errorOf(await set(body(), updateOnly));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("validate schema");
  });

  test.each([
    ["malformed JSON", () => ({ keyId: "key_1234567890123456789012345678901234567890", permissions: [{ id: null }] })],
    ["permissions as string instead of array", () => ({ keyId, permissions: "documents.read" })],
  ])("%s", async (_, body) => {
    expect((await set(body(), updateOnly)).status).toBe(400);
  });

  test.each([
    ["invalid keyId format - too short", "key_short"],
    ["invalid keyId format - wrong prefix", "wrong_1234567890123456789012345678901234567890"],
  ])("%s", async (_, id) => {
    const error = errorOf(await set({ keyId: id, permissions: [] }, updateOnly));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified key was not found");
  });
});

describePermissionRouteAuthentication(
  "keys.setPermissions",
  () => h,
  () => ({ keyId: newKey(), permissions: [permission("documents.read.auth")] }),
);

describe("403", () => {
  let keyId: string;
  let permissionId: string;
  beforeAll(() => {
    keyId = newKey();
    permissionId = permission("documents.read.forbidden");
  });

  test.each([
    ["missing update_key permission", ["api.*.read_key"]],
    ["no permissions at all", []],
    ["insufficient permissions", ["api.*.read_key", "api.*.create_key"]],
    ["permission for different resource", ["identity.*.update_identity"]],
  ])("%s", async (_, permissions) => {
    const error = errorOf(await set({ keyId, permissions: [permissionId] }, h.rootKey(permissions)));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("permission");
    expect(keyPermissions(server, keyId)).toEqual([]);
  });
});

describe("404", () => {
  test.each([
    ["non-existent key ID", () => "key_3AbC8kz7NwVhR4vZ3G9f"],
    ["key from different workspace (isolation)", () => h.key(h.api(h.workspace())).keyId],
  ])("%s", async (_, keyId) => {
    const key = h.rootKey(["api.*.update_key", "rbac.*.remove_permission_from_key", "rbac.*.add_permission_to_key"]);
    const error = errorOf(
      await set({ keyId: keyId(), permissions: [permission(`documents.read.notfound.${Math.random()}`)] }, key),
    );
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The specified key was not found");
  });
});
