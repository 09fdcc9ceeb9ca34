import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { deleteApi } from "../../../server/db/apis";
import { createKeyMigration } from "../../../server/db/key-migrations";
import { newId } from "../../../server/db/ids";
import { findLiveKey } from "../../../server/db/keys";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, prefixedApiKey, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.migrateKeys (svc/api/routes/v2_keys_migrate_keys/*_test.go), replayed over
 * HTTP, each named as its real t.Run. The bodies are sent as the real tests' Go structs encode them (a required string
 * left unset is "", an unset list null). What they read from their database (the key's hash, start, identity, roles,
 * permissions, rate limits) is read here through the admin's connection. Served differently on purpose:
 * docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let apiId: string;
let creator: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  apiId = h.api();
  creator = h.rootKey(["api.*.create_key"]);
});

afterAll(() => server.close());

/** The real harness's uid.New(prefix). */
const uid = (prefix: string) => `${prefix}_${newId("req").slice(4)}`;

const migrate = (body: unknown, key = creator) => h.call("keys.migrateKeys", body, { key });
const Result = v.strictObject({
  migrated: v.array(v.strictObject({ hash: v.string(), keyId: v.string() })),
  failed: v.array(v.string()),
});
const migrated = async (body: unknown) => v.parse(Result, dataOf(await migrate(body)));

/** A migration of the workspace, as the real tests insert one (InsertKeyMigration). */
const newMigration = (
  algorithm: "sha256" | "github.com/seamapi/prefixed-api-key" = "github.com/seamapi/prefixed-api-key",
) => createKeyMigration(server.admin.db, h.workspaceId, algorithm);

function storedKey(keyId: string) {
  const key = findLiveKey(server.admin.db, h.workspaceId, keyId);
  const row = server.admin.db
    .prepare<[string], { hash: string; start: string; pending: string | null }>(
      "SELECT hash, start, pending_migration_id AS pending FROM keys WHERE id = ?",
    )
    .get(keyId);
  const identity = server.admin.db
    .prepare<[string, string], string>(
      "SELECT id FROM identities WHERE workspace_id = ? AND external_id = ? AND deleted_at IS NULL",
    )
    .pluck()
    .get(h.workspaceId, key?.externalId ?? "");
  const ratelimits = server.admin.db
    .prepare<[string], number>("SELECT count(*) FROM key_ratelimits WHERE key_id = ?")
    .pluck()
    .get(keyId);
  const rolePermissions = server.admin.db
    .prepare<[string, string], string>(
      `SELECT p.value FROM roles r, json_each(r.permissions) p
        WHERE r.workspace_id = ? AND r.name IN (SELECT value FROM json_each((SELECT roles FROM keys WHERE id = ?)))`,
    )
    .pluck()
    .all(h.workspaceId, keyId);
  return { key, ...row, identity, ratelimits, rolePermissions };
}

const count = (sql: string, ...values: string[]) =>
  server.admin.db
    .prepare<string[], number>(sql)
    .pluck()
    .get(...values);

describe("200", () => {
  let migrationId: string;
  const generated = prefixedApiKey("unkeyed");
  const keyToMigrate = {
    hash: generated.longTokenHash,
    credits: { remaining: null },
    enabled: false,
    externalId: "ext_123",
    meta: { key: "value" },
    name: "Migration-Key",
    permissions: ["test"],
    ratelimits: [{ autoApply: true, duration: 3_600_000, limit: 100, name: "default" }],
    roles: ["admin"],
  };

  beforeAll(() => {
    migrationId = newMigration();
  });

  test("basic migration", async () => {
    const data = await migrated({ apiId, migrationId, keys: [keyToMigrate] });
    expect(data.failed).toEqual([]);
    expect(data.migrated[0]?.hash).toBe(generated.longTokenHash);
    const stored = storedKey(data.migrated[0]?.keyId ?? "");
    expect(stored.key?.id).toBe(data.migrated[0]?.keyId);
    expect(stored.hash).toBe(generated.longTokenHash);
    expect(stored.start).toBe("");
    expect(stored.key?.enabled).toBe(false);
    expect(stored.identity).toMatch(/^id_/);
    expect(stored.key?.name).not.toBe("");
    expect(stored.key?.meta).not.toBeNull();
    expect(stored.key?.permissions).toHaveLength(1);
    expect(stored.key?.roles).toHaveLength(1);
    expect(stored.rolePermissions).toHaveLength(0);
    expect(stored.ratelimits).toBe(1);
  });

  test("Finds the correct ids and doesn't double insert", async () => {
    const other = prefixedApiKey("unkeyed");
    const identityId = count(
      "SELECT id FROM identities WHERE workspace_id = ? AND external_id = 'ext_123'",
      h.workspaceId,
    );
    expect(identityId).toBeDefined();
    expect(count("SELECT count(*) FROM permissions WHERE workspace_id = ? AND slug = 'test'", h.workspaceId)).toBe(1);
    expect(count("SELECT count(*) FROM roles WHERE workspace_id = ? AND name = 'admin'", h.workspaceId)).toBe(1);

    const data = await migrated({
      apiId,
      migrationId,
      keys: [{ ...keyToMigrate, hash: other.longTokenHash, name: "Migration-Key-2" }],
    });
    expect(data.failed).toEqual([]);
    expect(data.migrated[0]?.hash).toBe(other.longTokenHash);
    const stored = storedKey(data.migrated[0]?.keyId ?? "");
    expect(stored.identity).toBe(identityId);
    expect(stored.key?.externalId).toBe("ext_123");
    expect(
      count("SELECT count(*) FROM identities WHERE workspace_id = ? AND external_id = 'ext_123'", h.workspaceId),
    ).toBe(1);
    expect(count("SELECT count(*) FROM permissions WHERE workspace_id = ? AND slug = 'test'", h.workspaceId)).toBe(1);
    expect(count("SELECT count(*) FROM roles WHERE workspace_id = ? AND name = 'admin'", h.workspaceId)).toBe(1);
    expect(stored.key?.permissions).toEqual(["test"]);
    expect(stored.key?.roles).toEqual(["admin"]);
  });

  test("Fail duplicate hashes", async () => {
    const data = await migrated({ apiId, migrationId, keys: [keyToMigrate] });
    expect(data.failed).toContain(keyToMigrate.hash);
    expect(data.migrated).toEqual([]);
  });
});

describe("400", () => {
  const refused = async (body: unknown) => {
    const answer = await migrate(body);
    expect(errorOf(answer).status, answer.text).toBe(400);
  };

  test.each([
    ["missing everything", { migrationId: "", apiId: "", keys: null }],
    ["empty apiId", { migrationId: "", apiId: "", keys: null }],
  ])("%s", (_, body) => refused(body));

  test("empty migrationId", () => refused({ migrationId: "", apiId, keys: null }));
  test("no keys", () => refused({ migrationId: uid(""), apiId, keys: [] }));
  test("empty hash", () => refused({ migrationId: uid(""), apiId, keys: [{ hash: "" }] }));
  test("negative expires timestamp", () =>
    refused({ migrationId: "", apiId, keys: [{ hash: uid("prefix Prefix"), expires: -1 }] }));
  test("empty permission in list", () =>
    refused({ migrationId: "", apiId, keys: [{ hash: uid("prefix Prefix"), permissions: [""] }] }));
  test("empty role in list", () =>
    refused({ migrationId: "", apiId, keys: [{ hash: uid("prefix Prefix"), roles: [""] }] }));
  test("permission too long", () =>
    refused({ migrationId: "", apiId, keys: [{ hash: uid("prefix Prefix"), permissions: ["a".repeat(513)] }] }));
  test("role too long", () =>
    refused({ migrationId: "", apiId, keys: [{ hash: uid("prefix Prefix"), roles: ["a".repeat(513)] }] }));
});

describe("401", () => {
  let body: object;
  beforeAll(() => {
    body = { apiId, migrationId: newMigration(), keys: [{ hash: uid("") }] };
  });

  test.each([
    ["invalid bearer token", "Bearer invalid_key_12345"],
    ["nonexistent key", `Bearer ${newId("key")}`],
    ["bearer with extra spaces", "Bearer   invalid_key_with_spaces   "],
  ])("%s", async (_, authorization) => {
    expect(errorOf(await h.call("keys.migrateKeys", body, { authorization })).status).toBe(401);
  });
});

describe("403", () => {
  let body: object;
  let otherApiId: string;
  beforeAll(() => {
    otherApiId = h.api();
    body = { apiId: h.api(), keys: [{ hash: uid("") }], migrationId: uid("") };
  });

  test.each([
    ["no permissions", () => []],
    ["wrong permission - has read but not create", () => ["api.*.read_key"]],
    ["permission for different API", () => [`api.${otherApiId}.create_key`]],
    ["permission for specific API but requesting different API", () => [`api.${otherApiId}.create_key`]],
    ["unrelated permission", () => ["workspace.read"]],
    ["partial permission match", () => ["api.create"]],
  ])("%s", async (_, permissions) => {
    const error = errorOf(await migrate(body, h.rootKey(permissions())));
    expect(error.status).toBe(403);
    expect(error.type).toMatch(/\/authorization\/insufficient_permissions$/);
  });
});

describe("404", () => {
  const API_GONE = "The requested API does not exist or has been deleted.";
  const notFound = async (body: object, detail: string) => {
    const error = errorOf(await migrate(body));
    expect(error.status).toBe(404);
    expect(error.detail).toContain(detail);
  };

  test("nonexistent api", () =>
    notFound({ apiId: newId("api"), keys: [{ hash: uid("") }], migrationId: uid("") }, API_GONE));
  test("api with valid format but invalid id", () =>
    notFound({ apiId: "api_1234567890abcdef", migrationId: "unkeyed", keys: [{ hash: uid("") }] }, API_GONE));
  test("api from different workspace", () =>
    notFound({ apiId: h.api(h.workspace()), migrationId: "unkeyed", keys: [{ hash: uid("") }] }, API_GONE));
  test("api with minimum valid length but nonexistent", () =>
    notFound({ apiId: "api", keys: [{ hash: uid("") }], migrationId: uid("") }, API_GONE));

  test("deleted api", async () => {
    const deleted = h.api();
    deleteApi(server.admin.db, deleted, Date.now());
    await notFound({ apiId: deleted, keys: [{ hash: uid("") }], migrationId: uid("") }, API_GONE);
  });

  test("migration doesn't exist", async () => {
    const answer = await migrate({ apiId, keys: [{ hash: uid("") }], migrationId: uid("some_migration_id") });
    const error = errorOf(answer);
    expect(error.status).toBe(404);
    expect(error.detail).toContain("The requested Migration does not exist or has been deleted.");
    expect(error.type).toMatch(/\/data\/migration_not_found$/);
  });
});

describe("this server's own checks", () => {
  test("a sha256 migration's base64 hashes verify by the ordinary lookup; nothing of a refused request is imported", async () => {
    const migrationId = newMigration("sha256");
    const secret = `sk_${uid("old")}`;
    const { createHash } = await import("node:crypto");
    const base64 = createHash("sha256").update(secret).digest("base64");
    const data = await migrated({ apiId, migrationId, keys: [{ hash: base64, externalId: "user_sha" }] });
    expect(data.migrated.map((entry) => entry.hash)).toEqual([base64]);
    const verifier = h.rootKey(["api.*.verify_key"]);
    const verdict = dataOf(await h.call("keys.verifyKey", { key: secret }, { key: verifier }));
    expect(verdict).toMatchObject({ valid: true, identity: { externalId: "user_sha" } });

    // A monthly refill without its day refuses the whole request: the first key is not imported either.
    const first = prefixedApiKey("x");
    const answer = await migrate({
      apiId,
      migrationId,
      keys: [
        { hash: first.longTokenHash },
        { hash: uid("h"), credits: { remaining: 5, refill: { interval: "monthly", amount: 5 } } },
      ],
    });
    expect(errorOf(answer).status).toBe(400);
    expect(count("SELECT count(*) FROM keys WHERE hash = ?", first.longTokenHash)).toBe(0);
  });
});
