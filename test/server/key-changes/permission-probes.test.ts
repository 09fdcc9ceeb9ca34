import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRole } from "../../../server/db/rbac";
import { startInProcess, type InProcessServer } from "../in-process";
import { call, createKey, dataOf, errorOf, getKey } from "./support";

/**
 * The requests the dashboard sends to learn a root key's permissions before a form (src/features/key-actions/api/
 * probes.ts): each must reach the permission check, then be refused for a reason that changes nothing, in the
 * order of the real service's handlers (the key or API is looked up first, then the permission, then the rule).
 */

let server: InProcessServer;
let owner: string;
let apiId: string;
let otherApiId: string;

const CREATE_PROBE = {
  name: "probe",
  enabled: false,
  credits: { remaining: null, refill: { interval: "daily", amount: 1 } },
};

function keyCount(): number {
  const row = server.admin.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM keys").get();
  return row?.n ?? 0;
}

beforeAll(() => {
  server = startInProcess();
  owner = server.admin.createRootKey({
    permissions: ["api.*.create_key", "api.*.read_key", "api.*.update_key", "rbac.*.add_permission_to_key"],
  }).secret;
  apiId = server.admin.createApi("probes");
  otherApiId = server.admin.createApi("probes-other");
  createRole(server.admin.db, server.admin.workspaceId, "probe-reader", []);
});

afterAll(() => server.close());

describe("createKey with a refill but no credits.remaining", () => {
  test("is refused after the create_key check: 400 with it, the masked 404 without it, and no key either way", async () => {
    const before = keyCount();
    const readOnly = server.admin.createRootKey({ permissions: ["api.*.read_key"] }).secret;
    const oneApi = server.admin.createRootKey({ permissions: [`api.${apiId}.create_key`] }).secret;

    expect(errorOf(await call(server, "keys.createKey", owner, { apiId, ...CREATE_PROBE }))).toMatchObject({
      status: 400,
      code: "err:svc:application:invalid_input",
      detail: "`credits.remaining` must be provided when `credits.refill` is set.",
    });
    expect(errorOf(await call(server, "keys.createKey", readOnly, { apiId, ...CREATE_PROBE }))).toMatchObject({
      status: 404,
      code: "err:svc:data:api_not_found",
      detail: "The specified API was not found.",
    });
    // A root key limited to one API: allowed there, masked as not found in the other.
    expect(errorOf(await call(server, "keys.createKey", oneApi, { apiId, ...CREATE_PROBE })).status).toBe(400);
    expect(errorOf(await call(server, "keys.createKey", oneApi, { apiId: otherApiId, ...CREATE_PROBE })).status).toBe(
      404,
    );
    expect(keyCount()).toBe(before);
  });
});

describe("updateKey with a monthly refill but no refillDay", () => {
  test("is refused after the update_key check, before any write: 400 with it, 403 without it, and the key stays as it was", async () => {
    const created = await createKey(server, owner, { apiId, name: "Probed", credits: { remaining: 5 } });
    server.admin.db.prepare("UPDATE keys SET updated_at = 1 WHERE id = ?").run(created.keyId);
    const before = await getKey(server, owner, created.keyId);
    const readOnly = server.admin.createRootKey({ permissions: ["api.*.read_key"] }).secret;
    const probe = { keyId: created.keyId, credits: { refill: { interval: "monthly", amount: 1 } } };

    expect(errorOf(await call(server, "keys.updateKey", owner, probe))).toMatchObject({
      status: 400,
      code: "err:svc:application:invalid_input",
      detail: "`refillDay` must be provided when the refill interval is `monthly`.",
    });
    expect(errorOf(await call(server, "keys.updateKey", readOnly, probe))).toMatchObject({
      status: 403,
      detail: expect.stringContaining(`api.${apiId}.update_key`) as unknown,
    });
    expect(errorOf(await call(server, "keys.updateKey", readOnly, { ...probe, keyId: "key_missing123" })).status).toBe(
      404,
    );
    expect(await getKey(server, owner, created.keyId)).toEqual(before);
  });
});

describe("the rbac probes ask for a permission or role no workspace has", () => {
  test("removePermissions: 403 without remove_permission_from_key, 404 permission_not_found with it; a missing key is 404 first", async () => {
    const created = await createKey(server, owner, { apiId, permissions: ["documents.read"] });
    const remover = server.admin.createRootKey({
      permissions: ["api.*.update_key", "rbac.*.remove_permission_from_key"],
    }).secret;
    const absent = { keyId: created.keyId, permissions: ["keyscope.probe.absent"] };

    expect(errorOf(await call(server, "keys.removePermissions", owner, absent))).toMatchObject({
      status: 403,
      detail: expect.stringContaining("rbac.*.remove_permission_from_key") as unknown,
    });
    expect(errorOf(await call(server, "keys.removePermissions", remover, absent))).toMatchObject({
      status: 404,
      code: "err:svc:data:permission_not_found",
    });
    expect(
      errorOf(await call(server, "keys.removePermissions", owner, { ...absent, keyId: "key_missing123" })).status,
    ).toBe(404);
    expect((await getKey(server, owner, created.keyId)).permissions).toEqual(["documents.read"]);
  });

  test("addRoles: 403 without add_role_to_key, 404 role_not_found with it, and the key's roles stay", async () => {
    const created = await createKey(server, owner, { apiId, roles: ["probe-reader"] });
    const roleAdder = server.admin.createRootKey({
      permissions: ["api.*.update_key", "rbac.*.add_role_to_key"],
    }).secret;
    const absent = { keyId: created.keyId, roles: ["keyscope.probe.absent"] };

    expect(errorOf(await call(server, "keys.addRoles", owner, absent))).toMatchObject({
      status: 403,
      detail: expect.stringContaining("rbac.*.add_role_to_key") as unknown,
    });
    expect(errorOf(await call(server, "keys.addRoles", roleAdder, absent))).toMatchObject({
      status: 404,
      code: "err:svc:data:role_not_found",
    });
    expect((await getKey(server, owner, created.keyId)).roles).toEqual(["probe-reader"]);
  });

  test("addPermissions of a permission the key holds as its own changes nothing, not even updatedAt (the real service inserts nothing)", async () => {
    const created = await createKey(server, owner, { apiId, permissions: ["documents.read"] });
    // A mark no write of this request could leave (it would set the time of now).
    server.admin.db.prepare("UPDATE keys SET updated_at = 1 WHERE id = ?").run(created.keyId);
    const before = await getKey(server, owner, created.keyId);
    dataOf(await call(server, "keys.addPermissions", owner, { keyId: created.keyId, permissions: ["documents.read"] }));
    expect(await getKey(server, owner, created.keyId)).toEqual(before);
  });
});

describe("deleteKey has no probe", () => {
  test("a missing key answers 404 before the permission check, so only a real delete meets the check", async () => {
    const readOnly = server.admin.createRootKey({ permissions: ["api.*.read_key"] }).secret;
    expect(errorOf(await call(server, "keys.deleteKey", readOnly, { keyId: "key_missing123" }))).toMatchObject({
      status: 404,
      code: "err:svc:data:key_not_found",
    });
  });
});
