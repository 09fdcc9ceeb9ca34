import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../../server/db/ids";
import { startInProcess, type InProcessServer } from "../in-process";
import { catalogue } from "./catalogue-harness";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of permissions.createRole, getRole, deleteRole and setRolePermissions
 * (svc/api/routes/v2_permissions_{create,get,delete}_role/*_test.go, v2_permissions_set_role_permissions/handler_test.go),
 * replayed over HTTP, each named as its real t.Run; each real test function's harness is a workspace of its own here.
 * A role's permissions, which the real tests read as rows linking the two, are the slugs it holds here. Served
 * differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let db: ReturnType<typeof catalogue>;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  db = catalogue(server);
});

afterAll(() => server.close());

/** The real harness's uid.New(prefix). */
const uid = (prefix: string) => `${prefix}_${newId("req").slice(4)}`;

const Permission = v.strictObject({
  id: v.string(),
  name: v.string(),
  slug: v.string(),
  description: v.optional(v.string()),
});
const Role = v.strictObject({
  id: v.string(),
  name: v.string(),
  description: v.optional(v.string()),
  permissions: v.optional(v.array(Permission)),
});
const Created = v.strictObject({ roleId: v.pipe(v.string(), v.regex(/^role_/)) });

/** The 401 tests the role routes share (TestAuthenticationErrors), name for name. */
function describeAuthentication(operation: string, body: object): void {
  describe("401", () => {
    test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await h.call(operation, body, "none")).status).toBe(401);
    });
    test("invalid authorization token", async () => {
      const error = errorOf(
        await h.call(operation, body, { authorization: "Bearer invalid_token_that_does_not_exist" }),
      );
      expect(error.status).toBe(401);
      expect(error.detail).toContain("invalid");
    });
    test("malformed authorization header", async () => {
      const answer = await h.call(operation, body, { authorization: "malformed_header_without_bearer_prefix" });
      expect(errorOf(answer).status).toBe(400);
    });
  });
}

/** The 400 tests the role routes share (TestValidationErrors), beside their own. */
function schemaRefusals(operation: string, key: () => string, cases: [string, object][]): void {
  test.each(cases)("%s", async (_, body) => {
    const error = errorOf(await h.call(operation, body, { key: key() }));
    expect(error.status).toBe(400);
    expect(error.detail).toContain("validate schema");
  });
}

