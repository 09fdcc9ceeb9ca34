import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createIdentity, deleteIdentity } from "../../../server/db/identities";
import { newId } from "../../../server/db/ids";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of identities.createIdentity, updateIdentity and deleteIdentity
 * (svc/api/routes/v2_identities_{create,update,delete}_identity/*_test.go), replayed over HTTP, each named as its real
 * t.Run. What the real tests read from their database (an identity's row, whether it is deleted, its rate limits) is
 * read here through the admin's connection. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
});

afterAll(() => server.close());

/** The real harness's uid.New(prefix): a prefix and random base58. */
const uid = (prefix: string) => `${prefix}_${newId("req").slice(4)}`;

const RateLimit = v.object({ id: v.string(), name: v.string(), limit: v.number(), duration: v.number() });
const Identity = v.object({
  id: v.string(),
  externalId: v.string(),
  meta: v.optional(v.record(v.string(), v.unknown())),
  ratelimits: v.optional(v.array(RateLimit)),
});

interface IdentityRow {
  id: string;
  externalId: string;
  meta: string | null;
  deletedAt: number | null;
}

/** The identity's row as the real tests' FindIdentityByExternalID / FindIdentityByID read it, deleted or not. */
function rowOf(workspaceId: string, identity: string, deleted: boolean): IdentityRow | undefined {
  return server.admin.db
    .prepare<[string, string, string], IdentityRow>(
      `SELECT id, external_id AS externalId, meta, deleted_at AS deletedAt FROM identities
        WHERE workspace_id = ? AND (id = ? OR external_id = ?) AND (deleted_at IS NOT NULL) = ${deleted ? 1 : 0}`,
    )
    .get(workspaceId, identity, identity);
}

function rateLimitsOf(identityId: string): { name: string; limit: number; duration: number }[] {
  return server.admin.db
    .prepare<[string], { name: string; limit: number; duration: number }>(
      `SELECT name, "limit", duration_ms AS duration FROM identity_ratelimits WHERE identity_id = ? ORDER BY name`,
    )
    .all(identityId);
}

const metaOf = (row: IdentityRow | undefined): unknown => (row?.meta == null ? undefined : JSON.parse(row.meta));

const INVALID_INPUT = /\/application\/invalid_input$/;
const MetaOnly = v.strictObject({ meta: v.strictObject({ requestId: v.pipe(v.string(), v.regex(/^req_/)) }) });

describe("createIdentity", () => {
  let creator: string;
  const create = (body: unknown, key = creator) => h.call("identities.createIdentity", body, { key });
  const created = async (body: unknown) => {
    const data = v.parse(v.object({ identityId: v.string() }), dataOf(await create(body)));
    expect(data.identityId).toMatch(/^id_/);
    return data.identityId;
  };

  beforeAll(() => {
    creator = h.rootKey(["identity.*.create_identity"]);
  });

  describe("200", () => {
    test("insert identity via DB", () => {
      const externalId = uid("test_external_id");
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId, meta: {} });
      expect(rowOf(h.workspaceId, externalId, false)?.externalId).toBe(externalId);
    });

    test("insert identity via DB and add ratelimits", () => {
      const externalId = uid("test_external_id");
      const id = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId,
        meta: {},
        ratelimits: [{ name: "Requests", limit: 15, durationMs: 15 * 60_000, autoApply: false }],
      });
      expect(rowOf(h.workspaceId, externalId, false)?.externalId).toBe(externalId);
      expect(rateLimitsOf(id)).toEqual([{ name: "Requests", limit: 15, duration: 15 * 60_000 }]);
    });

    test("create identity", async () => {
      const externalId = uid("test_external_id");
      const id = await created({ externalId });
      expect(rowOf(h.workspaceId, externalId, false)).toMatchObject({ id, externalId });
    });

    test("create identity with metadata", async () => {
      const externalId = uid("test_external_id");
      await created({ externalId, meta: { key: "example" } });
      expect(metaOf(rowOf(h.workspaceId, externalId, false))).toEqual({ key: "example" });
    });

    test("create identity with ratelimits", async () => {
      const externalId = uid("test_external_id");
      const ratelimits = [
        { duration: 60_000, limit: 100, name: "test", autoApply: true },
        { duration: 60_000, limit: 200, name: "test2", autoApply: true },
      ];
      const id = await created({ externalId, ratelimits });
      expect(rateLimitsOf(id)).toEqual(ratelimits.map(({ name, limit, duration }) => ({ name, limit, duration })));
    });

    test("create identity with metadata and ratelimits", async () => {
      const externalId = uid("test_external_id");
      const meta = { userId: "user_123", role: "admin" };
      const ratelimits = [
        { duration: 60_000, limit: 100, name: "requests_per_minute", autoApply: true },
        { duration: 86_400_000, limit: 1000, name: "requests_per_day", autoApply: true },
      ];
      const id = await created({ externalId, meta, ratelimits });
      expect(metaOf(rowOf(h.workspaceId, externalId, false))).toEqual(meta);
      expect(rateLimitsOf(id)).toEqual(
        [...ratelimits]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map(({ name, limit, duration }) => ({
            name,
            limit,
            duration,
          })),
      );
    });

    test("create identity with complex nested metadata", async () => {
      const externalId = uid("test_external_id");
      const meta = {
        user: {
          id: "u_12345",
          name: "John Doe",
          active: true,
          roles: ["admin", "editor"],
          preferences: { theme: "dark", notifications: true, languages: ["en", "fr", "de"] },
        },
        metrics: {
          logins: 42,
          lastActive: "2023-08-15T14:30:00Z",
          devices: [
            { type: "mobile", os: "iOS", lastLogin: "2023-08-15T14:30:00Z" },
            { type: "desktop", os: "Windows", lastLogin: "2023-08-14T10:15:00Z" },
          ],
        },
        features: ["feature1", "feature2", "feature3"],
        limits: { storage: 5000, api: { rate: 100, burst: 150 } },
      };
      await created({ externalId, meta });
      expect(metaOf(rowOf(h.workspaceId, externalId, false))).toEqual(meta);
    });

    test("create multiple identities with different externalIds", async () => {
      const externalIds = [uid("test_external_id_1"), uid("test_external_id_2"), uid("test_external_id_3")];
      for (const externalId of externalIds) await created({ externalId });
      const ids = externalIds.map((externalId) => rowOf(h.workspaceId, externalId, false)?.id);
      expect(ids.every((id) => id !== undefined)).toBe(true);
      expect(new Set(ids).size).toBe(externalIds.length);
    });

    test("create identity with minimum length externalId", async () => {
      await created({ externalId: "123" });
      expect(rowOf(h.workspaceId, "123", false)?.externalId).toBe("123");
    });

    test("create identity with various metadata types", async () => {
      const externalId = uid("ext");
      const meta = {
        stringValue: "test string",
        intValue: 42,
        floatValue: 3.14159,
        boolValue: true,
        nullValue: null,
        arrayValue: [1, "two", true, null, 4.5],
        mapValue: { nestedString: "nested", nestedInt: 123, nestedBool: false },
        emptyArray: [],
        emptyObject: {},
      };
      await created({ externalId, meta });
      expect(metaOf(rowOf(h.workspaceId, externalId, false))).toEqual(meta);
    });

    test("TestCreateIdentity_AuthorizesCanonicalURNPermission", async () => {
      const key = h.rootKey([h.urn("projects/*/identities/*", "create_identity")]);
      expect((await create({ externalId: uid("test") }, key)).status).toBe(200);
    });
  });

  describe("400", () => {
    const schemaRefusal = async (body: unknown) => {
      const answer = await create(body);
      const error = errorOf(answer);
      expect(error.status, answer.text).toBe(400);
      expect(error.type).toMatch(INVALID_INPUT);
      expect(error.detail).toBe("POST request body for '/v2/identities.createIdentity' failed to validate schema");
      expect(
        v.parse(v.object({ error: v.object({ errors: v.array(v.unknown()) }) }), answer.json).error.errors.length,
      ).toBeGreaterThan(0);
    };

    test("missing external id", () => schemaRefusal({ externalId: "" }));
    test("empty external id", () => schemaRefusal({ externalId: "" }));
    test("missing rate limit name", () =>
      schemaRefusal({
        externalId: uid("test"),
        ratelimits: [{ name: "", duration: 1000, limit: 1, autoApply: true }],
      }));
    test("negative rate limit value", () =>
      schemaRefusal({
        externalId: uid("test"),
        ratelimits: [{ name: "test_limit", duration: 1000, limit: -10, autoApply: true }],
      }));
    test("zero rate limit value", () =>
      schemaRefusal({
        externalId: uid("test"),
        ratelimits: [{ name: "test_limit", duration: 1000, limit: 0, autoApply: true }],
      }));
    test("duration less than 1000ms", () =>
      schemaRefusal({
        externalId: uid("test"),
        ratelimits: [{ name: "test_limit", duration: 999, limit: 100, autoApply: true }],
      }));

    test("metadata exceeds maximum size limit (served differently: a body over 1 MiB is 413 here, read no further)", async () => {
      const meta = Object.fromEntries(
        Array.from({ length: Math.floor((1024 * 1024) / 15) + 1000 }, (_, i) => [`key_${i}`, `some_${i}`]),
      );
      const error = errorOf(await create({ externalId: uid("test"), meta }));
      expect(error.status).toBe(413);
      // The real answer's 400 is its schema's: over 100 fields, which a body within 1 MiB is refused for here too.
      const fewer = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`key_${i}`, `some_${i}`]));
      await schemaRefusal({ externalId: uid("test"), meta: fewer });
    });

    test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await h.call("identities.createIdentity", { externalId: uid("test") }, "none")).status).toBe(401);
    });

    test("malformed authorization header", async () => {
      const answer = await h.call(
        "identities.createIdentity",
        { externalId: uid("test") },
        { authorization: "malformed_header" },
      );
      expect(errorOf(answer).status).toBe(400);
    });
  });

  describe("401", () => {
    test("invalid authorization token", async () => {
      const answer = await h.call(
        "identities.createIdentity",
        { externalId: uid("test") },
        { authorization: "Bearer invalid_token" },
      );
      expect(errorOf(answer).status).toBe(401);
    });
  });

  describe("403", () => {
    test("TestWorkspacePermissions", async () => {
      const error = errorOf(await create({ externalId: "external_test_id" }, h.rootKey([])));
      expect(error.status).toBe(403);
      expect(rowOf(h.workspaceId, "external_test_id", false)).toBeUndefined();
    });
  });

  describe("409", () => {
    test("create identity twice", async () => {
      const externalId = uid("test_external_id");
      expect((await create({ externalId })).status).toBe(200);
      const error = errorOf(await create({ externalId }));
      expect(error.status).toBe(409);
      expect(error.type).toMatch(/\/data\/identity_already_exists$/);
      expect(error.detail).toBe(`Identity with externalId '${externalId}' already exists in this workspace.`);
    });
  });
});

