import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createIdentity } from "../../server/db/identities";
import { createKeyMigration } from "../../server/db/key-migrations";
import { createRole } from "../../server/db/rbac";
import { createRootKey } from "../../server/db/root-keys";
import { callApi } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

/**
 * Every operation that changes or reads the workspace's identities, roles and permissions, and keys.migrateKeys,
 * answers a hostile body (wrong types, huge arrays and strings, unknown fields, prototype names) with the real service's
 * 400 and its error shape, and changes nothing; a name that merely spells a prototype property is a name like any other.
 */

let server: InProcessServer;
let key: string;
let roleId: string;
let migrationId: string;
let apiId: string;

const BadRequest = v.strictObject({
  meta: v.strictObject({ requestId: v.string() }),
  error: v.strictObject({
    detail: v.string(),
    status: v.literal(400),
    title: v.literal("Bad Request"),
    type: v.pipe(v.string(), v.endsWith("/errors/svc/application/invalid_input")),
    errors: v.pipe(
      v.array(v.strictObject({ location: v.string(), message: v.string(), fix: v.optional(v.string()) })),
      v.minLength(1),
    ),
  }),
});

const TABLES = [
  "identities",
  "identity_ratelimits",
  "permissions",
  "roles",
  "keys",
  "key_ratelimits",
  "key_migrations",
];

/** Every row of the tables these operations write: a change to any of them is seen, not only a new row. */
function snapshot(): string {
  return JSON.stringify(TABLES.map((table) => server.admin.db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));
}

beforeAll(() => {
  server = startInProcess();
  const { db, workspaceId } = server.admin;
  createIdentity(db, {
    workspaceId,
    externalId: "org_kept",
    meta: { plan: "kept" },
    ratelimits: [{ name: "requests", limit: 5, durationMs: 60_000, autoApply: true }],
  });
  roleId = createRole(db, workspaceId, "kept-role", ["kept.read"]);
  migrationId = createKeyMigration(db, workspaceId, "github.com/seamapi/prefixed-api-key");
  apiId = server.admin.createApi("hostile");
  key = createRootKey(db, {
    workspaceId,
    name: "catalogue",
    permissions: [
      ...["create_identity", "read_identity", "update_identity", "delete_identity"].map((a) => `identity.*.${a}`),
      ...[
        "create_permission",
        "read_permission",
        "delete_permission",
        "create_role",
        "read_role",
        "delete_role",
        "add_permission_to_role",
        "remove_permission_from_role",
      ].map((action) => `rbac.*.${action}`),
      "api.*.create_key",
    ],
  }).secret;
});

afterAll(() => server.close());

const send = (operation: string, body: string) => callApi(server, { path: `/v2/${operation}`, key, body });

type Body = Record<string, unknown>;

/**
 * Each operation with a body that would change or read something, the text field spoilt, and the field whose length
 * the real schema bounds (the identity of updateIdentity and deleteIdentity has no bound there: a long one is a 404).
 */
const OPERATIONS: readonly { operation: string; body: () => Body; text: string; bounded?: string }[] = [
  {
    operation: "identities.createIdentity",
    body: () => ({ externalId: "org_new", meta: { a: 1 }, ratelimits: [{ name: "r", limit: 1, duration: 60_000 }] }),
    text: "externalId",
    bounded: "externalId",
  },
  {
    operation: "identities.updateIdentity",
    body: () => ({ identity: "org_kept", meta: { plan: "x" } }),
    text: "identity",
  },
  { operation: "identities.deleteIdentity", body: () => ({ identity: "org_kept" }), text: "identity" },
  {
    operation: "permissions.createPermission",
    body: () => ({ name: "New", slug: "new.perm" }),
    text: "slug",
    bounded: "slug",
  },
  {
    operation: "permissions.getPermission",
    body: () => ({ permission: "kept.read" }),
    text: "permission",
    bounded: "permission",
  },
  {
    operation: "permissions.deletePermission",
    body: () => ({ permission: "kept.read" }),
    text: "permission",
    bounded: "permission",
  },
  {
    operation: "permissions.createRole",
    body: () => ({ name: "new-role", permissions: ["kept.read", "new.one"] }),
    text: "name",
    bounded: "name",
  },
  { operation: "permissions.getRole", body: () => ({ role: "kept-role" }), text: "role", bounded: "role" },
  { operation: "permissions.deleteRole", body: () => ({ role: "kept-role" }), text: "role", bounded: "role" },
  {
    operation: "permissions.setRolePermissions",
    body: () => ({ roleId, permissions: ["other.perm"] }),
    text: "roleId",
    bounded: "roleId",
  },
  {
    operation: "keys.migrateKeys",
    body: () => ({ migrationId, apiId, keys: [{ hash: "0123456789abcdef", externalId: "org_migrated" }] }),
    text: "migrationId",
    bounded: "migrationId",
  },
];