describe("createRole", () => {
  let workspaceId: string;
  let creator: string;
  const create = (body: unknown, key = creator) => h.call("permissions.createRole", body, { key });
  const created = async (body: unknown, key = creator) => v.parse(Created, dataOf(await create(body, key))).roleId;
  const withPermissions = () =>
    h.rootKey(["rbac.*.create_role", "rbac.*.add_permission_to_role", "rbac.*.create_permission"], workspaceId);

  beforeAll(() => {
    workspaceId = h.workspace();
    creator = h.rootKey(["rbac.*.create_role"], workspaceId);
  });

  describe("200", () => {
    test.each([
      ["create role without permissions", "test.role.no.permissions", "Test role without permissions"],
      ["create role with description", "test.role.with.description", "Test role with a description field"],
    ])("%s (served differently: no audit log is kept here)", async (_, name, description) => {
      const roleId = await created({ name, description });
      expect(db.role(roleId)).toEqual({ id: roleId, name, description, permissions: [] });
    });

    test("create role without description", async () => {
      const roleId = await created({ name: "test.role.no.desc", permissions: [] });
      expect(db.role(roleId)).toMatchObject({ name: "test.role.no.desc", description: null });
    });

    test("create role with existing and missing permissions (served differently: no audit log is kept here)", async () => {
      const existing = db.insertPermission(workspaceId, {
        name: "documents.read.create.role",
        slug: "documents.read.create.role",
      });
      const roleId = await created(
        {
          name: "test.role.with.permissions",
          permissions: ["documents.read.create.role", "documents.write.create.role", "Documents.Write.Create.Role"],
        },
        withPermissions(),
      );
      const made = db.permissionsWithSlug(workspaceId, "documents.write.create.role");
      expect(made).toHaveLength(1);
      expect(db.role(roleId)?.permissions.sort()).toEqual(
        [db.permission(existing)?.slug, made[0]?.slug].map(String).sort(),
      );
    });

    test("existing permission does not require create_permission", async () => {
      const existing = db.insertPermission(workspaceId, {
        name: "Documents.Read.Existing.Only",
        slug: "Documents.Read.Existing.Only",
      });
      const key = h.rootKey(["rbac.*.create_role", "rbac.*.add_permission_to_role"], workspaceId);
      const roleId = await created(
        { name: "test.role.with.existing.permission", permissions: ["documents.read.existing.only"] },
        key,
      );
      expect(db.role(roleId)?.permissions).toEqual([db.permission(existing)?.slug]);
    });

    test("concurrent roles reuse a missing permission (served differently: no audit log is kept here)", async () => {
      const key = withPermissions();
      const roleIds = await Promise.all(
        [0, 1].map((i) =>
          created({ name: `test.role.concurrent.${i}`, permissions: ["documents.concurrent.create.role"] }, key),
        ),
      );
      const made = db.permissionsWithSlug(workspaceId, "documents.concurrent.create.role");
      expect(made).toHaveLength(1);
      for (const roleId of roleIds) expect(db.role(roleId)?.permissions).toEqual(["documents.concurrent.create.role"]);
    });
  });

  describe("400", () => {
    schemaRefusals("permissions.createRole", () => creator, [
      ["missing name", { name: "" }],
      ["empty name", { name: "" }],
      ["malformed JSON body", { invalid: "json structure" }],
    ]);
    test("description too long", async () => {
      expect((await create({ name: "test.role", description: "a".repeat(513) })).status).toBe(400);
    });
  });

  describeAuthentication("permissions.createRole", { name: "auth.test.role" });

  describe("403", () => {
    test("missing create_role permission", async () => {
      const error = errorOf(
        await create({ name: "test.role.unauthorized" }, h.rootKey(["rbac.*.read_role"], workspaceId)),
      );
      expect(error.status).toBe(403);
      expect(error.detail).toContain("Missing one of these permissions");
      expect(db.role("test.role.unauthorized", workspaceId)).toBeUndefined();
    });

    test("missing add_permission_to_role permission", async () => {
      const key = h.rootKey(["rbac.*.create_role", "rbac.*.create_permission"], workspaceId);
      const body = { name: "test.role.missing.add", permissions: ["documents.read.missing.add"] };
      const error = errorOf(await create(body, key));
      expect(error.status).toBe(403);
      expect(error.detail).toBe("Missing permission: 'rbac.*.add_permission_to_role'");
      expect(db.role(body.name, workspaceId)).toBeUndefined();
    });

    test("missing create_permission permission", async () => {
      db.insertPermission(workspaceId, {
        name: "documents.read.existing.create.role",
        slug: "documents.read.existing.create.role",
      });
      const key = h.rootKey(["rbac.*.create_role", "rbac.*.add_permission_to_role"], workspaceId);
      const body = {
        name: "test.role.missing.create",
        permissions: ["documents.read.existing.create.role", "documents.write.missing.create.role"],
      };
      const error = errorOf(await create(body, key));
      expect(error.status).toBe(403);
      expect(error.detail).toBe("Missing permission: 'rbac.*.create_permission'");
      expect(db.role(body.name, workspaceId)).toBeUndefined();
      expect(db.permissionsWithSlug(workspaceId, "documents.write.missing.create.role")).toEqual([]);
    });

    test("wrong workspace", async () => {
      const other = h.workspace();
      await create({ name: "test.role.wrong.workspace" }, h.rootKey(["rbac.*.create_role"], other));
      expect(db.role("test.role.wrong.workspace", workspaceId)).toBeUndefined();
    });
  });

  describe("409", () => {
    const conflict = async (name: string) => {
      const answer = await create({ name });
      expect(answer.json).toMatchObject({ error: { status: 409, title: "Conflicting Resource" } });
      const error = errorOf(answer);
      expect(error.type).toMatch(/\/data\/role_already_exists$/);
      expect(error.detail).toContain("already exists");
    };

    test("duplicate role name", async () => {
      await created({ name: "test.duplicate.role" });
      await conflict("test.duplicate.role");
    });

    test("duplicate role name different case", async () => {
      await created({ name: "Test.Case.Sensitive.Role" });
      // The real test takes either answer; role names are compared as written here, as keys name their roles.
      const answer = await create({ name: "test.case.sensitive.role" });
      if (answer.status === 409) expect(errorOf(answer).detail).toContain("already exists");
      else expect(answer.status).toBe(200);
    });

    test("existing role in database", async () => {
      db.insertRole(workspaceId, { name: "test.existing.role" });
      await conflict("test.existing.role");
    });
  });
});