describe("updateIdentity", () => {
  let updater: string;
  const update = (body: unknown, key = updater) => h.call("identities.updateIdentity", body, { key });
  const updated = async (body: unknown, key = updater) => v.parse(Identity, dataOf(await update(body, key)));

  beforeAll(() => {
    updater = h.rootKey(["identity.*.update_identity"]);
  });

  describe("200", () => {
    beforeAll(() => {
      createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId: "test_user_123",
        meta: { name: "Test User", email: "test@example.com", plan: "free", credits: 50 },
        ratelimits: [
          { name: "api_calls", limit: 100, durationMs: 60_000, autoApply: false },
          { name: "special_feature", limit: 10, durationMs: 3_600_000, autoApply: false },
        ],
      });
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId: "test_user_456", meta: {} });
    });

    test("update metadata", async () => {
      const data = await updated({ identity: "test_user_456", meta: { joined: "2023-01-01", active: true } });
      expect(data.externalId).toBe("test_user_456");
      expect(data.meta).toEqual({ joined: "2023-01-01", active: true });
      expect(data.ratelimits).toBeUndefined();
    });

    test("update ratelimits - add new, update existing, delete one", async () => {
      const data = await updated({
        identity: "test_user_123",
        ratelimits: [
          { name: "api_calls", limit: 200, duration: 60_000, autoApply: true },
          { name: "new_feature", limit: 5, duration: 86_400_000, autoApply: false },
        ],
      });
      expect(data.externalId).toBe("test_user_123");
      expect(data.ratelimits).toHaveLength(2);
      expect(data.ratelimits?.find((limit) => limit.name === "api_calls")).toMatchObject({
        limit: 200,
        duration: 60_000,
      });
      expect(data.ratelimits?.find((limit) => limit.name === "new_feature")).toMatchObject({
        limit: 5,
        duration: 86_400_000,
      });
      expect(data.ratelimits?.map((limit) => limit.name)).not.toContain("special_feature");
    });

    test("remove all ratelimits", async () => {
      const data = await updated({ identity: "test_user_123", ratelimits: [] });
      expect(data.externalId).toBe("test_user_123");
      expect(data.ratelimits).toBeUndefined();
    });

    test("clear metadata", async () => {
      const data = await updated({ identity: "test_user_123", meta: {} });
      expect(data.externalId).toBe("test_user_123");
      expect(data.meta ?? {}).toEqual({});
    });

    test("update both metadata and ratelimits", async () => {
      const data = await updated({
        identity: "test_user_123",
        meta: { plan: "enterprise", credits: 1000 },
        ratelimits: [{ name: "enterprise_feature", limit: 50, duration: 3_600_000, autoApply: true }],
      });
      expect(data.meta).toEqual({ plan: "enterprise", credits: 1000 });
      expect(data.ratelimits).toEqual([
        expect.objectContaining({ name: "enterprise_feature", limit: 50, duration: 3_600_000 }),
      ]);
    });

    test("TestUpdateIdentityConcurrentRatelimits", async () => {
      const externalId = "concurrent_ratelimit_test";
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId, meta: {} });
      const warmup = await update({
        identity: externalId,
        ratelimits: [{ name: "shared_limit_a", limit: 100, duration: 60_000, autoApply: true }],
      });
      expect(warmup.status).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          update({
            identity: externalId,
            ratelimits: ["a", "b", "c"].map((suffix, j) => ({
              name: `shared_limit_${suffix}`,
              limit: (j + 1) * 100 + i,
              duration: 60_000,
              autoApply: true,
            })),
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 200));
      expect(rowOf(h.workspaceId, externalId, false)).toBeDefined();
      // One update won whole: its three limits, one row each, never a mix of two requests' rows.
      expect(rateLimitsOf(rowOf(h.workspaceId, externalId, false)?.id ?? "").map((limit) => limit.name)).toEqual([
        "shared_limit_a",
        "shared_limit_b",
        "shared_limit_c",
      ]);
    });

    test("TestBulkIdentityUpdateDeadlock", async () => {
      const key = h.rootKey(["identity.*.create_identity", "identity.*.update_identity"]);
      const names = ["rl_a", "rl_b", "rl_c", "rl_d", "rl_e"];
      const externalIds = Array.from({ length: 50 }, (_, i) => {
        const externalId = `deadlock_test_${i}_${uid("test")}`;
        createIdentity(server.admin.db, {
          workspaceId: h.workspaceId,
          externalId,
          meta: {},
          ratelimits: names.map((name) => ({ name, limit: 100, durationMs: 60_000, autoApply: true })),
        });
        return externalId;
      });
      const limits = (limit: number) => names.map((name) => ({ name, limit, duration: 60_000, autoApply: true }));
      expect((await update({ identity: externalIds[0], ratelimits: limits(999) }, key)).status).toBe(200);
      for (const round of [0, 1, 2]) {
        const answers = await Promise.all(
          externalIds.map((identity, i) => update({ identity, ratelimits: limits(100 + round * 1000 + i) }, key)),
        );
        expect(answers.map((answer) => answer.status)).toEqual(externalIds.map(() => 200));
      }
    });

    test("TestUpdateIdentity_AuthorizesCanonicalURNPermission", async () => {
      const externalId = uid("test");
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId });
      const key = h.rootKey([h.urn("projects/*/identities/*", "update_identity")]);
      expect((await update({ identity: externalId, meta: { updated: true } }, key)).status).toBe(200);
    });
  });

  describe("400", () => {
    const schemaRefusal = async (body: unknown) => {
      const error = errorOf(await update(body));
      expect(error.status).toBe(400);
      expect(error.type).toMatch(INVALID_INPUT);
      expect(error.detail).toBe("POST request body for '/v2/identities.updateIdentity' failed to validate schema");
    };

    test("missing externalId", () => schemaRefusal({ meta: { test: "value" } }));
    test("empty externalId", () => schemaRefusal({ identity: "", meta: { test: "value" } }));

    test("duplicate ratelimit names", async () => {
      const error = errorOf(
        await update({
          identity: "identity_123",
          ratelimits: [
            { name: "api_calls", limit: 100, duration: 60_000, autoApply: true },
            { name: "api_calls", limit: 200, duration: 120_000, autoApply: true },
          ],
        }),
      );
      expect(error.status).toBe(400);
      expect(error.type).toMatch(INVALID_INPUT);
      expect(error.detail).toContain("api_calls");
    });

    test("metadata too large (served differently: a body over 1 MiB is 413 here, read no further)", async () => {
      const error = errorOf(await update({ identity: "identity_123", meta: { large_field: "a".repeat(1024 * 1024) } }));
      expect(error.status).toBe(413);
    });
  });

  describe("401", () => {
    test("missing Authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      const answer = await h.call(
        "identities.updateIdentity",
        { identity: uid("test"), meta: { test: "value" } },
        "none",
      );
      expect(errorOf(answer).status).toBe(401);
    });

    test.each([
      ["malformed Authorization header", "InvalidFormat xyz", 400, /\/authentication\/malformed$/],
      ["invalid root key", "Bearer invalid_key", 401, /\/authentication\/key_not_found$/],
      ["empty bearer token", "Bearer ", 400, /\/authentication\/malformed$/],
    ])("%s", async (_, authorization, status, type) => {
      const answer = await h.call(
        "identities.updateIdentity",
        { identity: uid("test"), meta: { test: "value" } },
        { authorization },
      );
      const error = errorOf(answer);
      expect(error.status).toBe(status);
      expect(error.type).toMatch(type);
    });

    test("key from different workspace", async () => {
      const key = h.rootKey(["identity.*.update_identity"], h.workspace());
      const error = errorOf(await update({ identity: uid("test"), meta: { test: "value" } }, key));
      expect(error.status).toBe(404);
      expect(error.type).toMatch(/\/data\/identity_not_found$/);
    });
  });

  describe("403", () => {
    test.each([
      ["no permission to update identity", []],
      ["wrong permission type", ["identity.*.create_identity"]],
    ])("%s", async (_, permissions) => {
      const error = errorOf(await update({ identity: uid("test"), meta: { test: "value" } }, h.rootKey(permissions)));
      expect(error.status).toBe(403);
      expect(error.type).toMatch(/\/authorization\/insufficient_permissions$/);
      expect(error.detail).toContain("permission");
    });

    test("with permission to update identity", async () => {
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId: "test_user_403", meta: {} });
      const data = await updated(
        { identity: "test_user_403", meta: { test: "value" } },
        h.rootKey(["identity.*.update_identity"]),
      );
      expect(data.externalId).toBe("test_user_403");
    });
  });

  describe("404", () => {
    test("external ID does not exist", async () => {
      const error = errorOf(await update({ identity: "non_existent_external_id", meta: { test: "value" } }));
      expect(error).toMatchObject({ status: 404, detail: "This identity does not exist." });
      expect(error.type).toMatch(/\/data\/identity_not_found$/);
    });
  });
});

