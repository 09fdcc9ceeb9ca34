import { Unkey } from "@unkey/api";
import { BadRequestErrorResponse, ForbiddenErrorResponse, NotFoundErrorResponse } from "@unkey/api/models/errors";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * The official client (`@unkey/api`) changes keys against a real `npm start` server: it creates, updates, sets
 * credits on, rerolls, changes the permissions and roles of, and deletes a key, and each change is what the next
 * verifyKey, getKey and apis.listKeys say. Every answer passes the client's own response schemas (a mismatch
 * would throw its ResponseValidationError).
 */

let server: StartedServer;
let unkey: Unkey;
let apiId: string;

const PERMISSIONS = [
  "api.*.create_api",
  "api.*.read_api",
  "api.*.delete_api",
  "api.*.create_key",
  "api.*.read_key",
  "api.*.update_key",
  "api.*.delete_key",
  "api.*.verify_key",
  "rbac.*.add_permission_to_key",
  "rbac.*.remove_permission_from_key",
  "rbac.*.add_role_to_key",
  "rbac.*.create_permission",
  "rbac.*.read_permission",
  "rbac.*.read_role",
  "identity.*.read_identity",
].join(",");

function clientWith(rootKey: string): Unkey {
  return new Unkey({ rootKey, serverURL: server.url, retryConfig: { strategy: "none" } });
}

async function listedIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of await unkey.apis.listKeys({ apiId, limit: 100 }))
    ids.push(...page.result.data.map((key) => key.keyId));
  return ids;
}

beforeAll(async () => {
  server = await startServer();
  unkey = clientWith(await server.admin(["root-key", "create", "--permissions", PERMISSIONS]));
  await server.admin(["roles", "create", "--name", "billing", "--permissions", "invoices.read"]);
  apiId = (await unkey.apis.createApi({ name: "client-changes" })).data.apiId;
});

afterAll(async () => {
  await server.stop();
});

test("create, update, credits, reroll, permissions, roles and delete: each seen at once by verifyKey, getKey and apis.listKeys", async () => {
  const created = (
    await unkey.keys.createKey({
      apiId,
      prefix: "cli",
      name: "client key",
      externalId: "client_user",
      meta: { plan: "free" },
      credits: { remaining: 3, refill: { interval: "daily", amount: 3 } },
      ratelimits: [{ name: "requests", limit: 100, duration: 60_000, autoApply: true }],
    })
  ).data;
  expect(created.key).toMatch(/^cli_/);
  expect(await listedIds()).toContain(created.keyId);
  expect((await unkey.keys.verifyKey({ key: created.key })).data).toMatchObject({ valid: true, credits: 2 });

  await unkey.keys.updateKey({ keyId: created.keyId, name: "renamed", meta: { plan: "pro" }, enabled: false });
  expect((await unkey.keys.getKey({ keyId: created.keyId })).data).toMatchObject({
    name: "renamed",
    meta: { plan: "pro" },
    enabled: false,
  });
  expect((await unkey.keys.verifyKey({ key: created.key })).data.code).toBe("DISABLED");
  await unkey.keys.updateKey({ keyId: created.keyId, enabled: true, meta: null });
  expect((await unkey.keys.getKey({ keyId: created.keyId })).data.meta).toBeUndefined();

  expect((await unkey.keys.updateCredits({ keyId: created.keyId, operation: "set", value: 10 })).data).toMatchObject({
    remaining: 10,
  });
  expect((await unkey.keys.verifyKey({ key: created.key })).data).toMatchObject({ valid: true, credits: 9 });
  expect(
    (await unkey.keys.updateCredits({ keyId: created.keyId, operation: "decrement", value: 100 })).data.remaining,
  ).toBe(0);
  expect((await unkey.keys.verifyKey({ key: created.key })).data.code).toBe("USAGE_EXCEEDED");
  expect(
    (await unkey.keys.updateCredits({ keyId: created.keyId, operation: "set", value: null })).data.remaining,
  ).toBeNull();
  expect((await unkey.keys.getKey({ keyId: created.keyId })).data.credits).toBeUndefined();

  const added = (
    await unkey.keys.addPermissions({ keyId: created.keyId, permissions: ["documents.read", "documents.write"] })
  ).data;
  expect(added.map((permission) => permission.slug)).toEqual(["documents.read", "documents.write"]);
  expect(
    (await unkey.keys.removePermissions({ keyId: created.keyId, permissions: ["documents.write"] })).data.map(
      (p) => p.slug,
    ),
  ).toEqual(["documents.read"]);
  expect((await unkey.keys.verifyKey({ key: created.key, permissions: "documents.write" })).data.code).toBe(
    "INSUFFICIENT_PERMISSIONS",
  );
  await unkey.keys.setPermissions({ keyId: created.keyId, permissions: ["documents.write"] });
  expect(
    (await unkey.keys.addRoles({ keyId: created.keyId, roles: ["billing"] })).data.map((role) => role.name),
  ).toEqual(["billing"]);
  expect(
    (await unkey.keys.verifyKey({ key: created.key, permissions: "documents.write AND invoices.read" })).data.valid,
  ).toBe(true);
  expect((await unkey.keys.getKey({ keyId: created.keyId })).data).toMatchObject({
    permissions: ["documents.write", "invoices.read"],
    roles: ["billing"],
  });
  await unkey.keys.setRoles({ keyId: created.keyId, roles: [] });
  await unkey.keys.removeRoles({ keyId: created.keyId, roles: ["billing"] });
  expect((await unkey.keys.getKey({ keyId: created.keyId })).data.roles).toBeUndefined();

  const rolled = (await unkey.keys.rerollKey({ keyId: created.keyId, expiration: 0 })).data;
  expect((await unkey.keys.verifyKey({ key: created.key })).data.code).toBe("EXPIRED");
  expect((await unkey.keys.verifyKey({ key: rolled.key })).data).toMatchObject({ valid: true, name: "renamed" });
  expect((await unkey.keys.getKey({ keyId: rolled.keyId })).data).toMatchObject({
    name: "renamed",
    permissions: ["documents.write"],
    identity: { externalId: "client_user" },
  });
  expect(await listedIds()).toEqual(expect.arrayContaining([created.keyId, rolled.keyId]));

  await unkey.keys.deleteKey({ keyId: rolled.keyId });
  await unkey.keys.deleteKey({ keyId: created.keyId, permanent: true });
  expect((await unkey.keys.verifyKey({ key: rolled.key })).data.code).toBe("NOT_FOUND");
  await expect(unkey.keys.getKey({ keyId: rolled.keyId })).rejects.toBeInstanceOf(NotFoundErrorResponse);
  expect(await listedIds()).not.toEqual(expect.arrayContaining([created.keyId]));
  expect(await listedIds()).not.toContain(rolled.keyId);
});