describe("getRole", () => {
  let workspaceId: string;
  let reader: string;
  const get = (body: unknown, key = reader) => h.call("permissions.getRole", body, { key });
  const got = async (role: string) => v.parse(Role, dataOf(await get({ role })));

  beforeAll(() => {
    workspaceId = h.workspace();
    reader = h.rootKey(["rbac.*.read_role"], workspaceId);
  });

  describe("200", () => {
    test("get role with permissions", async () => {
      const permissionIds = [0, 1].map((i) =>
        db.insertPermission(workspaceId, {
          name: `test.perm.${i}`,
          slug: `test-perm-${i}`,
          description: `Test permission ${i}`,
        }),
      );
      const roleId = db.insertRole(workspaceId, {
        id: uid("test"),
        name: "test.get.role",
        description: "Test role for get endpoint",
        permissions: ["test-perm-0", "test-perm-1"],
      });
      const role = await got(roleId);
      expect(role).toMatchObject({ id: roleId, name: "test.get.role", description: "Test role for get endpoint" });
      expect(role.permissions?.map((permission) => permission.id).sort()).toEqual([...permissionIds].sort());
      expect(role.permissions?.[0]).toMatchObject({ description: "Test permission 0" });
    });

    test("get role without permissions", async () => {
      const roleId = db.insertRole(workspaceId, {
        id: uid("test"),
        name: "rolewithoutpermissions",
        description: "Test role with no permissions",
      });
      const role = await got("rolewithoutpermissions");
      expect(role).toEqual({
        id: roleId,
        name: "rolewithoutpermissions",
        description: "Test role with no permissions",
      });
    });
  });

  describe("400", () => {
    schemaRefusals("permissions.getRole", () => reader, [
      ["missing roleId", {}],
      ["empty roleId", { role: "" }],
      ["malformed JSON body", { invalid: "json structure" }],
    ]);
  });

  describeAuthentication("permissions.getRole", { role: "role_test123" });

  describe("403", () => {
    let roleId: string;
    beforeAll(() => {
      roleId = db.insertRole(workspaceId, {
        id: uid("test"),
        name: "test.role.access",
        description: "Test role for authorization tests",
      });
    });
    test.each([
      ["missing required permission", ["rbac.*.create_role"]],
      ["no permissions", [""]],
    ])("%s", async (_, permissions) => {
      const error = errorOf(await get({ role: roleId }, h.rootKey(permissions, workspaceId)));
      expect(error.status).toBe(403);
      expect(error.detail).toContain("permission");
    });
  });

  describe("404", () => {
    test("non-existent role ID", async () => {
      const error = errorOf(await get({ role: "role_does_not_exist" }));
      expect(error.status).toBe(404);
      expect(error.detail).toContain("does not exist");
    });
  });
});

