import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createIdentity, deleteIdentity, type NewIdentity } from "../../../server/db/identities";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of identities.getIdentity and identities.listIdentities
 * (svc/api/routes/v2_identities_get_identity/*_test.go, v2_identities_list_identities/*_test.go), replayed over
 * HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;

const RateLimit = v.object({ name: v.string(), limit: v.number(), duration: v.number() });
const Identity = v.object({
  id: v.string(),
  externalId: v.string(),
  meta: v.optional(v.record(v.string(), v.unknown())),
  ratelimits: v.optional(v.array(RateLimit)),
});
const One = v.object({ data: Identity });
const Page = v.object({
  data: v.array(Identity),
  pagination: v.object({ cursor: v.optional(v.string()), hasMore: v.boolean() }),
});

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
});

afterAll(() => server.close());

const identity = (workspaceId: string, externalId: string, settings: Partial<NewIdentity> = {}) =>
  createIdentity(server.admin.db, { workspaceId, externalId, ...settings });

describe("getIdentity", () => {
  let reader: string;
  const get = (identity: string, key = reader) => h.call("identities.getIdentity", { identity }, { key });
  const got = async (identity: string) => {
    const answer = await get(identity);
    expect(answer.status, answer.text).toBe(200);
    return v.parse(One, answer.json).data;
  };

  beforeAll(() => {
    reader = h.rootKey(["identity.*.read_identity"]);
    identity(h.workspaceId, "test_user_123", {
      meta: { name: "Test User", email: "test@example.com", plan: "pro", credits: 100 },
      ratelimits: [
        { name: "api_calls", limit: 100, durationMs: 60_000, autoApply: false },
        { name: "special_feature", limit: 10, durationMs: 3_600_000, autoApply: false },
      ],
    });
  });

  describe("200", () => {
    test("TestGetIdentity_AuthorizesCanonicalURNPermission", async () => {
      identity(h.workspaceId, "test_user_urn");
      const answer = await h.call(
        "identities.getIdentity",
        { identity: "test_user_urn" },
        { key: h.rootKey([h.urn("projects/*/identities/*", "read_identity")]) },
      );
      expect(answer.status, answer.text).toBe(200);
    });

    test("get by externalId", async () => {
      const data = await got("test_user_123");
      expect(data.externalId).toBe("test_user_123");
      expect(data.meta).toEqual({ name: "Test User", email: "test@example.com", plan: "pro", credits: 100 });
      expect(data.ratelimits).toHaveLength(2);
    });

    test("metadata is empty object when not set", async () => {
      identity(h.workspaceId, "test_user_no_meta", { meta: {} });
      // An empty object, not left out and not null (the real test's words): the answer's own JSON says so.
      const answer = await get("test_user_no_meta");
      expect(answer.status, answer.text).toBe(200);
      expect(answer.text).toContain('"meta":{}');
      expect(v.parse(One, answer.json).data.meta).toEqual({});
    });

    test("ratelimits is empty array when none exist", async () => {
      identity(h.workspaceId, "test_user_no_ratelimits", { meta: {} });
      expect((await got("test_user_no_ratelimits")).ratelimits ?? []).toEqual([]);
    });

    test("retrieve identity with large metadata", async () => {
      const meta = {
        user_profile: { name: "Large Meta User", bio: "Lorem ipsum dolor sit amet ".repeat(50) },
        subscription: {
          plan: "enterprise",
          history: [
            { date: "2021-01-01", plan: "free" },
            { date: "2022-01-01", plan: "enterprise" },
          ],
        },
        devices: [
          { type: "mobile", os: "iOS" },
          { type: "desktop", os: "Windows" },
          { type: "tablet", os: "Android" },
        ],
      };
      expect(JSON.stringify(meta).length).toBeGreaterThan(1000);
      identity(h.workspaceId, "test_user_large_meta", { meta });
      expect((await got("test_user_large_meta")).meta).toEqual(meta);
    });

    test("retrieve identity with many rate limits", async () => {
      const limits: [string, number, number][] = [
        ["api_calls_per_second", 10, 1000],
        ["api_calls_per_minute", 100, 60_000],
        ["api_calls_per_hour", 1000, 3_600_000],
        ["api_calls_per_day", 10_000, 86_400_000],
        ["heavy_operations", 5, 60_000],
        ["storage_operations", 20, 60_000],
        ["database_queries", 200, 60_000],
        ["premium_features", 50, 3_600_000],
        ["export_operations", 5, 86_400_000],
        ["search_queries", 100, 60_000],
      ];
      identity(h.workspaceId, "test_user_many_ratelimits", {
        ratelimits: limits.map(([name, limit, durationMs]) => ({ name, limit, durationMs, autoApply: false })),
      });
      const returned = (await got("test_user_many_ratelimits")).ratelimits ?? [];
      expect(returned.map((limit) => [limit.name, limit.limit, limit.duration]).sort()).toEqual([...limits].sort());
    });

    test("retrieve recently created identity", async () => {
      identity(h.workspaceId, "test_user_recent", { meta: {}, createdAt: Date.now() });
      expect((await got("test_user_recent")).externalId).toBe("test_user_recent");
    });

    test("retrieve identity with identityId", async () => {
      const id = identity(h.workspaceId, "unkey_works", { meta: {} });
      expect((await got(id)).externalId).toBe("unkey_works");
    });
  });

  describe("400", () => {
    test.each([
      ["missing identity", {}],
      ["empty identity", { identity: "" }],
    ])("%s", async (_, body) => {
      const error = errorOf(await h.call("identities.getIdentity", body, { key: reader }));
      expect(error.status).toBe(400);
      expect(error.type).toMatch(/\/application\/invalid_input$/);
      expect(error.detail).toBe("POST request body for '/v2/identities.getIdentity' failed to validate schema");
    });

    test("missing Authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await h.call("identities.getIdentity", { identity: "test_123" }, "none")).status).toBe(401);
    });

    test("malformed Authorization header", async () => {
      const error = errorOf(
        await h.call("identities.getIdentity", { identity: "test_123" }, { authorization: "InvalidFormat xyz" }),
      );
      expect(error.status).toBe(400);
      expect(error.type).toMatch(/\/authentication\/malformed$/);
    });
  });

  describe("401", () => {
    test("invalid root key", async () => {
      const error = errorOf(
        await h.call("identities.getIdentity", { identity: "identity_123" }, { authorization: "Bearer invalid_key" }),
      );
      expect(error.status).toBe(401);
      expect(error.type).toMatch(/\/authentication\/key_not_found$/);
    });
  });

  describe("403", () => {
    let otherIdentityId: string;
    beforeAll(() => {
      identity(h.workspaceId, "test_user_403", { meta: {} });
      otherIdentityId = identity(h.workspaceId, "other_user_403", { meta: {} });
    });

    test("no permission to read any identity", async () => {
      const error = errorOf(await get("test_user_403", h.rootKey([])));
      expect(error.status).toBe(403);
      expect(error.type).toMatch(/\/authorization\/insufficient_permissions$/);
      expect(error.detail).toContain("Missing one of these permissions:");
      expect(error.detail).toContain("identity.*.read_identity");
      expect(error.detail).not.toMatch(/have:|[{}]/);
    });

    test("permission by external ID but not by ID", async () => {
      const error = errorOf(await get("test_user_403", h.rootKey([`identity.${otherIdentityId}.read_identity`])));
      expect(error.status).toBe(403);
      expect(error.detail).toContain("Missing one of these permissions:");
      expect(error.detail).not.toContain(otherIdentityId);
      expect(error.detail).not.toMatch(/have:|[{}]/);
    });
  });

  describe("404", () => {
    // The real test inserts and soft-deletes the identity in its database; the admin's connection does the same here.
    test("deleted identity", async () => {
      const deletedId = identity(h.workspaceId, "test_deleted_identity", { meta: {} });
      expect(deleteIdentity(server.admin.db, h.workspaceId, deletedId)).toBe(true);
      const error = errorOf(await get("test_deleted_identity"));
      expect(error.status).toBe(404);
      expect(errorOf(await get(deletedId)).status).toBe(404);
    });

    test("external ID does not exist", async () => {
      const answer = await get("non_existent_external_id");
      const error = errorOf(answer);
      expect(error).toMatchObject({ status: 404, detail: "This identity does not exist." });
      expect(error.type).toMatch(/\/data\/identity_not_found$/);
    });
  });
});

describe("listIdentities", () => {
  let workspaceId: string;
  let reader: string;
  const externalIds: string[] = [];
  const list = async (body: object = {}, key = reader) => {
    const answer = await h.call("identities.listIdentities", body, { key });
    expect(answer.status, answer.text).toBe(200);
    return v.parse(Page, answer.json);
  };

  beforeAll(() => {
    workspaceId = h.workspace();
    reader = h.rootKey(["identity.*.read_identity"], workspaceId);
    for (let i = 0; i < 15; i++) {
      const externalId = `test_user_${i}_${Math.random().toString(36).slice(2)}`;
      externalIds.push(externalId);
      identity(workspaceId, externalId, {
        meta: { plan: "pro" },
        ratelimits: i % 2 === 0 ? [{ name: "api_calls", limit: 100, durationMs: 60_000, autoApply: false }] : [],
      });
    }
  });

  describe("200", () => {
    test("TestListIdentities_AuthorizesCanonicalURNPermission", async () => {
      const { data } = await list(
        {},
        h.rootKey([h.urn("projects/*/identities/*", "read_identity", workspaceId)], workspaceId),
      );
      expect(data).toHaveLength(externalIds.length);
    });

    test("basic listing with default settings", async () => {
      const { data } = await list();
      expect(data.map((row) => row.externalId).sort()).toEqual([...externalIds].sort());
      for (const [i, externalId] of externalIds.entries()) {
        const row = data.find((listed) => listed.externalId === externalId);
        if (i % 2 === 0)
          expect(row?.ratelimits).toEqual([
            expect.objectContaining({ name: "api_calls", limit: 100, duration: 60_000 }),
          ]);
      }
    });

    test("deleted identities are excluded", async () => {
      const deletedId = identity(workspaceId, "test_deleted_user", { meta: { plan: "pro" } });
      deleteIdentity(server.admin.db, workspaceId, deletedId);
      expect((await list()).data.map((row) => row.externalId)).not.toContain("test_deleted_user");
    });

    test("with custom limit", async () => {
      expect((await list({ limit: 5 })).data).toHaveLength(5);
    });

    test("with pagination", async () => {
      const first = await list({ limit: 7 });
      expect(first.data).toHaveLength(7);
      expect(first.pagination.hasMore).toBe(true);
      const second = await list({ limit: 7, cursor: first.pagination.cursor });
      expect(second.data.length).toBeGreaterThan(0);
      expect(second.data.filter((row) => first.data.some((seen) => seen.externalId === row.externalId))).toEqual([]);
    });

    test("identities with Unicode characters", async () => {
      const meta = { name: "名字", description: "这是一个测试用户 with 英文 and emoji 👍👨‍👩‍👧‍👦🇯🇵" };
      identity(workspaceId, "unicode-user-测试-🔑", { meta });
      expect((await list()).data.find((row) => row.externalId === "unicode-user-测试-🔑")?.meta).toEqual(meta);
    });

    test("list with exactly one identity", async () => {
      const single = h.workspace();
      identity(single, "test_single_user", { meta: { plan: "pro" } });
      const page = await list({}, h.rootKey(["identity.*.read_identity"], single));
      expect(page.data.map((row) => row.externalId)).toEqual(["test_single_user"]);
      expect(page.pagination).toEqual({ hasMore: false });
    });

    describe("search", () => {
      let key: string;
      let bob: string;
      beforeAll(() => {
        const search = h.workspace();
        key = h.rootKey(["identity.*.read_identity"], search);
        identity(search, "acme_alice");
        bob = identity(search, "acme_bob");
        identity(search, "discount_100%_user");
      });
      const found = async (search: string) => (await list({ search }, key)).data.map((row) => row.externalId).sort();

      test("matches external id substring", async () => expect(await found("alice")).toEqual(["acme_alice"]));
      test("matches identity id substring", async () => expect(await found(bob)).toEqual(["acme_bob"]));
      test("is case insensitive", async () => {
        expect(await found("ACME_ALICE")).toEqual(["acme_alice"]);
        expect(await found("Acme")).toEqual(["acme_alice", "acme_bob"]);
      });
      test("wildcards match literally", async () => {
        expect(await found("100%")).toEqual(["discount_100%_user"]);
        expect(await found("b_b")).toEqual([]);
      });
      test("no matches returns empty list", async () => expect(await found("does-not-exist")).toEqual([]));
      test("whitespace-only search returns all", async () =>
        expect(await found("   ")).toEqual(["acme_alice", "acme_bob", "discount_100%_user"]));
    });

    test("verify complete response structure", async () => {
      for (const row of (await list()).data) {
        expect(row.externalId).not.toBe("");
        const limits = server.admin.db
          .prepare("SELECT count(*) FROM identity_ratelimits WHERE identity_id = ?")
          .pluck()
          .get(row.id);
        expect(row.ratelimits?.length ?? 0).toBe(limits);
      }
    });
  });

  describe("400", () => {
    test.each([
      ["negative limit", { limit: -10 }],
      ["zero limit", { limit: 0 }],
      ["excessive limit value", { limit: 1000 }],
      ["search exceeding max length", { search: "a".repeat(257) }],
      ["limit at boundary (200)", { limit: 200 }],
    ])("%s", async (_, body) => {
      const error = errorOf(await h.call("identities.listIdentities", body, { key: reader }));
      expect(error.status).toBe(400);
      expect(error.type).toContain("invalid_input");
    });

    test("invalid cursor format", async () => {
      // The real test accepts a 400 or a 200: a cursor here is the last id seen, so any string reads on from it.
      expect(
        (await h.call("identities.listIdentities", { cursor: "invalid_cursor_format" }, { key: reader })).status,
      ).toBe(200);
    });

    test("malformed JSON body", async () => {
      expect(
        (await h.call("identities.listIdentities", '{"limit": 5, "cursor": "missing_quote_here}', { key: reader }))
          .status,
      ).toBe(400);
    });
  });

  describe("401", () => {
    test("missing Authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await h.call("identities.listIdentities", {}, "none")).status).toBe(401);
    });

    test("malformed Authorization header", async () => {
      expect(
        errorOf(await h.call("identities.listIdentities", {}, { authorization: "InvalidFormat xyz" })).status,
      ).toBe(400);
    });

    test("invalid root key (served differently: 401, as every other route's test of an unknown root key)", async () => {
      expect(
        errorOf(await h.call("identities.listIdentities", {}, { authorization: "Bearer invalid_key" })).status,
      ).toBe(401);
    });
  });

  describe("403", () => {
    let prodId: string;
    beforeAll(() => {
      identity(workspaceId, "test_user_default", { meta: {} });
      prodId = identity(workspaceId, "test_user_prod", { meta: {} });
      identity(workspaceId, "test_user_staging", { meta: {} });
    });

    test("no permission to read any identity", async () => {
      const error = errorOf(await h.call("identities.listIdentities", {}, { key: h.rootKey([], workspaceId) }));
      expect(error.status).toBe(403);
      expect(error.type).toMatch(/\/authorization\/insufficient_permissions$/);
      expect(error.detail).toContain("Missing one of these permissions");
    });

    // Both real tests give the root key identity.*.read_identity; each checks its own part of what it sees.
    test("with permission for only specific environment", async () => {
      const page = await list({}, h.rootKey(["identity.*.read_identity"], workspaceId));
      expect(page.data.map((row) => row.externalId)).toContain("test_user_prod");
    });

    test("with wildcard permission", async () => {
      const page = await list({}, h.rootKey(["identity.*.read_identity"], workspaceId));
      expect(page.data.length).toBeGreaterThanOrEqual(3);
      expect(page.data.map((row) => row.externalId)).toEqual(
        expect.arrayContaining(["test_user_default", "test_user_prod", "test_user_staging"]),
      );
    });

    test("with exact legacy permission and targeted search", async () => {
      const page = await list(
        { search: "test_user_prod" },
        h.rootKey([`identity.${prodId}.read_identity`], workspaceId),
      );
      expect(page.data.map((row) => row.id)).toEqual([prodId]);
    });
  });

  test("cannot access identities from another workspace", async () => {
    identity(h.workspace(), "user_in_workspace_b", { meta: {} });
    expect((await list()).data.map((row) => row.externalId)).not.toContain("user_in_workspace_b");
  });

  describe("TestSearchAtScale (1,000 identities where the real test seeds 1,000,000)", () => {
    let key: string;
    beforeAll(() => {
      const scale = h.workspace();
      key = h.rootKey(["identity.*.read_identity"], scale);
      const insert = server.admin.db.prepare(
        "INSERT INTO identities (id, workspace_id, external_id, created_at) VALUES (?, ?, ?, 0)",
      );
      server.admin.db.transaction(() => {
        for (let n = 1; n <= 1000; n++) {
          const digits = String(n).padStart(9, "0");
          insert.run(`id_bench_${digits}`, scale, `user_bench_${digits}`);
        }
      })();
    });

    test.each([
      ["no search", "", 100],
      ["selective hit", "bench_000000042", 1],
      ["partial page hit", "bench_00000004", 10],
      ["broad hit", "user_bench", 100],
      ["miss", "does-not-exist", 0],
    ])("%s", async (_, search, rows) => {
      expect((await list(search === "" ? {} : { search }, key)).data).toHaveLength(rows);
    });
  });
});
