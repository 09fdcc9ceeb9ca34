import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { ALL_KEY_PERMISSIONS, call, createKey, dataOf, errorOf, getKey, verify } from "./support";

let server: InProcessServer;
let rootKey: string;
let apiId: string;

const RBAC = [
  "rbac.*.add_permission_to_key",
  "rbac.*.remove_permission_from_key",
  "rbac.*.add_role_to_key",
  "rbac.*.create_permission",
];

const Permissions = v.array(
  v.strictObject({ id: v.pipe(v.string(), v.regex(/^perm_/)), name: v.string(), slug: v.string() }),
);
const Roles = v.array(v.strictObject({ id: v.string(), name: v.string(), permissions: v.optional(Permissions) }));

function slugs(answer: unknown): string[] {
  return v.parse(Permissions, answer).map((permission) => permission.slug);
}

beforeAll(() => {
  server = startInProcess();
  rootKey = server.admin.createRootKey({ permissions: [...ALL_KEY_PERMISSIONS, ...RBAC] }).secret;
  apiId = server.admin.createApi("rbac");
  createRole(server.admin.db, server.admin.workspaceId, "doc-editor", ["documents.write"]);
  createRole(server.admin.db, server.admin.workspaceId, "doc-viewer", []);
});

afterAll(() => server.close());

