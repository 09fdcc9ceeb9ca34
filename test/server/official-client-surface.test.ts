import { createHash } from "node:crypto";
import { Unkey } from "@unkey/api";
import {
  APIError,
  BadRequestErrorResponse,
  ConflictErrorResponse,
  ForbiddenErrorResponse,
  NotFoundErrorResponse,
} from "@unkey/api/models/errors";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * The real service's official TypeScript client (`@unkey/api`) against a real `npm start` server, for identities,
 * roles and permissions and keys.migrateKeys: each typed answer parses (a response off the client's schema would throw
 * its ResponseValidationError), each change is seen by the next read or verification, and its typed errors come as
 * the real service's.
 */

let server: StartedServer;
let unkey: Unkey;
let apiId: string;

const PERMISSIONS = [
  "api.*.create_api",
  "api.*.read_api",
  "api.*.create_key",
  "api.*.read_key",
  "api.*.verify_key",
  "identity.*.create_identity",
  "identity.*.read_identity",
  "identity.*.update_identity",
  "identity.*.delete_identity",
  "rbac.*.create_permission",
  "rbac.*.read_permission",
  "rbac.*.delete_permission",
  "rbac.*.create_role",
  "rbac.*.read_role",
  "rbac.*.delete_role",
  "rbac.*.add_permission_to_role",
  "rbac.*.remove_permission_from_role",
].join(",");

function clientWith(rootKey: string): Unkey {
  return new Unkey({ rootKey, serverURL: server.url, retryConfig: { strategy: "none" } });
}

beforeAll(async () => {
  server = await startServer();
  unkey = clientWith(await server.admin(["root-key", "create", "--permissions", PERMISSIONS]));
  apiId = (await unkey.apis.createApi({ name: "client-surface" })).data.apiId;
});

afterAll(async () => {
  await server.stop();
});

describe("identities", () => {
  test("create, update and delete, each seen by the next getIdentity and verifyKey; a refusal names the identity's limit", async () => {
    const { identityId } = (
      await unkey.identities.createIdentity({
        externalId: "org_client",
        meta: { plan: "free" },
        ratelimits: [{ name: "requests", limit: 2, duration: 60_000, autoApply: true }],
      })
    ).data;
    const identity = (await unkey.identities.getIdentity({ identity: "org_client" })).data;
    expect(identity).toMatchObject({ id: identityId, externalId: "org_client", meta: { plan: "free" } });
    const limitId = identity.ratelimits?.[0]?.id;
    expect(limitId).toMatch(/^rl_/);

    // Two keys of the identity share its limit: two verifications in all pass, the third is refused naming it.
    const first = (await unkey.keys.createKey({ apiId, externalId: "org_client" })).data;
    const second = (await unkey.keys.createKey({ apiId, externalId: "org_client" })).data;
    expect((await unkey.keys.verifyKey({ key: first.key })).data).toMatchObject({
      valid: true,
      identity: { id: identityId, externalId: "org_client", meta: { plan: "free" } },
    });
    expect((await unkey.keys.verifyKey({ key: second.key })).data.valid).toBe(true);
    const refused = (await unkey.keys.verifyKey({ key: first.key })).data;
    expect(refused.code).toBe("RATE_LIMITED");
    expect(refused.ratelimits).toEqual([
      expect.objectContaining({ id: limitId, name: "requests", limit: 2, exceeded: true, remaining: 0 }),
    ]);

    const updated = (
      await unkey.identities.updateIdentity({
        identity: identityId,
        meta: { plan: "pro" },
        ratelimits: [{ name: "requests", limit: 100, duration: 60_000, autoApply: true }],
      })
    ).data;
    expect(updated).toMatchObject({ id: identityId, meta: { plan: "pro" } });
    expect(updated.ratelimits).toEqual([expect.objectContaining({ name: "requests", limit: 100 })]);
    expect((await unkey.keys.verifyKey({ key: second.key })).data).toMatchObject({
      valid: true,
      identity: { meta: { plan: "pro" } },
      ratelimits: [expect.objectContaining({ name: "requests", limit: 100, exceeded: false })],
    });
    await expect(unkey.identities.createIdentity({ externalId: "org_client" })).rejects.toBeInstanceOf(
      ConflictErrorResponse,
    );

    await unkey.identities.deleteIdentity({ identity: "org_client" });
    await expect(unkey.identities.getIdentity({ identity: identityId })).rejects.toBeInstanceOf(NotFoundErrorResponse);
    // Its keys stay, without it and its limits; an identity made later with its external id is not theirs.
    const { identityId: successor } = (await unkey.identities.createIdentity({ externalId: "org_client" })).data;
    expect(successor).not.toBe(identityId);
    const after = (await unkey.keys.verifyKey({ key: first.key })).data;
    expect(after).toMatchObject({ valid: true, code: "VALID" });
    expect(after.identity).toBeUndefined();
    expect(after.ratelimits ?? []).toEqual([]);
    expect((await unkey.keys.getKey({ keyId: first.keyId })).data.identity).toBeUndefined();
  });
});

