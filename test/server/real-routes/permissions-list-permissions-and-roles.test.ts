import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { newId } from "../../../server/db/ids";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of permissions.listPermissions and permissions.listRoles
 * (svc/api/routes/v2_permissions_list_permissions/*_test.go, v2_permissions_list_roles/*_test.go), replayed over
 * HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;

const Page = v.object({
  data: v.array(
    v.object({
      id: v.string(),
      name: v.string(),
      description: v.optional(v.string()),
      permissions: v.optional(v.array(v.object({ id: v.string(), name: v.string() }))),
    }),
  ),
  pagination: v.object({ cursor: v.optional(v.string()), hasMore: v.boolean() }),
});

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
});

afterAll(() => server.close());

function insertPermission(workspaceId: string, name: string, slug: string, description: string): string {
  const id = newId("perm");
  server.admin.db
    .prepare(
      "INSERT INTO permissions (id, workspace_id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .run(id, workspaceId, name, slug, description, Date.now());
  return id;
}

async function list(
  operation: "permissions.listPermissions" | "permissions.listRoles",
  key: string,
  body: object = {},
) {
  const answer = await h.call(operation, body, { key });
  expect(answer.status, answer.text).toBe(200);
  return v.parse(Page, answer.json);
}

const names = (page: v.InferOutput<typeof Page>) => page.data.map((row) => row.name);

describe("listPermissions", () => {
  let workspaceId: string;
  let reader: string;
  const ids: string[] = [];

  beforeAll(() => {
    workspaceId = h.workspace();
    reader = h.rootKey(["rbac.*.read_permission"], workspaceId);
    for (const i of [1, 2, 3, 4, 5]) {
      ids.push(
        insertPermission(
          workspaceId,
          `test.permission.${i}`,
          `test-permission-${i}`,
          `Description for test permission ${i}`,
        ),
      );
    }
    insertPermission(
      h.workspace(),
      "other.workspace.permission",
      "other-workspace-permission",
      "This permission is in a different workspace",
    );
  });

  describe("200", () => {
    test("list all permissions", async () => {
      const page = await list("permissions.listPermissions", reader);
      expect(page.data.map((row) => row.id).sort()).toEqual([...ids].sort());
      expect(page.pagination).toEqual({ hasMore: false });
    });

    test("empty results", async () => {
      const page = await list("permissions.listPermissions", h.rootKey(["rbac.*.read_permission"], h.workspace()));
      expect(page).toEqual({ data: [], pagination: { hasMore: false } });
    });

    test("pagination with cursor", async () => {
      const bulk = h.workspace();
      for (let i = 0; i < 101; i++)
        insertPermission(bulk, `bulk.permission.${i}`, `bulk-permission-${i}`, `Bulk permission ${i}`);
      const key = h.rootKey(["rbac.*.read_permission"], bulk);
      const first = await list("permissions.listPermissions", key);
      expect(first.data).toHaveLength(100);
      expect(first.pagination.hasMore).toBe(true);
      const second = await list("permissions.listPermissions", key, { cursor: first.pagination.cursor });
      expect(second.data.length).toBeGreaterThan(0);
      expect(second.data.filter((row) => first.data.some((seen) => seen.id === row.id))).toEqual([]);
    });

    describe("search", () => {
      let key: string;
      let billing: string;
      beforeAll(() => {
        const search = h.workspace();
        key = h.rootKey(["rbac.*.read_permission"], search);
        insertPermission(search, "documents.read", "documents-read", "Read stored documents");
        billing = insertPermission(search, "billing.manage", "billing-manage", "Change plans and invoices");
        insertPermission(search, "reports_100%", "reports-full", "Export everything");
      });
      const found = async (search: string) => names(await list("permissions.listPermissions", key, { search }));

      test("matches name substring", async () => expect(await found("documents.")).toEqual(["documents.read"]));
      test("matches permission id", async () => expect(await found(billing)).toEqual(["billing.manage"]));
      test("matches slug substring", async () => expect(await found("reports-full")).toEqual(["reports_100%"]));
      test("matches description substring", async () => expect(await found("invoices")).toEqual(["billing.manage"]));
      test("this server's own check: a permission's description is in its row", async () => {
        const page = await list("permissions.listPermissions", key, { search: "invoices" });
        expect(page.data[0]).toMatchObject({ name: "billing.manage", description: "Change plans and invoices" });
      });
      test("is case insensitive", async () => expect(await found("BILLING")).toEqual(["billing.manage"]));
      test("wildcards match literally", async () => {
        expect(await found("100%")).toEqual(["reports_100%"]);
        expect(await found("d_cuments")).toEqual([]);
      });
      test("no matches returns empty list", async () => expect(await found("does-not-exist")).toEqual([]));
      test("whitespace-only search returns all", async () =>
        expect((await found("   ")).sort()).toEqual(["billing.manage", "documents.read", "reports_100%"]));
    });
  });

  describe("400", () => {
    test.each([
      ["malformed JSON body", { invalid: "json structure" }],
      ["search exceeding max length", { search: "a".repeat(257) }],
    ])("%s", async (_, body) => {
      const error = errorOf(await h.call("permissions.listPermissions", body, { key: reader }));
      expect(error.status).toBe(400);
      expect(error.detail).toContain("validate schema");
    });
  });

  describe("401", () => {
    test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await h.call("permissions.listPermissions", {}, "none")).status).toBe(401);
    });

    test("invalid authorization token", async () => {
      const error = errorOf(
        await h.call("permissions.listPermissions", {}, { authorization: "Bearer invalid_token_that_does_not_exist" }),
      );
      expect(error.status).toBe(401);
      expect(error.detail).toContain("invalid");
    });

    test("malformed authorization header", async () => {
      expect(
        (await h.call("permissions.listPermissions", {}, { authorization: "malformed_header_without_bearer_prefix" }))
          .status,
      ).toBe(400);
    });
  });

  describe("403", () => {
    test("missing read_permission permission", async () => {
      const error = errorOf(
        await h.call("permissions.listPermissions", {}, { key: h.rootKey(["rbac.*.create_permission"], workspaceId) }),
      );
      expect(error.status).toBe(403);
      expect(error.detail).toContain("permission");
    });

    test("wrong workspace", async () => {
      expect(names(await list("permissions.listPermissions", reader))).not.toContain("other.workspace.permission");
    });
  });
});

describe("listRoles", () => {
  let workspaceId: string;
  let reader: string;
  const ids: string[] = [];

  beforeAll(() => {
    workspaceId = h.workspace();
    reader = h.rootKey(["rbac.*.read_role"], workspaceId);
    for (const i of [1, 2, 3])
      insertPermission(
        workspaceId,
        `test.permission.${i}`,
        `test.permission.${i}`,
        `Description for test permission ${i}`,
      );
    for (const i of [1, 2, 3, 4, 5])
      ids.push(createRole(server.admin.db, workspaceId, `test.role.${i}`, ["test.permission.1", "test.permission.2"]));
    createRole(server.admin.db, h.workspace(), "other.workspace.role", []);
  });

  describe("200", () => {
    test("list all roles", async () => {
      const page = await list("permissions.listRoles", reader);
      expect(page.data.map((row) => row.id).sort()).toEqual([...ids].sort());
      for (const role of page.data)
        expect(role.permissions?.map((permission) => permission.name).sort()).toEqual([
          "test.permission.1",
          "test.permission.2",
        ]);
    });

    test("empty results", async () => {
      const page = await list("permissions.listRoles", h.rootKey(["rbac.*.read_role"], h.workspace()));
      expect(page).toEqual({ data: [], pagination: { hasMore: false } });
    });

    test("pagination with cursor", async () => {
      const bulk = h.workspace();
      for (let i = 0; i < 101; i++) createRole(server.admin.db, bulk, `bulk.role.${i}`, ["test.permission.1"]);
      const key = h.rootKey(["rbac.*.read_role"], bulk);
      const first = await list("permissions.listRoles", key);
      expect(first.data).toHaveLength(100);
      expect(first.pagination.hasMore).toBe(true);
      const second = await list("permissions.listRoles", key, { cursor: first.pagination.cursor });
      expect(second.data.length).toBeGreaterThan(0);
      expect(second.data.filter((row) => first.data.some((seen) => seen.id === row.id))).toEqual([]);
    });

    describe("search", () => {
      let key: string;
      let viewer: string;
      beforeAll(() => {
        const search = h.workspace();
        key = h.rootKey(["rbac.*.read_role"], search);
        createRole(server.admin.db, search, "admin.finance", [], Date.now(), "Numbers team");
        viewer = createRole(server.admin.db, search, "viewer.reports", [], Date.now(), "Read only reporting");
        createRole(server.admin.db, search, "support_100%", [], Date.now(), "Handles escalations");
      });
      const found = async (search: string) => names(await list("permissions.listRoles", key, { search }));

      test("matches name substring", async () => expect(await found("finance")).toEqual(["admin.finance"]));
      test("matches role id", async () => expect(await found(viewer)).toEqual(["viewer.reports"]));
      test("matches description substring", async () => expect(await found("reporting")).toEqual(["viewer.reports"]));
      test("this server's own check: a role's description is in its row", async () => {
        const page = await list("permissions.listRoles", key, { search: "reporting" });
        expect(page.data[0]).toMatchObject({ name: "viewer.reports", description: "Read only reporting" });
      });
      test("is case insensitive", async () => expect(await found("FINANCE")).toEqual(["admin.finance"]));
      test("wildcards match literally", async () => {
        expect(await found("100%")).toEqual(["support_100%"]);
        expect(await found("s_pport")).toEqual([]);
      });
      test("no matches returns empty list", async () => expect(await found("does-not-exist")).toEqual([]));
      test("whitespace-only search returns all", async () =>
        expect((await found("   ")).sort()).toEqual(["admin.finance", "support_100%", "viewer.reports"]));
    });
  });

  describe("400", () => {
    test.each([
      ["malformed JSON body", { invalid: "json structure" }],
      ["search exceeding max length", { search: "a".repeat(257) }],
    ])("%s", async (_, body) => {
      const error = errorOf(await h.call("permissions.listRoles", body, { key: reader }));
      expect(error.status).toBe(400);
      expect(error.detail).toContain("validate schema");
    });
  });

  describe("401", () => {
    test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await h.call("permissions.listRoles", {}, "none")).status).toBe(401);
    });

    test("invalid authorization token", async () => {
      const error = errorOf(
        await h.call("permissions.listRoles", {}, { authorization: "Bearer invalid_token_that_does_not_exist" }),
      );
      expect(error.status).toBe(401);
      expect(error.detail).toContain("invalid");
    });

    test("malformed authorization header", async () => {
      expect(
        (await h.call("permissions.listRoles", {}, { authorization: "malformed_header_without_bearer_prefix" })).status,
      ).toBe(400);
    });
  });

  describe("403", () => {
    test("missing read_role permission", async () => {
      const error = errorOf(
        await h.call("permissions.listRoles", {}, { key: h.rootKey(["rbac.*.create_role"], workspaceId) }),
      );
      expect(error.status).toBe(403);
      expect(error.detail).toContain("permission");
    });

    test("wrong workspace", async () => {
      expect(names(await list("permissions.listRoles", reader))).not.toContain("other.workspace.role");
    });
  });
});
