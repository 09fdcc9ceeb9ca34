import { expect, test, vi } from "vitest";
import { createPermission } from "@/lib/api/create-permission";
import { createRole } from "@/lib/api/create-role";
import { deletePermission } from "@/lib/api/delete-permission";
import { deleteRole } from "@/lib/api/delete-role";
import { getPermission } from "@/lib/api/get-permission";
import { getRole } from "@/lib/api/get-role";
import { listPermissions } from "@/lib/api/list-permissions";
import { listRoles } from "@/lib/api/list-roles";
import { setRolePermissions } from "@/lib/api/set-role-permissions";
import type { Connection } from "@/lib/api/transport";
import { UnexpectedResponseError } from "@/lib/api-errors";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };

function answering(data: unknown, pagination?: { cursor?: string; hasMore: boolean }) {
  const calls: { path: string; body: unknown }[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      path: new URL(input instanceof Request ? input.url : input.toString()).pathname,
      body: JSON.parse(typeof init?.body === "string" ? init.body : "null"),
    });
    return Promise.resolve(
      new Response(JSON.stringify({ meta: { requestId: "req_1" }, data, ...(pagination && { pagination }) }), {
        status: 200,
        headers: { "content-type": "application/json" },
      }),
    );
  });
  return { fetch, calls };
}

const PERMISSION = { id: "perm_1", name: "Read docs", slug: "docs.read", description: "Reads them" };

test("the catalogue's lists send their page and a search (none when blank), and say where the next page starts", async () => {
  const permissions = answering([PERMISSION], { cursor: "perm_1", hasMore: true });
  expect(await listPermissions(connection, { limit: 100, search: "  docs " }, { fetch: permissions.fetch })).toEqual({
    permissions: [PERMISSION],
    cursor: "perm_1",
    requestId: "req_1",
  });
  const roles = answering([{ id: "role_1", name: "support" }], { hasMore: false });
  expect(await listRoles(connection, { cursor: "role_0", search: " " }, { fetch: roles.fetch })).toMatchObject({
    roles: [{ id: "role_1", name: "support" }],
    cursor: undefined,
  });
  expect([...permissions.calls, ...roles.calls]).toEqual([
    { path: "/v2/permissions.listPermissions", body: { limit: 100, search: "docs" } },
    { path: "/v2/permissions.listRoles", body: { cursor: "role_0" } },
  ]);
});

test("each change sends the body the service takes and parses its answer", async () => {
  const cases: [() => Promise<unknown>, ReturnType<typeof answering>, string, unknown, unknown][] = [];
  const made = (data: unknown) => answering(data);
  const a = made({ permissionId: "perm_9" });
  cases.push([
    () => createPermission(connection, { name: "Read", slug: "docs.read", description: "" }, { fetch: a.fetch }),
    a,
    "/v2/permissions.createPermission",
    { name: "Read", slug: "docs.read" },
    { permissionId: "perm_9", requestId: "req_1" },
  ]);
  const b = made({ roleId: "role_9" });
  cases.push([
    () => createRole(connection, { name: "support", description: "Helps", permissions: [] }, { fetch: b.fetch }),
    b,
    "/v2/permissions.createRole",
    { name: "support", description: "Helps" },
    { roleId: "role_9", requestId: "req_1" },
  ]);
  const c = made({});
  cases.push([
    () => deletePermission(connection, "perm_1", { fetch: c.fetch }),
    c,
    "/v2/permissions.deletePermission",
    { permission: "perm_1" },
    { requestId: "req_1" },
  ]);
  const d = made({});
  cases.push([
    () => deleteRole(connection, "role_1", { fetch: d.fetch }),
    d,
    "/v2/permissions.deleteRole",
    { role: "role_1" },
    { requestId: "req_1" },
  ]);
  const e = made(PERMISSION);
  cases.push([
    () => getPermission(connection, "docs.read", { fetch: e.fetch }),
    e,
    "/v2/permissions.getPermission",
    { permission: "docs.read" },
    { permission: PERMISSION, requestId: "req_1" },
  ]);
  const f = made({ id: "role_1", name: "support", permissions: [PERMISSION] });
  cases.push([
    () => getRole(connection, "support", { fetch: f.fetch }),
    f,
    "/v2/permissions.getRole",
    { role: "support" },
    { role: { id: "role_1", name: "support", permissions: [PERMISSION] }, requestId: "req_1" },
  ]);
  const g = made([PERMISSION]);
  cases.push([
    () => setRolePermissions(connection, "role_1", [], { fetch: g.fetch }),
    g,
    "/v2/permissions.setRolePermissions",
    { roleId: "role_1", permissions: [] },
    { permissions: [PERMISSION], requestId: "req_1" },
  ]);
  for (const [call, stub, path, body, answer] of cases) {
    expect(await call()).toEqual(answer);
    expect(stub.calls).toEqual([{ path, body }]);
  }
});

test("a create answered without the new id is not the envelope", async () => {
  const { fetch } = answering({});
  await expect(createRole(connection, { name: "support" }, { fetch })).rejects.toBeInstanceOf(UnexpectedResponseError);
});