describe("roles and permissions", () => {
  test("create, read, set and delete, each seen by the next read and verifyKey", async () => {
    const { permissionId } = (
      await unkey.permissions.createPermission({
        name: "Void invoices",
        slug: "invoices.void",
        description: "Void an issued invoice",
      })
    ).data;
    expect((await unkey.permissions.getPermission({ permission: "invoices.void" })).data).toEqual({
      id: permissionId,
      name: "Void invoices",
      slug: "invoices.void",
      description: "Void an issued invoice",
    });
    await expect(unkey.permissions.createPermission({ name: "again", slug: "Invoices.Void" })).rejects.toBeInstanceOf(
      ConflictErrorResponse,
    );

    const { roleId } = (
      await unkey.permissions.createRole({
        name: "billing-admin",
        description: "Runs billing",
        permissions: ["invoices.void"],
      })
    ).data;
    expect((await unkey.permissions.getRole({ role: "billing-admin" })).data).toMatchObject({
      id: roleId,
      name: "billing-admin",
      description: "Runs billing",
      permissions: [expect.objectContaining({ id: permissionId, slug: "invoices.void" })],
    });
    const key = (await unkey.keys.createKey({ apiId, roles: ["billing-admin"] })).data;
    expect((await unkey.keys.verifyKey({ key: key.key, permissions: "invoices.void" })).data.valid).toBe(true);

    const set = (await unkey.permissions.setRolePermissions({ roleId, permissions: ["invoices.read"] })).data;
    expect(set.map((permission) => permission.slug)).toEqual(["invoices.read"]);
    expect((await unkey.keys.verifyKey({ key: key.key, permissions: "invoices.void" })).data.code).toBe(
      "INSUFFICIENT_PERMISSIONS",
    );
    expect((await unkey.keys.verifyKey({ key: key.key, permissions: "invoices.read" })).data.valid).toBe(true);

    await unkey.permissions.deletePermission({ permission: "invoices.read" });
    await expect(unkey.permissions.getPermission({ permission: "invoices.read" })).rejects.toBeInstanceOf(
      NotFoundErrorResponse,
    );
    expect((await unkey.keys.verifyKey({ key: key.key, permissions: "invoices.read" })).data.code).toBe(
      "INSUFFICIENT_PERMISSIONS",
    );

    await unkey.permissions.deleteRole({ role: roleId });
    await expect(unkey.permissions.getRole({ role: roleId })).rejects.toBeInstanceOf(NotFoundErrorResponse);
    expect((await unkey.keys.getKey({ keyId: key.keyId })).data.roles).toBeUndefined();
    await unkey.permissions.deletePermission({ permission: permissionId });
    await expect(unkey.permissions.getPermission({ permission: permissionId })).rejects.toBeInstanceOf(
      NotFoundErrorResponse,
    );
  });

  test("a root key without the permission gets the typed 403; a bad body the typed 400", async () => {
    const reader = clientWith(await server.admin(["root-key", "create", "--permissions", "rbac.*.read_role"]));
    await expect(reader.permissions.createRole({ name: "nope" })).rejects.toBeInstanceOf(ForbiddenErrorResponse);
    // The client types deleteIdentity's errors only as application/problem+json, which the real service sends only to
    // an Accept header asking for it, and the client asks for application/json: a plain APIError there as here.
    const refused = reader.identities.deleteIdentity({ identity: "org_client" });
    await expect(refused).rejects.toBeInstanceOf(APIError);
    await expect(refused).rejects.toMatchObject({ statusCode: 403 });
    await expect(unkey.permissions.createPermission({ name: "bad", slug: "has spaces" })).rejects.toBeInstanceOf(
      BadRequestErrorResponse,
    );
  });
});