const SPOILERS: readonly [string, (body: Body, text: string) => string][] = [
  ["a number for a text", (body, text) => JSON.stringify({ ...body, [text]: 42 })],
  ["an object for a text", (body, text) => JSON.stringify({ ...body, [text]: { $gt: "" } })],
  ["an array for a text", (body, text) => JSON.stringify({ ...body, [text]: ["a"] })],
  ["null for a text", (body, text) => JSON.stringify({ ...body, [text]: null })],
  ["an unknown field", (body) => JSON.stringify({ ...body, admin: true })],
  ["__proto__", (body) => `{"__proto__": {"polluted": true}, ${JSON.stringify(body).slice(1)}`],
  ["constructor", (body) => JSON.stringify({ ...body, constructor: { prototype: { polluted: true } } })],
  ["an array", () => "[1, 2, 3]"],
  ["null", () => "null"],
  ["a number", () => "12"],
];

describe.each(OPERATIONS)("$operation", ({ operation, body, text, bounded }) => {
  test.each(SPOILERS)("%s is the real 400 and changes nothing", async (_, spoil) => {
    const before = snapshot();
    const answer = await send(operation, spoil(body(), text));
    expect(answer.status, answer.text).toBe(400);
    v.parse(BadRequest, answer.json);
    expect(snapshot()).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a text of 100,000 characters is the real 400 (an identity, unbounded there, its 404) and changes nothing", async () => {
    const before = snapshot();
    const answer = await send(operation, JSON.stringify({ ...body(), [bounded ?? text]: "n".repeat(100_000) }));
    if (bounded === undefined) expect(answer.json).toMatchObject({ error: { status: 404 } });
    else v.parse(BadRequest, answer.json);
    expect(snapshot()).toBe(before);
  });
});

