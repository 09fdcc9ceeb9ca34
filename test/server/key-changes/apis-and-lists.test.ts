import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createIdentity, deleteIdentity } from "../../../server/db/identities";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { call, createKey, dataOf, errorOf, verify } from "./support";

let server: InProcessServer;
let rootKey: string;

const Page = v.object({
  data: v.array(v.object({ id: v.string() })),
  pagination: v.object({ hasMore: v.boolean(), cursor: v.optional(v.string()) }),
});

/** Every item of a list operation, page by page at `limit`. */
async function listAll(
  operation: string,
  key: string,
  body: Record<string, unknown>,
  limit: number,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call(server, operation, key, { ...body, limit, ...(cursor !== undefined && { cursor }) });
    expect(answer.status, answer.text).toBe(200);
    const page = v.parse(Page, answer.json);
    items.push(...(answer.json as { data: unknown[] }).data);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    cursor = page.pagination.hasMore ? page.pagination.cursor : undefined;
  } while (cursor !== undefined);
  return items;
}

beforeAll(() => {
  server = startInProcess();
  rootKey = server.admin.createRootKey({
    permissions: [
      "api.*.create_api",
      "api.*.read_api",
      "api.*.delete_api",
      "api.*.create_key",
      "api.*.read_key",
      "api.*.verify_key",
      "rbac.*.read_permission",
      "rbac.*.read_role",
      "identity.*.read_identity",
    ],
  }).secret;
});

afterAll(() => server.close());

describe("apis.createApi, getApi, deleteApi", () => {
  test("an API made is read back; deleted, it and its keys are found by nothing", async () => {
    const { apiId } = v.parse(
      v.object({ apiId: v.pipe(v.string(), v.regex(/^api_/)) }),
      dataOf(await call(server, "apis.createApi", rootKey, { name: "payments" })),
    );
    expect(dataOf(await call(server, "apis.getApi", rootKey, { apiId }))).toEqual({ id: apiId, name: "payments" });
    const key = await createKey(server, rootKey, { apiId });
    expect(await verify(server, rootKey, key.key)).toMatchObject({ valid: true });

    expect(dataOf(await call(server, "apis.deleteApi", rootKey, { apiId }))).toEqual({});
    expect(errorOf(await call(server, "apis.getApi", rootKey, { apiId }))).toMatchObject({
      status: 404,
      code: "err:svc:data:api_not_found",
      detail: "The requested API does not exist or has been deleted.",
    });
    expect(errorOf(await call(server, "apis.listKeys", rootKey, { apiId })).status).toBe(404);
    expect(await verify(server, rootKey, key.key)).toMatchObject({ valid: false, code: "NOT_FOUND" });
    expect(errorOf(await call(server, "keys.createKey", rootKey, { apiId })).status).toBe(404);
    expect(errorOf(await call(server, "apis.deleteApi", rootKey, { apiId })).status).toBe(404);
  });

  test("each needs its permission (403, checked before the API is looked up); one API's read_api is enough for it", async () => {
    const apiId = server.admin.createApi("guarded");
    const none = server.admin.createRootKey({ permissions: ["api.*.read_key"] }).secret;
    expect(errorOf(await call(server, "apis.createApi", none, { name: "nope" })).detail).toContain("api.*.create_api");
    expect(errorOf(await call(server, "apis.getApi", none, { apiId })).status).toBe(403);
    expect(errorOf(await call(server, "apis.getApi", none, { apiId: "api_nothere1" })).status).toBe(403);
    expect(errorOf(await call(server, "apis.deleteApi", none, { apiId })).status).toBe(403);
    const scoped = server.admin.createRootKey({ permissions: [`api.${apiId}.read_api`] }).secret;
    expect((await call(server, "apis.getApi", scoped, { apiId })).status).toBe(200);
    expect(dataOf(await call(server, "apis.getApi", rootKey, { apiId }))).toMatchObject({ name: "guarded" });
  });

  test("bad input is 400; no root key 401", async () => {
    for (const [operation, body] of [
      ["apis.createApi", {}],
      ["apis.createApi", { name: "ab" }],
      ["apis.getApi", { apiId: "api_1" }],
      ["apis.deleteApi", { apiId: 5 }],
    ] as const) {
      expect(errorOf(await call(server, operation, rootKey, body)).status, `${operation} ${JSON.stringify(body)}`).toBe(
        400,
      );
    }
    expect(errorOf(await call(server, "apis.createApi", undefined, { name: "payments" })).status).toBe(401);
  });
});

