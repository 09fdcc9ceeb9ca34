import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { describePermissionRouteAuthentication, insertPermission, keyPermissions, listData } from "./key-rbac-harness";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.addPermissions (svc/api/routes/v2_keys_add_permissions/*_test.go), replayed
 * over HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let rootKey: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  rootKey = h.rootKey(["api.*.update_key", "rbac.*.add_permission_to_key", "rbac.*.create_permission"]);
});

afterAll(() => server.close());

const add = (body: object, key = rootKey) => h.call("keys.addPermissions", body, { key });
const added = (body: object, key = rootKey) => listData(h, "keys.addPermissions", body, key);
const permission = (slug: string) => insertPermission(server, h.workspaceId, slug);
const newKey = (permissions: string[] = []) => h.key(apiId, { name: "Test Key", permissions }).keyId;

/** A key as the real 400 tests make theirs, in a key space no API owns: here its API's row is deleted under it. */
function keyWithoutApi(): string {
  const orphanApiId = h.api();
  const { keyId } = h.key(orphanApiId, { name: "Test Key" });
  server.admin.db.prepare("UPDATE apis SET deleted_at = ? WHERE id = ?").run(Date.now(), orphanApiId);
  return keyId;
}

describe("200", () => {
  test("add single permission by name", async () => {
    const keyId = newKey();
    const id = permission("documents.write.single.name");
    expect(await added({ keyId, permissions: ["documents.write.single.name"] })).toEqual([
      expect.objectContaining({ id, name: "documents.write.single.name" }),
    ]);
    expect(keyPermissions(server, keyId)).toEqual(["documents.write.single.name"]);
  });

  test("add multiple permissions", async () => {
    const keyId = newKey();
    const ids = [permission("documents.read.multiple"), permission("documents.write.multiple")];
    expect(
      (await added({ keyId, permissions: ["documents.read.multiple", "documents.write.multiple"] }))
        .map((row) => row.id)
        .sort(),
    ).toEqual(ids.sort());
    expect(keyPermissions(server, keyId)).toHaveLength(2);
  });

  test("idempotent operation - adding same permission twice", async () => {
    const keyId = newKey();
    permission("documents.read.idempotent");
    const first = await added({ keyId, permissions: ["documents.read.idempotent"] });
    const second = await added({ keyId, permissions: ["documents.read.idempotent"] });
    expect(first).toHaveLength(1);
    expect(second).toEqual(first);
    expect(keyPermissions(server, keyId)).toEqual(["documents.read.idempotent"]);
  });

  test("add permissions to key that already has permissions", async () => {
    const newId = permission("documents.write.existing");
    const keyId = newKey(["documents.read.existing"]);
    const data = await added({ keyId, permissions: ["documents.write.existing"] });
    expect(data.map((row) => row.name).sort()).toEqual(["documents.read.existing", "documents.write.existing"]);
    expect(data.map((row) => row.id)).toContain(newId);
    expect(keyPermissions(server, keyId)).toHaveLength(2);
  });

  test("urn update_key permission can add permissions", async () => {
    const keyId = newKey();
    const id = permission("documents.write.urn.add");
    const urnKey = h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key")]);
    expect(await added({ keyId, permissions: ["documents.write.urn.add"] }, urnKey)).toEqual([
      expect.objectContaining({ id }),
    ]);
  });

  test("urn create_permission can create missing permission while adding", async () => {
    const keyId = newKey();
    const urnKey = h.rootKey([
      h.urn(`keyspaces/${apiId}/keys/${keyId}`, "update_key"),
      h.urn("rbac/permissions/*", "create_permission"),
    ]);
    expect(
      (await added({ keyId, permissions: ["documents.write.urn.create"] }, urnKey)).map((row) => row.name),
    ).toEqual(["documents.write.urn.create"]);
  });

  test("this server's own check: rbac.*.create_permission creates a missing permission while adding", async () => {
    const keyId = newKey();
    expect((await added({ keyId, permissions: ["documents.write.legacy.create"] })).map((row) => row.name)).toEqual([
      "documents.write.legacy.create",
    ]);
  });

  test("TestAddPermissionsConcurrent", async () => {
    const keyId = newKey();
    const names = Array.from({ length: 10 }, (_, i) => `concurrent.permission.${i}`);
    for (const name of names) permission(name);
    await added({ keyId, permissions: [names[0]] });
    const answers = await Promise.all(
      names.map((_, i) => add({ keyId, permissions: [names[i], names[(i + 1) % 10], names[(i + 2) % 10]] })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200));
    expect(keyPermissions(server, keyId)).toEqual([...names].sort());
  });
});

describe("400", () => {
  let keyId: string;
  let validator: string;
  beforeAll(() => {
    keyId = newKey();
    validator = h.rootKey(["api.*.update_key", "rbac.*.add_permission_to_key"]);
  });

  test.each([
    ["missing keyId", () => ({ permissions: [{ id: "perm_123" }] })],
    ["empty keyId", () => ({ keyId: "", permissions: [{ id: "perm_123" }] })],
    ["missing permissions", () => ({ keyId })],
    ["empty permissions array", () => ({ keyId, permissions: [] })],
    ["invalid keyId format", () => ({ keyId: "invalid_key_format", permissions: [{ id: "perm_123" }] })],
    ["permission missing both id and name", () => ({ keyId, permissions: [] })],
  ])("%s", async (_, body) => {
    const error = errorOf(await add(body(), validator));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("validate schema");
  });

  test.each([
    ["permission not found by id", "perm_2ZxY8kz7NwVhR4vZ3G9f"],
    ["permission not found by slug", "nonexistent.permission"],
  ])("%s", async (_, wanted) => {
    // As the real test's key, which it inserts into a key space no API owns: the key is not found first.
    const orphan = keyWithoutApi();
    const error = errorOf(await add({ keyId: orphan, permissions: [wanted] }, validator));
    expect(error.status).toBe(404);
    expect(error.detail).toContain("was not found");
    expect(keyPermissions(server, orphan)).toEqual([]);
  });

  test("this server's own check: a live key naming a permission the workspace lacks, without rbac.*.create_permission, is the real handler's 403 naming it", async () => {
    const error = errorOf(await add({ keyId, permissions: ["nonexistent.permission"] }, validator));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("rbac.*.create_permission");
    expect(keyPermissions(server, keyId)).toEqual([]);
  });

  test("key not found", async () => {
    const error = errorOf(
      await add(
        { keyId: "key_2ZxY8kz7NwVhR4vZ3G9f", permissions: [permission("documents.read.keynotfound")] },
        validator,
      ),
    );
    expect(error.status).toBe(404);
    expect(error.detail).toContain("key was not found");
  });
});

describePermissionRouteAuthentication(
  "keys.addPermissions",
  () => h,
  () => ({ keyId: newKey(), permissions: [permission("documents.read.auth")] }),
);

describe("403", () => {
  let body: { keyId: string; permissions: string[] };
  beforeAll(() => {
    body = { keyId: newKey(), permissions: [permission("documents.read.auth403")] };
  });

  test.each([
    ["root key without required permissions", ["some.other.permission"]],
    ["root key with partial permissions", ["api.read.update_key"]],
    ["root key with no permissions", []],
  ])("%s", async (_, permissions) => {
    const error = errorOf(await add(body, h.rootKey(permissions)));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("permission");
    expect(keyPermissions(server, body.keyId)).toEqual([]);
  });

  test("key belongs to different workspace", async () => {
    const other = h.key(h.api(h.workspace())).keyId;
    const error = errorOf(
      await add(
        { keyId: other, permissions: body.permissions },
        h.rootKey(["api.*.update_key", "rbac.*.add_permission_to_key"]),
      ),
    );
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
      await add(
        { keyId: keyId(), permissions: [permission(`documents.read.404.${Math.random()}`)] },
        h.rootKey(["api.*.update_key", "rbac.*.add_permission_to_key"]),
      ),
    );
    expect(error.status).toBe(404);
    expect(error.detail).toContain("key was not found");
  });
});