test("the reads a dashboard offers choices from, and the API operations, parse as the client's typed results", async () => {
  expect((await unkey.apis.getApi({ apiId })).data).toEqual({ id: apiId, name: "client-changes" });
  const permissions: string[] = [];
  for await (const page of await unkey.permissions.listPermissions({ limit: 2 }))
    permissions.push(...page.result.data.map((permission) => permission.slug));
  expect(permissions).toEqual(expect.arrayContaining(["documents.read", "invoices.read"]));
  const roles = (await unkey.permissions.listRoles({})).result.data;
  expect(roles.find((role) => role.name === "billing")?.permissions?.map((permission) => permission.slug)).toEqual([
    "invoices.read",
  ]);
  const identities = (await unkey.identities.listIdentities({})).result.data;
  const identity = identities.find((entry) => entry.externalId === "client_user");
  expect(identity).toBeDefined();
  expect((await unkey.identities.getIdentity({ identity: "client_user" })).data.id).toBe(identity?.id);

  const doomed = (await unkey.apis.createApi({ name: "doomed" })).data.apiId;
  await unkey.apis.deleteApi({ apiId: doomed });
  await expect(unkey.apis.getApi({ apiId: doomed })).rejects.toBeInstanceOf(NotFoundErrorResponse);
});

test("the client's typed errors: 400 with errors[], 403 without the permission, 404 masking a missing create_key", async () => {
  await expect(unkey.keys.updateCredits({ keyId: "key_nothere1", operation: "increment" })).rejects.toBeInstanceOf(
    NotFoundErrorResponse,
  );
  const created = (await unkey.keys.createKey({ apiId, credits: { remaining: null } })).data;
  await expect(
    unkey.keys.updateCredits({ keyId: created.keyId, operation: "increment", value: 1 }),
  ).rejects.toBeInstanceOf(BadRequestErrorResponse);
  const reader = clientWith(await server.admin(["root-key", "create", "--permissions", "api.*.read_key"]));
  await expect(reader.keys.updateKey({ keyId: created.keyId, name: "nope" })).rejects.toBeInstanceOf(
    ForbiddenErrorResponse,
  );
  await expect(reader.keys.createKey({ apiId })).rejects.toBeInstanceOf(NotFoundErrorResponse);
});
