import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { describePermissionRouteAuthentication, insertPermission, keyPermissions } from "./key-rbac-harness";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.removePermissions (svc/api/routes/v2_keys_remove_permissions/*_test.go),
 * replayed over HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let rootKey: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  rootKey = h.rootKey(["api.*.update_key", "rbac.*.remove_permission_from_key"]);
});

afterAll(() => server.close());

const remove = (body: object, key = rootKey) => h.call("keys.removePermissions", body, { key });
const removed = async (body: object) => {
  const answer = await remove(body);
  expect(answer.status, answer.text).toBe(200);
};
const permission = (slug: string) => insertPermission(server, h.workspaceId, slug);
const newKey = (permissions: string[] = []) => {
  for (const slug of permissions) permission(slug);
  return h.key(apiId, { name: "Test Key", permissions }).keyId;
};

describe("200", () => {
  test("remove single permission by name", async () => {
    const keyId = newKey(["documents.write.remove.single.name"]);
    await removed({ keyId, permissions: ["documents.write.remove.single.name"] });
    expect(keyPermissions(server, keyId)).toEqual([]);
  });

  test("urn update_key permission can remove permissions", async () => {
    const keyId = newKey(["documents.write.urn.remove"]);
    const answer = await remove(
      { keyId, permissions: ["documents.write.urn.remove"] },
      h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key")]),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(keyPermissions(server, keyId)).toEqual([]);
  });

  test("remove multiple permissions", async () => {
    const keyId = newKey(["documents.read.remove.multiple", "documents.write.remove.multiple"]);
    await removed({ keyId, permissions: ["documents.read.remove.multiple", "documents.write.remove.multiple"] });
    expect(keyPermissions(server, keyId)).toEqual([]);
  });

  test("idempotent operation - removing permission that isn't assigned", async () => {
    const keyId = newKey();
    permission("documents.read.remove.idempotent");
    await removed({ keyId, permissions: ["documents.read.remove.idempotent"] });
    await removed({ keyId, permissions: ["documents.read.remove.idempotent"] });
    expect(keyPermissions(server, keyId)).toEqual([]);
  });

  test("remove some permissions from key with multiple permissions", async () => {
    const keyId = newKey(["documents.read.remove.partial.keep", "documents.write.remove.partial.remove"]);
    await removed({ keyId, permissions: ["documents.write.remove.partial.remove"] });
    expect(keyPermissions(server, keyId)).toEqual(["documents.read.remove.partial.keep"]);
  });

  test("remove all permissions from key", async () => {
    const all = ["documents.read.remove.all.1", "documents.write.remove.all.2", "documents.delete.remove.all.3"];
    const keyId = newKey(all);
    expect(keyPermissions(server, keyId)).toHaveLength(3);
    await removed({ keyId, permissions: all });
    expect(keyPermissions(server, keyId)).toEqual([]);
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
    ["missing keyId", () => ({ permissions: [{ id: "perm_123" }] })],
    ["empty keyId", () => ({ keyId: "", permissions: [{ id: "perm_123" }] })],
    ["missing permissions", () => ({ keyId })],
    ["empty permissions array", () => ({ keyId, permissions: [] })],
    ["invalid keyId format", () => ({ keyId: "invalid_key_format", permissions: [{ id: "perm_123" }] })],
  ])("%s", async (_, body) => {
    const error = errorOf(await remove(body(), updateOnly));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("validate schema");
  });

  test("key not found", async () => {
    const error = errorOf(
      await remove(
        { keyId: "key_2ZxY8kz7NwVhR4vZ3G9f", permissions: [permission("documents.read.remove.keynotfound")] },
        updateOnly,
      ),
    );
    expect(error.status).toBe(404);
    expect(error.detail).toContain("key was not found");
  });
});

describePermissionRouteAuthentication(
  "keys.removePermissions",
  () => h,
  () => ({ keyId: newKey(["documents.read.remove.auth"]), permissions: ["documents.read.remove.auth"] }),
);

describe("403", () => {
  let keyId: string;
  const body = () => ({ keyId, permissions: ["documents.read.remove.auth403"] });
  beforeAll(() => {
    keyId = newKey(["documents.read.remove.auth403"]);
  });

  test.each([
    ["root key without required permissions", ["some.other.permission"]],
    ["root key with partial permissions", ["api.read.update_key"]],
    ["root key with no permissions", []],
  ])("%s", async (_, permissions) => {
    const error = errorOf(await remove(body(), h.rootKey(permissions)));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("permission");
    expect(keyPermissions(server, keyId)).toEqual(["documents.read.remove.auth403"]);
  });

  test("key belongs to different workspace", async () => {
    const other = h.key(h.api(h.workspace())).keyId;
    const error = errorOf(await remove({ ...body(), keyId: other }, h.rootKey(["api.*.update_key"])));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("key was not found");
  });
});

describe("404", () => {
  test.each([
    ["key not found", () => "key_3AbC8kz7NwVhR4vZ3G9f"],
    ["key from different workspace", () => h.key(h.api(h.workspace())).keyId],
  ])("%s", async (_, keyId) => {
    const error = errorOf(
      await remove({ keyId: keyId(), permissions: [permission(`documents.read.remove.404.${Math.random()}`)] }),
    );
    expect(error.status).toBe(404);
    expect(error.detail).toContain("key was not found");
  });

  test.each([
    ["permission not found by ID", () => "perm_2ZxY8kz7NwVhR4vZ3G9f"],
    [
      "permission from different workspace by ID",
      () => insertPermission(server, h.workspace(), "other.workspace.permission.remove.404"),
    ],
  ])("%s", async (_, permissionId) => {
    const error = errorOf(await remove({ keyId: newKey(), permissions: [permissionId()] }));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("was not found");
  });
});