describe("deleteRole", () => {
  let workspaceId: string;
  let deleter: string;
  const remove = (body: unknown, key = deleter) => h.call("permissions.deleteRole", body, { key });

  beforeAll(() => {
    workspaceId = h.workspace();
    deleter = h.rootKey(["rbac.*.delete_role"], workspaceId);
  });

  describe("200", () => {
    test("delete role with permissions", async () => {
      for (const i of [0, 1]) {
        db.insertPermission(workspaceId, {
          name: `test.perm.${i}`,
          slug: `test-perm-${i}`,
          description: `Test permission ${i}`,
        });
      }
      const roleId = db.insertRole(workspaceId, {
        id: uid("test"),
        name: "test.delete.role",
        description: "Test role for deletion",
        permissions: ["test-perm-0", "test-perm-1"],
      });
      const { keyId } = h.key(h.api(workspaceId), { roles: ["test.delete.role"] });
      expect(db.role(roleId)?.id).toBe(roleId);
      const answer = await remove({ role: roleId });
      expect(dataOf(answer)).toEqual({});
      expect(db.role(roleId)).toBeUndefined();
      expect(db.keyHolds(keyId).roles).toEqual([]);
    });

    test("delete role without relationships", async () => {
      const roleId = db.insertRole(workspaceId, {
        id: uid("test"),
        name: "test.delete.role.no.rels",
        description: "Test role with no relationships for deletion",
      });
      expect((await remove({ role: roleId })).status).toBe(200);
      expect(db.role(roleId)).toBeUndefined();
    });
  });

  describe("400", () => {
    schemaRefusals("permissions.deleteRole", () => deleter, [
      ["missing roleId", {}],
      ["empty role", { role: "" }],
      ["malformed JSON body", { invalid: "json structure" }],
    ]);
  });

  describeAuthentication("permissions.deleteRole", { role: "role_test123" });

  describe("403", () => {
    let roleId: string;
    beforeAll(() => {
      roleId = db.insertRole(workspaceId, {
        id: uid("test"),
        name: "test.forbidden.role",
        description: "Test role for forbidden access",
      });
    });
    test.each([
      ["missing required permission", ["rbac.*.read_role"]],
      ["no permissions", [""]],
    ])("%s", async (_, permissions) => {
      const error = errorOf(await remove({ role: roleId }, h.rootKey(permissions, workspaceId)));
      expect(error.status).toBe(403);
      expect(error.detail).toContain("permission");
      expect(db.role(roleId)?.id).toBe(roleId);
    });
  });

  describe("404", () => {
    test("nonexistent role", async () => {
      const error = errorOf(await remove({ role: uid("test") }));
      expect(error.status).toBe(404);
      expect(error.detail).toContain("does not exist");
    });

    test("role from different workspace", async () => {
      const roleId = db.insertRole(h.workspace(), {
        id: uid("test"),
        name: "test.role.other.workspace",
        description: "Test role in another workspace",
      });
      const error = errorOf(await remove({ role: roleId }));
      expect(error.status).toBe(404);
      expect(error.detail).toContain("does not exist");
      expect(db.role(roleId)?.id).toBe(roleId);
    });
  });

  test("this server's own check: a deleted role's keys lose its permissions from the next verification on", async () => {
    db.insertPermission(workspaceId, { name: "billing.read", slug: "billing.read" });
    db.insertRole(workspaceId, { name: "billing", permissions: ["billing.read"] });
    const { secret } = h.key(h.api(workspaceId), { roles: ["billing"] });
    const verifier = h.rootKey(["api.*.verify_key"], workspaceId);
    const verify = async () =>
      v.parse(
        v.object({ valid: v.boolean(), roles: v.array(v.string()) }),
        dataOf(await h.call("keys.verifyKey", { key: secret, permissions: "billing.read" }, { key: verifier })),
      );
    expect(await verify()).toEqual({ valid: true, roles: ["billing"] });
    expect((await remove({ role: "billing" })).status).toBe(200);
    expect(await verify()).toEqual({ valid: false, roles: [] });
  });
});