describe("keys.addPermissions, removePermissions, setPermissions", () => {
  test("each answers the key's own permissions afterwards, and the next verification checks them", async () => {
    const created = await createKey(server, rootKey, { apiId, permissions: ["documents.read"] });
    const added = dataOf(
      await call(server, "keys.addPermissions", rootKey, {
        keyId: created.keyId,
        permissions: ["users.view", "documents.read"],
      }),
    );
    expect(slugs(added)).toEqual(["documents.read", "users.view"]);
    expect(await verify(server, rootKey, created.key, { permissions: "users.view" })).toMatchObject({ valid: true });

    const removed = dataOf(
      await call(server, "keys.removePermissions", rootKey, { keyId: created.keyId, permissions: ["users.view"] }),
    );
    expect(slugs(removed)).toEqual(["documents.read"]);
    expect(await verify(server, rootKey, created.key, { permissions: "users.view" })).toMatchObject({
      code: "INSUFFICIENT_PERMISSIONS",
    });

    const set = dataOf(
      await call(server, "keys.setPermissions", rootKey, { keyId: created.keyId, permissions: ["billing.read"] }),
    );
    expect(slugs(set)).toEqual(["billing.read"]);
    expect((await getKey(server, rootKey, created.keyId)).permissions).toEqual(["billing.read"]);
    expect(
      slugs(dataOf(await call(server, "keys.setPermissions", rootKey, { keyId: created.keyId, permissions: [] }))),
    ).toEqual([]);
    expect((await getKey(server, rootKey, created.keyId)).permissions).toBeUndefined();
  });

  test("a permission the workspace lacks is created, listed by permissions.listPermissions, but only with create_permission", async () => {
    const created = await createKey(server, rootKey, { apiId });
    const noCreate = server.admin.createRootKey({
      permissions: ["api.*.update_key", "rbac.*.add_permission_to_key"],
    }).secret;
    const refused = errorOf(
      await call(server, "keys.addPermissions", noCreate, { keyId: created.keyId, permissions: ["fresh.one"] }),
    );
    expect(refused).toMatchObject({ status: 403, code: "err:svc:authorization:insufficient_permissions" });
    expect(refused.detail).toContain("rbac.*.create_permission");
    expect(server.admin.db.prepare("SELECT count(*) AS n FROM permissions WHERE slug = 'fresh.one'").get()).toEqual({
      n: 0,
    });
    // An existing permission needs no create_permission.
    expect(
      slugs(
        dataOf(
          await call(server, "keys.addPermissions", noCreate, {
            keyId: created.keyId,
            permissions: ["documents.read"],
          }),
        ),
      ),
    ).toEqual(["documents.read"]);
    expect(
      slugs(
        dataOf(
          await call(server, "keys.addPermissions", rootKey, { keyId: created.keyId, permissions: ["fresh.one"] }),
        ),
      ),
    ).toEqual(["documents.read", "fresh.one"]);
  });

  test("the rbac permission each needs beside update_key: 403 without it, and nothing changes", async () => {
    const created = await createKey(server, rootKey, { apiId, permissions: ["documents.read"] });
    const updateOnly = server.admin.createRootKey({
      permissions: ["api.*.update_key", "rbac.*.create_permission"],
    }).secret;
    const cases: [string, string][] = [
      ["keys.addPermissions", "rbac.*.add_permission_to_key"],
      ["keys.removePermissions", "rbac.*.remove_permission_from_key"],
      ["keys.setPermissions", "rbac.*.add_permission_to_key"],
    ];
    for (const [operation, missing] of cases) {
      const error = errorOf(
        await call(server, operation, updateOnly, { keyId: created.keyId, permissions: ["documents.read"] }),
      );
      expect(error.status, operation).toBe(403);
      expect(error.detail, operation).toContain(missing);
    }
    const rbacOnly = server.admin.createRootKey({ permissions: RBAC }).secret;
    expect(
      errorOf(await call(server, "keys.addPermissions", rbacOnly, { keyId: created.keyId, permissions: ["x.y"] }))
        .detail,
    ).toContain("api.*.update_key");
    expect((await getKey(server, rootKey, created.keyId)).permissions).toEqual(["documents.read"]);
  });

  test("removing a permission the workspace does not have is 404; an unknown key 404; bad input 400", async () => {
    const created = await createKey(server, rootKey, { apiId, permissions: ["documents.read"] });
    expect(
      errorOf(
        await call(server, "keys.removePermissions", rootKey, {
          keyId: created.keyId,
          permissions: ["documents.read", "never.made"],
        }),
      ),
    ).toMatchObject({
      status: 404,
      code: "err:svc:data:permission_not_found",
      detail: "Permission 'never.made' was not found.",
    });
    expect((await getKey(server, rootKey, created.keyId)).permissions).toEqual(["documents.read"]);
    expect(
      errorOf(await call(server, "keys.addPermissions", rootKey, { keyId: "key_nothere1", permissions: ["a.b"] })),
    ).toMatchObject({
      status: 404,
      detail: "The specified key was not found.",
    });
    for (const body of [
      { keyId: created.keyId },
      { keyId: created.keyId, permissions: [] },
      { keyId: created.keyId, permissions: ["a b"] },
      { permissions: ["a.b"] },
    ]) {
      expect(errorOf(await call(server, "keys.addPermissions", rootKey, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("keys.addRoles, removeRoles, setRoles", () => {
  test("each answers the key's roles with their permissions; the roles' permissions count at the next verification", async () => {
    const created = await createKey(server, rootKey, { apiId });
    const added = v.parse(
      Roles,
      dataOf(await call(server, "keys.addRoles", rootKey, { keyId: created.keyId, roles: ["doc-editor"] })),
    );
    expect(added).toEqual([
      {
        id: expect.stringMatching(/^role_/) as string,
        name: "doc-editor",
        permissions: [expect.objectContaining({ slug: "documents.write" })],
      },
    ]);
    expect(await verify(server, rootKey, created.key, { permissions: "documents.write" })).toMatchObject({
      valid: true,
    });

    const set = v.parse(
      Roles,
      dataOf(await call(server, "keys.setRoles", rootKey, { keyId: created.keyId, roles: ["doc-viewer"] })),
    );
    expect(set.map((role) => role.name)).toEqual(["doc-viewer"]);
    expect(await verify(server, rootKey, created.key, { permissions: "documents.write" })).toMatchObject({
      code: "INSUFFICIENT_PERMISSIONS",
    });

    expect(
      v.parse(
        Roles,
        dataOf(await call(server, "keys.removeRoles", rootKey, { keyId: created.keyId, roles: ["doc-viewer"] })),
      ),
    ).toEqual([]);
    expect((await getKey(server, rootKey, created.keyId)).roles).toBeUndefined();
  });

  test("a role the workspace lacks is 404 and nothing changes: roles are never created by a key operation", async () => {
    const created = await createKey(server, rootKey, { apiId, roles: ["doc-viewer"] });
    for (const operation of ["keys.addRoles", "keys.setRoles", "keys.removeRoles"]) {
      expect(
        errorOf(await call(server, operation, rootKey, { keyId: created.keyId, roles: ["doc-editor", "ghost"] })),
        operation,
      ).toMatchObject({
        status: 404,
        code: "err:svc:data:role_not_found",
        detail: "Role 'ghost' was not found.",
      });
    }
    expect((await getKey(server, rootKey, created.keyId)).roles).toEqual(["doc-viewer"]);
    expect(server.admin.db.prepare("SELECT count(*) AS n FROM roles WHERE name = 'ghost'").get()).toEqual({ n: 0 });
  });

  test("addRoles needs add_role_to_key beside update_key; removeRoles and setRoles update_key alone, as on the real service", async () => {
    const created = await createKey(server, rootKey, { apiId, roles: ["doc-viewer"] });
    const updateOnly = server.admin.createRootKey({ permissions: ["api.*.update_key"] }).secret;
    expect(
      errorOf(await call(server, "keys.addRoles", updateOnly, { keyId: created.keyId, roles: ["doc-editor"] })).detail,
    ).toContain("rbac.*.add_role_to_key");
    expect(
      (await call(server, "keys.setRoles", updateOnly, { keyId: created.keyId, roles: ["doc-editor"] })).status,
    ).toBe(200);
    expect(
      (await call(server, "keys.removeRoles", updateOnly, { keyId: created.keyId, roles: ["doc-editor"] })).status,
    ).toBe(200);
    const readOnly = server.admin.createRootKey({ permissions: ["api.*.read_key", "rbac.*.add_role_to_key"] }).secret;
    expect(errorOf(await call(server, "keys.setRoles", readOnly, { keyId: created.keyId, roles: [] })).status).toBe(
      403,
    );
    for (const body of [
      { keyId: created.keyId },
      { keyId: created.keyId, roles: [""] },
      { keyId: created.keyId, roles: "doc-editor" },
    ]) {
      expect(errorOf(await call(server, "keys.addRoles", rootKey, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});