describe("huge arrays and objects", () => {
  const limits = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ name: `r${index}`, limit: 1, duration: 60_000 }));
  const slugs = (count: number) => Array.from({ length: count }, (_, index) => `p.${index}`);
  const wideMeta = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`f${index}`, index]));
  // One level deeper than a meta may nest (1,000).
  let deepMeta: unknown = 1;
  for (let depth = 0; depth <= 1000; depth += 1) deepMeta = { deeper: deepMeta };

  // Functions: the role, migration and API ids are made in beforeAll.
  test.each<[string, () => unknown]>([
    ["identities.createIdentity", () => ({ externalId: "org_many", ratelimits: limits(51) })],
    ["identities.createIdentity", () => ({ externalId: "org_many", meta: wideMeta })],
    ["identities.createIdentity", () => ({ externalId: "org_many", meta: deepMeta })],
    ["identities.createIdentity", () => ({ externalId: "org_many", meta: [1, 2] })],
    ["identities.createIdentity", () => ({ externalId: "org many" })],
    ["identities.updateIdentity", () => ({ identity: "org_kept", ratelimits: limits(51) })],
    [
      "identities.updateIdentity",
      () => ({ identity: "org_kept", ratelimits: [{ name: "r", limit: "1", duration: 60_000 }] }),
    ],
    [
      "identities.updateIdentity",
      () => ({ identity: "org_kept", ratelimits: [{ name: "r", limit: 1, duration: 10 }] }),
    ],
    ["identities.updateIdentity", () => ({ identity: "org_kept", meta: wideMeta })],
    ["identities.updateIdentity", () => ({ identity: "" })],
    ["permissions.createRole", () => ({ name: "many", permissions: slugs(1001) })],
    ["permissions.createRole", () => ({ name: "many", permissions: [5] })],
    ["permissions.createRole", () => ({ name: "many", description: "d".repeat(513) })],
    ["permissions.createPermission", () => ({ name: "n".repeat(513), slug: "ok.slug" })],
    ["permissions.createPermission", () => ({ name: "n", slug: "has spaces" })],
    ["permissions.setRolePermissions", () => ({ roleId, permissions: slugs(1001) })],
    ["permissions.setRolePermissions", () => ({ roleId, permissions: "kept.read" })],
    ["keys.migrateKeys", () => ({ migrationId, apiId, keys: [] })],
    [
      "keys.migrateKeys",
      () => ({ migrationId, apiId, keys: Array.from({ length: 10_001 }, (_, index) => ({ hash: `hash${index}` })) }),
    ],
    ["keys.migrateKeys", () => ({ migrationId, apiId, keys: [{ hash: "abcdef", roles: slugs(101) }] })],
    ["keys.migrateKeys", () => ({ migrationId, apiId, keys: [{ hash: "abcdef", ratelimits: limits(51) }] })],
    ["keys.migrateKeys", () => ({ migrationId, apiId, keys: [{ hash: "abcdef", meta: wideMeta }] })],
    ["keys.migrateKeys", () => ({ migrationId, apiId, keys: [{ hash: "abcdef", extra: 1 }] })],
    ["keys.migrateKeys", () => ({ migrationId, apiId, keys: [{ hash: "ab" }] })],
  ])("%s, body %#, is the real 400 and changes nothing", async (operation, body) => {
    const before = snapshot();
    const answer = await send(operation, JSON.stringify(body()));
    expect(answer.status, answer.text.slice(0, 300)).toBe(400);
    v.parse(BadRequest, answer.json);
    expect(snapshot()).toBe(before);
  });

  test("a body of a million-entry list is refused as too large (413), before anything is read", async () => {
    const before = snapshot();
    const answer = await send(
      "permissions.setRolePermissions",
      JSON.stringify({ roleId, permissions: Array.from({ length: 1_000_000 }, () => "p") }),
    );
    expect(answer.status).toBe(413);
    expect(snapshot()).toBe(before);
  });
});

describe("names that spell prototype properties are names", () => {
  test.each(["__proto__", "constructor", "prototype", "hasOwnProperty"])(
    "an identity, a permission and a role called %s",
    async (name) => {
      const created = await send(
        "identities.createIdentity",
        JSON.stringify({ externalId: name, meta: { [name]: 1 } }),
      );
      expect(created.status, created.text).toBe(200);
      const identity = await send(
        "identities.updateIdentity",
        JSON.stringify({ identity: name, meta: { plan: name } }),
      );
      expect(identity.json).toMatchObject({ data: { externalId: name, meta: { plan: name } } });

      const permission = await send("permissions.createPermission", JSON.stringify({ name, slug: name }));
      expect(permission.status, permission.text).toBe(200);
      const role = await send("permissions.createRole", JSON.stringify({ name, permissions: [name] }));
      expect(role.status, role.text).toBe(200);
      expect((await send("permissions.getRole", JSON.stringify({ role: name }))).json).toMatchObject({
        data: { name, permissions: [{ slug: name }] },
      });
      expect((await send("permissions.deleteRole", JSON.stringify({ role: name }))).status).toBe(200);
      expect((await send("permissions.deletePermission", JSON.stringify({ permission: name }))).status).toBe(200);
      expect((await send("identities.deleteIdentity", JSON.stringify({ identity: name }))).status).toBe(200);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    },
  );

  test("a meta holding __proto__ is stored and answered as data, polluting nothing", async () => {
    const body = '{"externalId": "org_meta_proto", "meta": {"__proto__": {"polluted": true}, "plan": "free"}}';
    expect((await send("identities.createIdentity", body)).status).toBe(200);
    const answer = await send("identities.getIdentity", JSON.stringify({ identity: "org_meta_proto" }));
    expect(answer.text).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