describe("setRolePermissions", () => {
  let workspaceId: string;
  let setter: string;
  const set = (body: unknown, key = setter) => h.call("permissions.setRolePermissions", body, { key });
  const setTo = async (roleId: string, permissions: string[], key = setter) =>
    v.parse(v.array(Permission), dataOf(await set({ roleId, permissions }, key)));

  beforeAll(() => {
    workspaceId = h.workspace();
    setter = h.rootKey(
      ["rbac.*.add_permission_to_role", "rbac.*.remove_permission_from_role", "rbac.*.create_permission"],
      workspaceId,
    );
  });

  describe("TestSetRolePermissions", () => {
    test("replace, deduplicate, create, repeat, and clear (served differently: no audit log is kept here)", async () => {
      db.insertPermission(workspaceId, { name: "old.permission", slug: "old.permission" });
      db.insertPermission(workspaceId, { name: "keep.permission", slug: "keep.permission" });
      const roleId = db.insertRole(workspaceId, {
        name: "set-role-permissions",
        permissions: ["old.permission", "keep.permission"],
      });
      const wanted = ["KEEP.Permission", "new.permission", "NEW.Permission"];
      const first = await setTo(roleId, wanted);
      expect(first).toHaveLength(2);
      expect(db.role(roleId)?.permissions).toEqual(["keep.permission", "new.permission"]);
      const repeat = await setTo(roleId, wanted);
      expect(repeat).toEqual(first);
      expect(await setTo(roleId, [])).toEqual([]);
      expect(db.role(roleId)?.permissions).toEqual([]);
    });

    test("unknown and foreign roles are not found", async () => {
      const foreign = db.insertRole(h.workspace(), { name: "foreign-role" });
      for (const roleId of ["role_missing", foreign]) {
        expect(errorOf(await set({ roleId, permissions: [] })).status).toBe(404);
      }
    });

    test("requires add, remove, and create authorization", async () => {
      const roleId = db.insertRole(workspaceId, { name: "auth-role" });
      const cases: [string[], string[]][] = [
        [["rbac.*.remove_permission_from_role"], []],
        [["rbac.*.add_permission_to_role"], []],
        [["rbac.*.add_permission_to_role", "rbac.*.remove_permission_from_role"], ["missing.permission"]],
      ];
      for (const [grants, permissions] of cases) {
        expect(errorOf(await set({ roleId, permissions }, h.rootKey(grants, workspaceId))).status).toBe(403);
      }
      expect(db.permissionsWithSlug(workspaceId, "missing.permission")).toEqual([]);
    });

    test.each([
      ["missing roleId", { permissions: [] }],
      ["missing permissions", { roleId: "role_missing" }],
      ["invalid slug", { roleId: "role_missing", permissions: [""] }],
    ])("malformed requests: %s", async (_, body) => {
      expect(errorOf(await set(body)).status).toBe(400);
    });

    test("unauthenticated", async () => {
      const answer = await h.call(
        "permissions.setRolePermissions",
        { roleId: "role_missing", permissions: [] },
        { authorization: "Bearer invalid" },
      );
      expect(errorOf(answer).status).toBe(401);
    });
  });

  test("TestConcurrentMissingPermission (served differently: no audit log is kept here)", async () => {
    const roles = ["concurrent-role-a", "concurrent-role-b"].map((name) => db.insertRole(workspaceId, { name }));
    expect(await setTo(roles[0] ?? "", [])).toEqual([]);
    await Promise.all(roles.map((roleId) => setTo(roleId, ["concurrent.permission"])));
    const made = db.permissionsWithSlug(workspaceId, "concurrent.permission");
    expect(made).toHaveLength(1);
    for (const roleId of roles) expect(db.role(roleId)?.permissions).toEqual(["concurrent.permission"]);
  });

  test("this server's own check: a key holding the role is verified with the role's new permissions at once", async () => {
    const roleId = db.insertRole(workspaceId, { name: "auditor" });
    const { secret } = h.key(h.api(workspaceId), { roles: ["auditor"] });
    const verifier = h.rootKey(["api.*.verify_key"], workspaceId);
    const valid = async () =>
      v.parse(
        v.object({ valid: v.boolean() }),
        dataOf(await h.call("keys.verifyKey", { key: secret, permissions: "audit.read" }, { key: verifier })),
      ).valid;
    expect(await valid()).toBe(false);
    await setTo(roleId, ["audit.read"]);
    expect(await valid()).toBe(true);
    await setTo(roleId, []);
    expect(await valid()).toBe(false);
  });
});