describe("keys.migrateKeys", () => {
  /** A key of Seam's prefixed-api-key form, and the hex SHA-256 of its long token that its old system stored. */
  function prefixedKey(): { key: string; hash: string } {
    const token = (bytes: number) => createHash("sha256").update(String(Math.random())).digest("hex").slice(0, bytes);
    const longToken = token(24);
    return { key: `acme_${token(8)}_${longToken}`, hash: createHash("sha256").update(longToken).digest("hex") };
  }

  test("imported keys keep their settings, a hash is imported once, and they verify from their migration's first verification on", async () => {
    const migrationId = await server.admin([
      "migrations",
      "create",
      "--algorithm",
      "github.com/seamapi/prefixed-api-key",
    ]);
    const old = prefixedKey();
    const result = (
      await unkey.keys.migrateKeys({
        migrationId,
        apiId,
        keys: [
          {
            hash: old.hash,
            name: "imported",
            externalId: "org_migrated",
            permissions: ["reports.read"],
            credits: { remaining: 10 },
          },
        ],
      })
    ).data;
    expect(result.failed).toEqual([]);
    const keyId = result.migrated[0]?.keyId ?? "";
    expect(result.migrated).toEqual([{ hash: old.hash, keyId }]);
    expect((await unkey.keys.getKey({ keyId })).data).toMatchObject({
      name: "imported",
      identity: { externalId: "org_migrated" },
      permissions: ["reports.read"],
      credits: { remaining: 10 },
    });

    // Before its first verification the old hash is the key's: importing it again is refused in `failed`.
    const again = (await unkey.keys.migrateKeys({ migrationId, apiId, keys: [{ hash: old.hash }] })).data;
    expect(again).toEqual({ migrated: [], failed: [old.hash] });

    expect((await unkey.keys.verifyKey({ key: old.key })).data.code).toBe("NOT_FOUND");
    expect((await unkey.keys.verifyKey({ key: old.key, migrationId })).data).toMatchObject({
      valid: true,
      keyId,
      credits: 9,
    });
    expect((await unkey.keys.verifyKey({ key: old.key, permissions: "reports.read" })).data).toMatchObject({
      valid: true,
      keyId,
    });
    expect((await unkey.keys.getKey({ keyId })).data.start).toBe(old.key.slice(0, 9));
  });

  test("a sha256 migration's keys verify at once; an unknown migration is the typed 404", async () => {
    const migrationId = await server.admin(["migrations", "create", "--algorithm", "sha256"]);
    const secret = "sk_old_system_4f6b1d2c9a";
    const hash = createHash("sha256").update(secret).digest("base64");
    const { migrated } = (await unkey.keys.migrateKeys({ migrationId, apiId, keys: [{ hash }] })).data;
    expect((await unkey.keys.verifyKey({ key: secret })).data).toMatchObject({
      valid: true,
      keyId: migrated[0]?.keyId,
    });
    await expect(
      unkey.keys.migrateKeys({ migrationId: "mig_unknown", apiId, keys: [{ hash: "abcdef" }] }),
    ).rejects.toBeInstanceOf(NotFoundErrorResponse);
  });
});

describe("the demo workspace of the first start", () => {
  test("Acme's keys share its two limits; roles carry described permissions; the demo root key may change them", async () => {
    if (server.rootKey === undefined) throw new Error("a first start prints the demo root key");
    const demo = clientWith(server.rootKey);

    const acme = (await demo.identities.getIdentity({ identity: "org_acme" })).data;
    expect(acme.ratelimits?.map((limit) => [limit.name, limit.limit, limit.duration])).toEqual([
      ["requests", 100, 60_000],
      ["tokens", 50_000, 86_400_000],
    ]);
    const demoApiId = /^Demo API id \(Create key asks for it\): (\S+)$/m.exec(server.output())?.[1] ?? "";
    const acmeKeys = (await demo.apis.listKeys({ apiId: demoApiId, externalId: "org_acme" })).result.data;
    expect(acmeKeys.map((key) => key.name).sort()).toEqual(["Acme Corp integration", "Edge functions"]);

    const editor = (await demo.permissions.getRole({ role: "editor" })).data;
    expect(editor).toMatchObject({ name: "editor", description: "Writes and publishes documents" });
    expect(editor.permissions?.map((permission) => [permission.slug, permission.name])).toEqual([
      ["documents.read", "Read documents"],
      ["documents.write", "Write documents"],
    ]);

    // The next pages' changes are allowed: a role made and removed, an identity updated.
    const { roleId } = (await demo.permissions.createRole({ name: "auditor", permissions: ["documents.read"] })).data;
    await demo.permissions.deleteRole({ role: roleId });
    const updated = (await demo.identities.updateIdentity({ identity: "org_acme", meta: { plan: "enterprise" } })).data;
    expect(updated.meta).toEqual({ plan: "enterprise" });
  });
});