describe("deleteIdentity", () => {
  let deleter: string;
  const remove = (body: unknown, key = deleter) => h.call("identities.deleteIdentity", body, { key });
  const removed = async (identity: string, key = deleter) => {
    const answer = await remove({ identity }, key);
    expect(answer.status, answer.text).toBe(200);
    // `meta` alone, no `data`: the real service's empty answer.
    expect(v.safeParse(MetaOnly, answer.json).success, answer.text).toBe(true);
  };
  const notFound = async (body: unknown, key = deleter) => {
    const error = errorOf(await remove(body, key));
    expect(error).toMatchObject({ status: 404, detail: "This identity does not exist." });
    expect(error.type).toMatch(/\/data\/identity_not_found$/);
  };

  beforeAll(() => {
    deleter = h.rootKey(["identity.*.delete_identity"]);
  });

  describe("200", () => {
    test("delete identity by external ID", async () => {
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId: "test_user_1", meta: {} });
      const identity = rowOf(h.workspaceId, "test_user_1", false);
      expect(identity?.externalId).toBe("test_user_1");
      await removed("test_user_1");
      expect(rowOf(h.workspaceId, "test_user_1", false)).toBeUndefined();
      expect(rowOf(h.workspaceId, identity?.id ?? "", true)).toMatchObject({ externalId: "test_user_1" });
    });

    test("delete identity with rate limits", async () => {
      const id = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId: "test_user_with_ratelimits",
        meta: {},
        ratelimits: [0, 1, 2].map((i) => ({
          name: `ratelimit_${uid("test")}_${i}`,
          limit: 100,
          durationMs: 60_000,
          autoApply: false,
        })),
      });
      expect(rateLimitsOf(id)).toHaveLength(3);
      await removed("test_user_with_ratelimits");
      expect(rowOf(h.workspaceId, id, false)).toBeUndefined();
      expect(rateLimitsOf(id)).toHaveLength(3);
    });

    test("delete identity with wildcard permission", async () => {
      const id = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId: "test_user_wildcard",
        meta: {},
      });
      await removed("test_user_wildcard", h.rootKey(["identity.*.delete_identity"]));
      expect(rowOf(h.workspaceId, id, false)).toBeUndefined();
    });

    test("verify audit logs are created (served differently: no audit log is kept here)", async () => {
      const id = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId: "test_user_audit_logs",
        meta: {},
        ratelimits: [
          { name: "ratelimit_1", limit: 100, durationMs: 60_000, autoApply: false },
          { name: "ratelimit_2", limit: 200, durationMs: 3_600_000, autoApply: false },
        ],
      });
      await removed("test_user_audit_logs");
      expect(rowOf(h.workspaceId, id, true)?.deletedAt).not.toBeNull();
    });

    test("delete identity twice (duplicate key error handling)", async () => {
      const first = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId: "test_user_duplicate",
        meta: {},
      });
      await removed("test_user_duplicate");
      const second = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId: "test_user_duplicate",
        meta: {},
      });
      await removed("test_user_duplicate");
      expect(rowOf(h.workspaceId, second, false)).toBeUndefined();
      expect(rowOf(h.workspaceId, first, true)).toBeUndefined();
    });

    test("delete->create->delete with ratelimits", async () => {
      const limit = (n: number) => [{ name: "per_month", limit: n, durationMs: 30 * 86_400_000, autoApply: false }];
      const externalId = "stripe_user_12345";
      const first = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId,
        meta: { tier: "advanced" },
        ratelimits: limit(300_000),
      });
      await removed(externalId);
      const second = createIdentity(server.admin.db, {
        workspaceId: h.workspaceId,
        externalId,
        meta: { tier: "starter" },
        ratelimits: limit(20_000),
      });
      await removed(externalId);
      expect(rowOf(h.workspaceId, second, true)?.id).toBe(second);
      expect(rowOf(h.workspaceId, second, false)).toBeUndefined();
      expect(rowOf(h.workspaceId, first, true)).toBeUndefined();
    });

    test("TestDeleteIdentity_AuthorizesCanonicalURNPermission", async () => {
      const externalId = uid("test");
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId });
      await removed(externalId, h.rootKey([h.urn("projects/*/identities/*", "delete_identity")]));
    });
  });

  describe("400", () => {
    test.each([
      ["missing externalID", {}],
      ["empty identity", { identity: "" }],
    ])("%s", async (_, body) => {
      const answer = await remove(body);
      const error = errorOf(answer);
      expect(error.status).toBe(400);
      expect(error.type).toMatch(INVALID_INPUT);
      expect(error.detail).toBe("POST request body for '/v2/identities.deleteIdentity' failed to validate schema");
      expect(answer.text).toContain('"errors":[{');
    });

    test("identity with special characters", () => notFound({ identity: "@#$%" }));
    test("identity too long", () => notFound({ identity: `test_${"\u0000".repeat(1000)}` }));
  });

  describe("401", () => {
    test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await h.call("identities.deleteIdentity", { identity: uid("test") }, "none")).status).toBe(401);
    });

    test.each([
      ["malformed authorization header", "malformed_header", 400, "malformed"],
      ["invalid auth token", "Bearer invalid_token", 401, "key_not_found"],
      ["empty bearer token", "Bearer ", 400, "malformed"],
      ["bearer token with invalid format", "Bearer not-a-valid-key-format", 401, "key_not_found"],
      ["token with wrong format", "Bearer random_string_not_a_key", 401, "key_not_found"],
      ["completely invalid token format", "Bearer 123", 401, "key_not_found"],
    ])("%s", async (_, authorization, status, kind) => {
      const error = errorOf(await h.call("identities.deleteIdentity", { identity: uid("test") }, { authorization }));
      expect(error.status).toBe(status);
      expect(error.type).toMatch(new RegExp(`/authentication/${kind}$`));
      expect(error.detail).toContain(status === 400 ? "Bearer" : "key");
    });

    test("key from wrong workspace", async () => {
      const error = errorOf(
        await remove({ identity: uid("test") }, h.rootKey(["identity.*.delete_identity"], h.workspace())),
      );
      expect(error.status).toBe(404);
      expect(error.detail).toContain("identity does not exist");
    });
  });

  describe("403", () => {
    test.each([
      ["insufficient permissions - no permissions", []],
      ["insufficient permissions - wrong permission", ["identity.*.create_identity"]],
      ["insufficient permissions - different resource permission", ["key.*.delete_key"]],
      ["read-only permission", ["identity.*.read_identity"]],
      ["partial permission match", ["identity.create_identity"]],
      [
        "multiple permissions but none matching",
        ["key.*.delete_key", "api.*.delete_api", "workspace.*.read_workspace"],
      ],
      ["case sensitivity test", ["IDENTITY.*.DELETE_IDENTITY"]],
    ])("%s", async (_, permissions) => {
      const answer = await remove({ identity: uid("test") }, h.rootKey(permissions));
      expect(answer.json).toMatchObject({ error: { status: 403, title: "Insufficient Permissions" } });
      const error = errorOf(answer);
      expect(error.type).toMatch(/\/authorization\/insufficient_permissions$/);
      expect(error.detail).toContain("permission");
    });
  });

  describe("404", () => {
    test("delete identity with non-existent external ID", () => notFound({ identity: uid("non_existent") }));

    test("delete identity with external ID from different workspace", async () => {
      const externalId = uid("ext_id");
      createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId, meta: {} });
      await notFound({ identity: externalId }, h.rootKey(["identity.*.delete_identity"], h.workspace()));
      expect(rowOf(h.workspaceId, externalId, false)).toBeDefined();
    });

    test("delete already deleted identity", async () => {
      const externalId = uid("ext_id");
      const id = createIdentity(server.admin.db, { workspaceId: h.workspaceId, externalId, meta: {} });
      expect(deleteIdentity(server.admin.db, h.workspaceId, id)).toBe(true);
      await notFound({ identity: externalId });
    });

    test("delete identity using very long non-existent external ID", () =>
      notFound({ identity: `very_long_external_id_that_does_not_exist_${uid("test")}_${uid("test2")}` }));
  });
});