describe("permissions.listPermissions and listRoles", () => {
  test("every permission of the workspace once, paged, searchable; roles with their permissions", async () => {
    createRole(server.admin.db, server.admin.workspaceId, "auditor", ["audit.read", "audit.export"]);
    const apiId = server.admin.createApi("perms");
    await createKey(server, rootKey, { apiId, permissions: ["documents.read", "documents.write"] });

    const permissions = v.parse(
      v.array(
        v.strictObject({ id: v.string(), name: v.string(), slug: v.string(), description: v.optional(v.string()) }),
      ),
      await listAll("permissions.listPermissions", rootKey, {}, 2),
    );
    const slugs = permissions.map((permission) => permission.slug);
    expect(slugs).toEqual(expect.arrayContaining(["audit.read", "audit.export", "documents.read", "documents.write"]));
    expect(new Set(slugs).size).toBe(slugs.length);
    const found = v.parse(
      v.array(v.object({ slug: v.string() })),
      await listAll("permissions.listPermissions", rootKey, { search: "audit" }, 100),
    );
    expect(found.map((permission) => permission.slug).sort()).toEqual(["audit.export", "audit.read"]);

    const roles = v.parse(
      v.array(v.object({ name: v.string(), permissions: v.optional(v.array(v.object({ slug: v.string() }))) })),
      await listAll("permissions.listRoles", rootKey, {}, 1),
    );
    expect(
      roles
        .find((role) => role.name === "auditor")
        ?.permissions?.map((permission) => permission.slug)
        .sort(),
    ).toEqual(["audit.export", "audit.read"]);
  });

  test("each needs its rbac read permission; bad input is 400", async () => {
    const none = server.admin.createRootKey({ permissions: ["api.*.read_key"] }).secret;
    expect(errorOf(await call(server, "permissions.listPermissions", none, {})).detail).toContain(
      "rbac.*.read_permission",
    );
    expect(errorOf(await call(server, "permissions.listRoles", none, {})).detail).toContain("rbac.*.read_role");
    for (const body of [{ limit: 0 }, { limit: 101 }, { cursor: 5 }, { other: 1 }]) {
      expect(
        errorOf(await call(server, "permissions.listPermissions", rootKey, body)).status,
        JSON.stringify(body),
      ).toBe(400);
      expect(errorOf(await call(server, "permissions.listRoles", rootKey, body)).status, JSON.stringify(body)).toBe(
        400,
      );
    }
  });
});

describe("identities.listIdentities and getIdentity", () => {
  test("identities with their meta and rate limits, by id or external id", async () => {
    const id = createIdentity(server.admin.db, {
      workspaceId: server.admin.workspaceId,
      externalId: "org_acme9",
      meta: { tier: "gold" },
      ratelimits: [{ name: "requests", limit: 100, durationMs: 60_000, autoApply: true }],
    });
    const expected = {
      id,
      externalId: "org_acme9",
      meta: { tier: "gold" },
      ratelimits: [
        {
          id: expect.stringMatching(/^rl_/) as string,
          name: "requests",
          limit: 100,
          duration: 60_000,
          autoApply: true,
        },
      ],
    };
    expect(dataOf(await call(server, "identities.getIdentity", rootKey, { identity: "org_acme9" }))).toEqual(expected);
    expect(dataOf(await call(server, "identities.getIdentity", rootKey, { identity: id }))).toEqual(expected);
    expect(await listAll("identities.listIdentities", rootKey, { search: "acme9" }, 100)).toEqual([expected]);
    expect(errorOf(await call(server, "identities.getIdentity", rootKey, { identity: "nobody" }))).toMatchObject({
      status: 404,
      code: "err:svc:data:identity_not_found",
    });
  });

  test("a deleted identity is found by nothing: its keys lose it and its rate limits, and a new key of its external id gets a new one", async () => {
    const workspaceId = server.admin.workspaceId;
    // The whole answer: the support's verify() keeps only valid, code, credits and permissions.
    const verified = async (key: string) => dataOf(await call(server, "keys.verifyKey", rootKey, { key }));
    const apiId = server.admin.createApi("identities");
    const id = createIdentity(server.admin.db, {
      workspaceId,
      externalId: "org_gone9",
      ratelimits: [{ name: "requests", limit: 1, durationMs: 60_000, autoApply: true }],
    });
    const old = await createKey(server, rootKey, { apiId, externalId: "org_gone9" });
    expect(await verified(old.key)).toMatchObject({ valid: true, identity: { id } });
    expect(await verified(old.key)).toMatchObject({ valid: false, code: "RATE_LIMITED" });

    expect(deleteIdentity(server.admin.db, workspaceId, "org_gone9")).toBe(true);
    expect(errorOf(await call(server, "identities.getIdentity", rootKey, { identity: id })).status).toBe(404);
    expect(await listAll("identities.listIdentities", rootKey, { search: "gone9" }, 100)).toEqual([]);
    const orphan = await verified(old.key);
    expect(orphan).toMatchObject({ valid: true });
    expect(orphan).not.toHaveProperty("identity");

    const fresh = await createKey(server, rootKey, { apiId, externalId: "org_gone9" });
    const [listed] = await listAll("identities.listIdentities", rootKey, { search: "gone9" }, 100);
    expect(listed).toMatchObject({ externalId: "org_gone9" });
    expect(listed).not.toMatchObject({ id });
    // As on the real service: the new key belongs to the new identity; the old key stays without one (its link went
    // with the deleted identity), so the new identity's limits do not reach it.
    expect(await verified(fresh.key)).toMatchObject({ valid: true, identity: { externalId: "org_gone9" } });
    expect(await verified(old.key)).not.toHaveProperty("identity");
  });

  test("read_identity on every identity listed, or on this one; bad input 400", async () => {
    const id = createIdentity(server.admin.db, { workspaceId: server.admin.workspaceId, externalId: "org_solo9" });
    const none = server.admin.createRootKey({ permissions: ["api.*.read_key"] }).secret;
    expect(errorOf(await call(server, "identities.listIdentities", none, {})).status).toBe(403);
    expect(errorOf(await call(server, "identities.getIdentity", none, { identity: id })).status).toBe(403);
    const one = server.admin.createRootKey({ permissions: [`identity.${id}.read_identity`] }).secret;
    expect((await call(server, "identities.getIdentity", one, { identity: "org_solo9" })).status).toBe(200);
    for (const body of [{}, { identity: "" }, { identity: 1 }]) {
      expect(errorOf(await call(server, "identities.getIdentity", rootKey, body)).status, JSON.stringify(body)).toBe(
        400,
      );
    }
  });
});
