import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createKeyMigration } from "../../../server/db/key-migrations";
import { newId } from "../../../server/db/ids";
import { hashSecret } from "../../../server/keys/secrets";
import { callApi } from "../http";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, prefixedApiKey, realHarness, type RealHarness } from "./real-harness";

/**
 * The real service's route tests of keys.verifyKey (svc/api/routes/v2_keys_verify_key/*_test.go), replayed over HTTP:
 * each test is named as the real t.Run it replays. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let rootKey: string;
let apiId: string;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  rootKey = h.rootKey(["api.*.verify_key"]);
  apiId = h.api();
});

afterAll(() => server.close());

const verify = (body: unknown, key = rootKey) => h.call("keys.verifyKey", body, { key });

function verdict(answer: Awaited<ReturnType<typeof verify>>): Record<string, unknown> {
  const data = dataOf(answer);
  if (typeof data !== "object" || data === null) throw new Error("no verdict");
  return { ...data };
}

describe("200", () => {
  test("verifies key as valid", async () => {
    const { secret } = h.key(apiId);
    expect(verdict(await verify({ key: secret }))).toMatchObject({ valid: true, code: "VALID" });
  });

  test("verifies expired key as valid and then invalid", async () => {
    const { secret } = h.key(apiId, { expires: Date.now() - 1000 });
    expect(verdict(await verify({ key: secret }))).toMatchObject({ valid: false, code: "EXPIRED" });
  });

  test("with ip whitelist", async () => {
    const { secret } = h.key(h.api(h.workspaceId, { ipWhitelist: ["123.123.123.123"] }));
    const from = async (address: string) =>
      verdict(
        await callApi(server, {
          path: "/v2/keys.verifyKey",
          key: rootKey,
          body: { key: secret },
          headers: { "x-forwarded-for": address },
        }),
      );
    expect(await from("192.168.1.1")).toMatchObject({ valid: false, code: "FORBIDDEN" });
    expect(await from("123.123.123.123")).toMatchObject({ valid: true, code: "VALID" });
  });

  test("this server's own check: with an IP whitelist, a call whose address is unknown is FORBIDDEN; the first forwarded address counts", async () => {
    const { secret } = h.key(h.api(h.workspaceId, { ipWhitelist: ["203.0.113.7", "2001:db8::1"] }));
    const verifyWith = async (headers: Record<string, string>) =>
      verdict(await callApi(server, { path: "/v2/keys.verifyKey", key: rootKey, body: { key: secret }, headers }));
    // In-process, no connection: no address.
    expect(await verifyWith({})).toMatchObject({ valid: false, code: "FORBIDDEN" });
    expect(await verifyWith({ "x-forwarded-for": "203.0.113.7:4711, 10.0.0.1" })).toMatchObject({ valid: true });
    expect(await verifyWith({ "x-forwarded-for": "10.0.0.1, 203.0.113.7" })).toMatchObject({ code: "FORBIDDEN" });
    expect(await verifyWith({ "x-forwarded-for": "[2001:db8::1]:443" })).toMatchObject({ valid: true });
  });

  test("disabled key", async () => {
    const { secret } = h.key(apiId, { enabled: false });
    expect(verdict(await verify({ key: secret }))).toMatchObject({ valid: false, code: "DISABLED" });
  });

  test("allowed default credit cost / exceeding with default credit cost", async () => {
    const { secret } = h.key(apiId, { credits: 1 });
    expect(verdict(await verify({ key: secret }))).toMatchObject({ valid: true, credits: 0 });
    expect(verdict(await verify({ key: secret }))).toMatchObject({ valid: false, code: "USAGE_EXCEEDED" });
  });

  test("allowed custom credit cost / exceeding with custom credit cost", async () => {
    const { secret } = h.key(apiId, { credits: 10 });
    expect(verdict(await verify({ key: secret, credits: { cost: 4 } }))).toMatchObject({ valid: true, credits: 6 });
    expect(verdict(await verify({ key: secret, credits: { cost: 7 } }))).toMatchObject({
      valid: false,
      code: "USAGE_EXCEEDED",
    });
  });

  test("allow credits 0 even when remaining 0", async () => {
    const { secret } = h.key(apiId, { credits: 0 });
    expect(verdict(await verify({ key: secret, credits: { cost: 0 } }))).toMatchObject({ valid: true, code: "VALID" });
  });

  test("key with permissions: with direct permission valid, missing permissions", async () => {
    const { secret } = h.key(apiId, { permissions: ["documents.read"] });
    expect(verdict(await verify({ key: secret, permissions: "documents.read" }))).toMatchObject({ valid: true });
    expect(verdict(await verify({ key: secret, permissions: "documents.write" }))).toMatchObject({
      code: "INSUFFICIENT_PERMISSIONS",
    });
  });

  test("with role permission valid", async () => {
    server.admin.db
      .prepare("INSERT INTO roles (id, workspace_id, name, permissions, created_at) VALUES (?, ?, ?, ?, ?)")
      .run("role_realtest", h.workspaceId, "test-role", JSON.stringify(["domain.write"]), Date.now());
    const { secret } = h.key(apiId, { roles: ["test-role"] });
    const data = verdict(await verify({ key: secret, permissions: "domain.write" }));
    expect(data).toMatchObject({ valid: true, code: "VALID", permissions: ["domain.write"] });
  });

  test("with wildcard permission query", async () => {
    const { secret } = h.key(apiId, { permissions: ["api.*", "api.edit"] });
    expect(verdict(await verify({ key: secret, permissions: "api.* OR api.edit" }))).toMatchObject({ valid: true });
  });

  test("with complex permissions query", async () => {
    const { secret } = h.key(apiId, { permissions: ["a.read", "b.write"] });
    expect(
      verdict(await verify({ key: secret, permissions: "(a.read OR c.read) AND (b.write OR d.write)" })),
    ).toMatchObject({ valid: true });
  });

  test("with colon namespace permissions / with mixed characters including colons and asterisks", async () => {
    const { secret } = h.key(apiId, { permissions: ["api:v1:read", "files.*"] });
    expect(verdict(await verify({ key: secret, permissions: "api:v1:read AND files.*" }))).toMatchObject({
      valid: true,
    });
  });

  test("with large permissions query (20+ permissions)", async () => {
    const names = Array.from({ length: 25 }, (_, index) => `perm.${index}`);
    const { secret } = h.key(apiId, { permissions: names });
    expect(verdict(await verify({ key: secret, permissions: names.join(" AND ") }))).toMatchObject({ valid: true });
  });

  test("key with auto applied ratelimit", async () => {
    const { secret } = h.key(apiId, {
      ratelimits: [{ name: "requests", limit: 1, durationMs: 3_600_000, autoApply: true }],
    });
    expect(verdict(await verify({ key: secret }))).toMatchObject({ valid: true });
    expect(verdict(await verify({ key: secret }))).toMatchObject({ valid: false, code: "RATE_LIMITED" });
  });

  test("key with specified ratelimit", async () => {
    const { secret } = h.key(apiId, {
      ratelimits: [{ name: "tokens", limit: 2, durationMs: 3_600_000, autoApply: false }],
    });
    expect(verdict(await verify({ key: secret, ratelimits: [{ name: "tokens", cost: 2 }] }))).toMatchObject({
      valid: true,
    });
    expect(verdict(await verify({ key: secret, ratelimits: [{ name: "tokens" }] }))).toMatchObject({
      code: "RATE_LIMITED",
    });
  });

  test("key with custom ratelimit", async () => {
    const { secret } = h.key(apiId);
    expect(
      verdict(await verify({ key: secret, ratelimits: [{ name: "custom", limit: 1, duration: 60_000 }] })),
    ).toMatchObject({ valid: true });
  });

  test("key with identity ratelimit", async () => {
    h.identityRateLimit("identity-limited", { name: "shared", limit: 1, durationMs: 3_600_000 });
    const { secret } = h.key(apiId, { externalId: "identity-limited" });
    expect(verdict(await verify({ key: secret, ratelimits: [{ name: "shared" }] }))).toMatchObject({ valid: true });
    expect(verdict(await verify({ key: secret, ratelimits: [{ name: "shared" }] }))).toMatchObject({
      code: "RATE_LIMITED",
    });
  });

  test("returns correct information (permissions and roles whether or not a query was sent)", async () => {
    const { keyId, secret } = h.key(apiId, {
      name: "informative",
      meta: { plan: "pro" },
      permissions: ["p.one"],
      roles: ["admin"],
    });
    expect(verdict(await verify({ key: secret }))).toMatchObject({
      valid: true,
      keyId,
      name: "informative",
      meta: { plan: "pro" },
      enabled: true,
      permissions: ["p.one"],
      roles: ["admin"],
    });
  });

  test("root key with wrong api permissions", async () => {
    const { secret } = h.key(apiId);
    const other = h.rootKey([`api.${h.api()}.verify_key`]);
    expect(verdict(await verify({ key: secret }, other))).toEqual({ valid: false, code: "NOT_FOUND" });
  });

  test("TestVerifyKeyWithURNPermission", async () => {
    const { keyId, secret } = h.key(apiId);
    const urnVerifier = h.rootKey([h.urn(`keyspaces/${apiId}/keys/${keyId}`, "verify_key")]);
    expect(verdict(await verify({ key: secret }, urnVerifier))).toMatchObject({ valid: true, code: "VALID" });
  });

  test("TestNoVerifyPermissionReturnsNotFound", async () => {
    const { secret } = h.key(apiId);
    expect(verdict(await verify({ key: secret }, h.rootKey(["api.*.read_key"])))).toEqual({
      valid: false,
      code: "NOT_FOUND",
    });
  });
});

describe("400", () => {
  test("missing key", async () => {
    expect((await verify({})).status).toBe(400);
  });

  test("invalid cost value", async () => {
    const { secret } = h.key(apiId);
    expect((await verify({ key: secret, ratelimits: [{ name: "requests", cost: -1 }] })).status).toBe(400);
  });

  test("invalid credits cost", async () => {
    const { secret } = h.key(apiId);
    expect((await verify({ key: secret, credits: { cost: -1 } })).status).toBe(400);
  });

  test.each([
    ["special characters", ["hello world!", "café", "key=value&foo=bar", "path/to/thing?query=1"]],
    ["unicode and emoji", ["日本語タグ", "émojis 🎉🚀", "Ünïcödé"]],
    ["spaces and whitespace", ["  leading", "trailing  ", "  both  ", "mid dle"]],
    ["max items boundary", Array.from({ length: 20 }, (_, index) => `tag-${index}`)],
  ])("tags accept any string values without pattern restriction: %s", async (_, tags) => {
    const { secret } = h.key(apiId);
    expect((await verify({ key: secret, tags })).status).toBe(200);
  });

  test.each([
    ["too many tags", Array.from({ length: 21 }, (_, index) => `tag-${index}`)],
    ["empty tag string", ["valid", ""]],
    ["tag exceeds max length", ["\u0000".repeat(513)]],
  ])("tags rejected when exceeding limits: %s", async (_, tags) => {
    const { secret } = h.key(apiId);
    expect((await verify({ key: secret, tags })).status).toBe(400);
  });

  test.each([
    [
      "missing operand",
      "permission_1 AND",
      "Unexpected end of query. Expected a permission identifier or opening parenthesis.",
    ],
    [
      "unmatched parenthesis",
      "(permission_1 AND permission_2",
      "Missing closing parenthesis ')' at position 30. Every opening parenthesis must have a matching closing parenthesis.",
    ],
    [
      "empty parentheses",
      "permission_1 AND ()",
      "Empty parentheses found at position 18. Parentheses must contain at least one permission or expression.",
    ],
    [
      "operator at start",
      "AND permission_1",
      "Unexpected token 'AND' at position 0. Expected a permission identifier or opening parenthesis.",
    ],
  ])("invalid permissions query syntax: %s", async (_, permissions, detail) => {
    const { secret } = h.key(apiId);
    const error = errorOf(await verify({ key: secret, permissions }));
    expect(error.status).toBe(400);
    expect(error.detail).toContain(detail);
    expect(error.type).toMatch(/\/errors\/user\/bad_request\/permissions_query_syntax_error$/);
  });
});

describe("401", () => {
  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    const error = errorOf(await h.call("keys.verifyKey", { key: "x" }, "none"));
    expect(error.status).toBe(401);
    expect(error.type).toMatch(/\/authentication\/missing$/);
  });

  test("invalid bearer token", async () => {
    expect((await verify({ key: "x" }, "ks_root_unknown")).status).toBe(401);
  });

  test("malformed authorization header", async () => {
    expect((await h.call("keys.verifyKey", { key: "x" }, { authorization: "malformed_header" })).status).toBe(400);
  });

  test("requestId is returned in error response", async () => {
    const answer = await verify({ key: "x" }, "ks_root_unknown");
    expect(answer.text).toMatch(/"requestId":"req_[1-9A-HJ-NP-Za-km-z]+"/);
  });
});

describe("403", () => {
  test("root key with verify permission for different api returns 200 NOT_FOUND (not 403)", async () => {
    const { secret } = h.key(apiId);
    const answer = await verify({ key: secret }, h.rootKey([`api.${h.api()}.verify_key`]));
    expect(answer.status).toBe(200);
    expect(verdict(answer)).toMatchObject({ valid: false, code: "NOT_FOUND" });
  });

  test("root key with wildcard verify permission returns 200 VALID", async () => {
    const { secret } = h.key(apiId);
    expect(verdict(await verify({ key: secret }, h.rootKey(["api.*.verify_key"])))).toMatchObject({
      valid: true,
      code: "VALID",
    });
  });

  test("root key with specific api verify permission returns 200 VALID", async () => {
    const { secret } = h.key(apiId);
    expect(verdict(await verify({ key: secret }, h.rootKey([`api.${apiId}.verify_key`])))).toMatchObject({
      valid: true,
      code: "VALID",
    });
  });
});

describe("404", () => {
  test("key not found", async () => {
    expect(verdict(await verify({ key: "test_unknownkey" }))).toEqual({ valid: false, code: "NOT_FOUND" });
  });

  test("soft deleted key", async () => {
    const { keyId, secret } = h.key(apiId);
    expect((await h.call("keys.deleteKey", { keyId }, { key: h.rootKey(["api.*.delete_key"]) })).status).toBe(200);
    expect(verdict(await verify({ key: secret }))).toEqual({ valid: false, code: "NOT_FOUND" });
  });

  test("key belongs to different workspace", async () => {
    const otherApi = h.api(h.workspace());
    const { secret } = h.key(otherApi);
    expect(verdict(await verify({ key: secret }))).toEqual({ valid: false, code: "NOT_FOUND" });
  });
});

describe("412", () => {
  test("with identity - missing ratelimit", async () => {
    const identityId = h.identityRateLimit("test-missing-ratelimit", {
      name: "existing-ratelimit",
      limit: 100,
      durationMs: 60_000,
    });
    const { keyId, secret } = h.key(apiId, { externalId: "test-missing-ratelimit" });
    const error = errorOf(await verify({ key: secret, ratelimits: [{ name: "does-not-exist" }] }));
    expect(error.status).toBe(412);
    expect(error.detail).toContain(
      `ratelimit 'does-not-exist' was requested but does not exist for key '${keyId}' nor identity`,
    );
    expect(error.detail).toContain(identityId);
    expect(error.detail).toContain("test-missing-ratelimit");
  });

  test("without identity - missing ratelimit", async () => {
    const { keyId, secret } = h.key(apiId, {
      ratelimits: [{ name: "existing-ratelimit", limit: 100, durationMs: 60_000, autoApply: false }],
    });
    const error = errorOf(await verify({ key: secret, ratelimits: [{ name: "does-not-exist" }] }));
    expect(error.status).toBe(412);
    expect(error.detail).toContain(
      `ratelimit 'does-not-exist' was requested but does not exist for key '${keyId}' and there is no identity connected`,
    );
  });

  test("invalid ratelimit configuration", async () => {
    const { secret } = h.key(apiId);
    expect(errorOf(await verify({ key: secret, ratelimits: [{ name: "missing_config", cost: 4 }] })).status).toBe(412);
  });
});

describe("ratelimit_response_test", () => {
  const RateLimitResults = v.object({
    ratelimits: v.array(
      v.object({
        name: v.string(),
        limit: v.number(),
        duration: v.number(),
        autoApply: v.boolean(),
        exceeded: v.boolean(),
        remaining: v.number(),
        reset: v.number(),
      }),
    ),
  });
  async function limits(secret: string, body: Record<string, unknown> = {}) {
    const data = verdict(await verify({ key: secret, ...body }));
    const byName = new Map(v.parse(RateLimitResults, data).ratelimits.map((limit) => [limit.name, limit]));
    return { code: data.code, byName };
  }

  test("rate limit response fields validation", async () => {
    const { secret } = h.key(apiId, {
      ratelimits: [{ name: "test-limit", limit: 5, durationMs: 60_000, autoApply: true }],
    });
    const before = Date.now();
    const { code, byName } = await limits(secret);
    const after = Date.now();
    expect(code).toBe("VALID");
    expect(byName.get("test-limit")).toMatchObject({
      limit: 5,
      duration: 60_000,
      autoApply: true,
      exceeded: false,
      remaining: 4,
    });
    // The window's end, after the verification: later than when it was asked for (the window may end before the
    // answer is read), at most a window after it was answered.
    expect(byName.get("test-limit")?.reset).toBeGreaterThan(before);
    expect(byName.get("test-limit")?.reset).toBeLessThanOrEqual(after + 60_000);
  });

  test("rate limit exceeded fields", async () => {
    const { secret } = h.key(apiId, {
      ratelimits: [{ name: "strict-limit", limit: 1, durationMs: 3_600_000, autoApply: true }],
    });
    expect((await limits(secret)).code).toBe("VALID");
    const { code, byName } = await limits(secret);
    expect(code).toBe("RATE_LIMITED");
    expect(byName.get("strict-limit")).toMatchObject({ exceeded: true, remaining: 0 });
  });

  test("custom rate limit with cost", async () => {
    const { secret } = h.key(apiId);
    const { code, byName } = await limits(secret, {
      ratelimits: [{ name: "custom", cost: 3, duration: 60_000, limit: 10 }],
    });
    expect(code).toBe("VALID");
    expect(byName.get("custom")).toMatchObject({ limit: 10, remaining: 7, autoApply: false });
  });

  test("multiple rate limits with accurate remaining counters", async () => {
    const { secret } = h.key(apiId, {
      ratelimits: [
        { name: "fast-limit", limit: 3, durationMs: 3_600_000, autoApply: true },
        { name: "slow-limit", limit: 10, durationMs: 7_200_000, autoApply: true },
      ],
    });
    for (const [fast, slow] of [
      [2, 9],
      [1, 8],
      [0, 7],
    ]) {
      const { code, byName } = await limits(secret);
      expect(code).toBe("VALID");
      expect([byName.get("fast-limit")?.remaining, byName.get("slow-limit")?.remaining]).toEqual([fast, slow]);
    }
    const { code, byName } = await limits(secret);
    expect(code).toBe("RATE_LIMITED");
    expect(byName.get("fast-limit")).toMatchObject({ remaining: 0, exceeded: true });
    // A denied request takes no token from the limit that still had room.
    expect(byName.get("slow-limit")).toMatchObject({ remaining: 7, exceeded: false });
  });

  test("identity rate limits with same config but different names are isolated", async () => {
    h.identityRateLimit("user_with_multiple_limits", {
      name: "api_requests",
      limit: 5,
      durationMs: 3_600_000,
      autoApply: true,
    });
    h.identityRateLimit("user_with_multiple_limits", {
      name: "data_access",
      limit: 5,
      durationMs: 3_600_000,
      autoApply: true,
    });
    const { secret } = h.key(apiId, { externalId: "user_with_multiple_limits" });
    for (let index = 0; index < 5; index += 1) {
      const { code, byName } = await limits(secret);
      expect(code).toBe("VALID");
      expect([byName.get("api_requests")?.remaining, byName.get("data_access")?.remaining]).toEqual([
        4 - index,
        4 - index,
      ]);
    }
    const { code, byName } = await limits(secret);
    expect(code).toBe("RATE_LIMITED");
    expect(byName.get("api_requests")).toMatchObject({ exceeded: true, remaining: 0 });
    expect(byName.get("data_access")).toMatchObject({ exceeded: true, remaining: 0 });
  });
});

// Windows are fixed: where a scenario exhausts a limit over several calls, its window is an hour (the real tests'
// are 10 s to 1 min), so that no window boundary falls between the calls on a slow machine.
describe("multilimit_test", () => {
  const limit = (name: string, limit: number, durationMs: number, autoApply = false) => ({
    name,
    limit,
    durationMs,
    autoApply,
  });
  const codeOf = async (secret: string, ratelimits?: unknown) =>
    verdict(await verify({ key: secret, ...(ratelimits !== undefined && { ratelimits }) })).code;

  test("without identities: returns valid with multiple limits", async () => {
    const { secret } = h.key(apiId, { ratelimits: [limit("10/10s", 10, 10_000), limit("1/1min", 1, 60_000)] });
    expect(
      await codeOf(secret, [
        { name: "10/10s", cost: 4 },
        { name: "1/1min", cost: 1 },
      ]),
    ).toBe("VALID");
  });

  test("without identities: returns RATE_LIMITED when one limit exceeded", async () => {
    const { secret } = h.key(apiId, {
      ratelimits: [limit("10/10s-test", 10, 10_000), limit("1/1min-test", 1, 60_000)],
    });
    expect(
      await codeOf(secret, [
        { name: "10/10s-test", cost: 4 },
        { name: "1/1min-test", cost: 2 },
      ]),
    ).toBe("RATE_LIMITED");
  });

  test("with identity - key precedence over identity: key limits take precedence and pass", async () => {
    h.identityRateLimit("test-precedence-pass", { name: "limit1", limit: 1, durationMs: 600_000 });
    h.identityRateLimit("test-precedence-pass", { name: "limit2", limit: 10, durationMs: 600_000 });
    const { secret } = h.key(apiId, { externalId: "test-precedence-pass", ratelimits: [limit("limit1", 4, 10_000)] });
    for (let index = 0; index < 3; index += 1)
      expect(await codeOf(secret, [{ name: "limit1" }, { name: "limit2" }])).toBe("VALID");
  });

  test("with identity - key precedence over identity: key limits take precedence and reject", async () => {
    h.identityRateLimit("test-precedence-reject", { name: "limit1-reject", limit: 10, durationMs: 600_000 });
    h.identityRateLimit("test-precedence-reject", { name: "limit2-reject", limit: 10, durationMs: 600_000 });
    const { secret } = h.key(apiId, {
      externalId: "test-precedence-reject",
      ratelimits: [limit("limit1-reject", 1, 3_600_000)],
    });
    const both = [{ name: "limit1-reject" }, { name: "limit2-reject" }];
    expect(await codeOf(secret, both)).toBe("VALID");
    expect(await codeOf(secret, both)).toBe("RATE_LIMITED");
  });

  test("with identity - key precedence over identity: fallback identity limits still reject", async () => {
    h.identityRateLimit("test-fallback", { name: "limit1-fallback", limit: 10, durationMs: 600_000 });
    h.identityRateLimit("test-fallback", { name: "limit2-fallback", limit: 2, durationMs: 600_000 });
    const { secret } = h.key(apiId, { externalId: "test-fallback", ratelimits: [limit("limit1-fallback", 4, 10_000)] });
    const both = [{ name: "limit1-fallback" }, { name: "limit2-fallback" }];
    expect(await codeOf(secret, both)).toBe("VALID");
    expect(await codeOf(secret, both)).toBe("VALID");
    expect(await codeOf(secret, both)).toBe("RATE_LIMITED");
  });

  test("with identity - shared rate limits across keys: rate limit is shared across multiple keys", async () => {
    h.identityRateLimit("test-shared", { name: "100per10m", limit: 5, durationMs: 600_000 });
    const first = h.key(apiId, { externalId: "test-shared" });
    const second = h.key(apiId, { externalId: "test-shared" });
    const shared = [{ name: "100per10m" }];
    for (let index = 0; index < 3; index += 1) expect(await codeOf(first.secret, shared)).toBe("VALID");
    for (let index = 0; index < 2; index += 1) expect(await codeOf(second.secret, shared)).toBe("VALID");
    expect(await codeOf(first.secret, shared)).toBe("RATE_LIMITED");
  });

  test("without specifying ratelimits in request: should use auto-applied default limit", async () => {
    const { secret } = h.key(apiId, { ratelimits: [limit("default-auto", 1, 3_600_000, true)] });
    expect(await codeOf(secret)).toBe("VALID");
    expect(await codeOf(secret)).toBe("RATE_LIMITED");
  });

  test("falls back to identity limits: should reject after identity limit hit", async () => {
    h.identityRateLimit("test-identity-fallback", { name: "tokens-identity", limit: 10, durationMs: 3_600_000 });
    h.identityRateLimit("test-identity-fallback", { name: "10_per_10m-identity", limit: 10, durationMs: 600_000 });
    const { secret } = h.key(apiId, { externalId: "test-identity-fallback" });
    expect(await codeOf(secret, [{ name: "tokens-identity", cost: 4 }, { name: "10_per_10m-identity" }])).toBe("VALID");
    expect(await codeOf(secret, [{ name: "tokens-identity", cost: 6 }, { name: "10_per_10m-identity" }])).toBe("VALID");
    expect(await codeOf(secret, [{ name: "tokens-identity", cost: 1 }, { name: "10_per_10m-identity" }])).toBe(
      "RATE_LIMITED",
    );
  });
});

describe("multiple_ratelimits_overcommit_test", () => {
  // The real test moves its harness's clock; this server's verifications read the clock it is given, still unless
  // moved, an hour into a 30-day window so that the monthly limit's fixed window holds the whole test.
  const MONTH = 2_592_000_000;
  let now = Date.now() - (Date.now() % MONTH) + 3_600_000;
  let clocked: InProcessServer;
  let ch: RealHarness;
  let verifier: string;

  beforeAll(() => {
    clocked = startInProcess({ clock: () => now });
    ch = realHarness(clocked);
    verifier = ch.rootKey(["api.*.verify_key"]);
  });

  afterAll(() => clocked.close());

  const Verdict = v.object({
    valid: v.boolean(),
    code: v.string(),
    ratelimits: v.optional(v.array(v.looseObject({ name: v.string(), exceeded: v.boolean(), remaining: v.number() }))),
  });
  const verifyClocked = async (secret: string) =>
    v.parse(Verdict, dataOf(await ch.call("keys.verifyKey", { key: secret }, { key: verifier })));

  test("monthly counter should be incremented when minute limit is hit", async () => {
    const { secret } = ch.key(ch.api(), {
      ratelimits: [
        { name: "requests-per-month", limit: 200, durationMs: MONTH, autoApply: true },
        { name: "requests-per-minute", limit: 12, durationMs: 60_000, autoApply: true },
      ],
    });
    for (let index = 0; index < 12; index += 1) expect((await verifyClocked(secret)).code).toBe("VALID");
    const refused = await verifyClocked(secret);
    expect(refused).toMatchObject({ valid: false, code: "RATE_LIMITED" });
    const limit = (name: string) => refused.ratelimits?.find((checked) => checked.name === name);
    expect(limit("requests-per-minute")?.exceeded).toBe(true);
    expect(limit("requests-per-month")).toMatchObject({ exceeded: false, remaining: 188 });
  });

  test("sequential ratelimit checks should not leak counters", async () => {
    const { secret } = ch.key(ch.api(), {
      ratelimits: [
        { name: "test-minute", limit: 5, durationMs: 60_000, autoApply: true },
        { name: "test-monthly", limit: 50, durationMs: MONTH, autoApply: true },
      ],
    });
    let valid = 0;
    let rateLimited = 0;
    for (let cycle = 0; cycle < 10 && valid < 50; cycle += 1) {
      for (let i = 0; i < 6 && valid < 50; i += 1) {
        if ((await verifyClocked(secret)).valid) valid += 1;
        else {
          rateLimited += 1;
          break;
        }
      }
      // Two minutes on: the minute window is a fresh one.
      now += 2 * 60_000;
    }
    expect(valid).toBe(50);
    expect(rateLimited).toBeGreaterThan(0);
    const last = await verifyClocked(secret);
    expect(last).toMatchObject({ valid: false, code: "RATE_LIMITED" });
    expect(last.ratelimits?.find((limit) => limit.name === "test-monthly")?.exceeded).toBe(true);
  });
});

describe("migration_test and resend_demo_test", () => {
  const SEAM = "github.com/seamapi/prefixed-api-key";
  const stored = (hash: string) =>
    server.admin.db
      .prepare<[string], { id: string; hash: string; start: string; pending: string | null }>(
        "SELECT id, hash, start, pending_migration_id AS pending FROM keys WHERE hash = ?",
      )
      .get(hash);

  test("TestKeyVerificationWithMigration: verifies key with migration ID", async () => {
    const key = h.rootKey(["api.*.verify_key", "api.*.create_key"]);
    const migrationId = createKeyMigration(server.admin.db, h.workspaceId, SEAM);
    const resendKey = prefixedApiKey("re");
    const migrated = v.parse(
      v.object({ migrated: v.array(v.object({ keyId: v.string() })), failed: v.array(v.string()) }),
      dataOf(
        await h.call(
          "keys.migrateKeys",
          { apiId, migrationId, keys: [{ hash: resendKey.longTokenHash, enabled: true }] },
          { key },
        ),
      ),
    );
    expect(migrated.failed).toEqual([]);
    expect(migrated.migrated).toHaveLength(1);
    const keyId = migrated.migrated[0]?.keyId;

    expect(verdict(await verify({ key: resendKey.token, migrationId }, key))).toMatchObject({
      valid: true,
      code: "VALID",
    });
    expect(verdict(await verify({ key: resendKey.token }, key))).toMatchObject({ valid: true, code: "VALID" });

    const row = stored(hashSecret(resendKey.token));
    expect(row?.id).toBe(keyId);
    expect(row?.pending).toBeNull();
    expect(row?.hash).not.toBe(resendKey.longTokenHash);
    expect(row?.start).toBe(resendKey.token.slice(0, 7));
  });

  test("TestResendDemo: verifies key with migration ID", async () => {
    const migrationId = createKeyMigration(server.admin.db, h.workspaceId, SEAM);
    const resendKey = prefixedApiKey("re");
    server.admin.db
      .prepare(
        `INSERT INTO keys (id, workspace_id, api_id, name, start, hash, enabled, created_at, pending_migration_id)
         VALUES (?, ?, ?, '', '', ?, 1, ?, ?)`,
      )
      .run(newId("key"), h.workspaceId, apiId, resendKey.longTokenHash, Date.now(), migrationId);
    expect(verdict(await verify({ key: resendKey.token, migrationId }))).toMatchObject({ valid: true });
    expect(verdict(await verify({ key: resendKey.token }))).toMatchObject({ valid: true });
  });

  test("this server's own check: a migrated key is found by nothing but its migration until its first verification", async () => {
    const migrationId = createKeyMigration(server.admin.db, h.workspaceId, SEAM);
    const other = createKeyMigration(server.admin.db, h.workspaceId, SEAM);
    const seam = prefixedApiKey("acme");
    h.key(apiId);
    server.admin.db
      .prepare(
        `INSERT INTO keys (id, workspace_id, api_id, name, start, hash, enabled, created_at, pending_migration_id)
         VALUES (?, ?, ?, '', '', ?, 1, ?, ?)`,
      )
      .run(newId("key"), h.workspaceId, apiId, seam.longTokenHash, Date.now(), migrationId);
    expect(verdict(await verify({ key: seam.token }))).toMatchObject({ valid: false, code: "NOT_FOUND" });
    expect(verdict(await verify({ key: seam.token, migrationId: other }))).toMatchObject({ code: "NOT_FOUND" });
    expect(verdict(await verify({ key: seam.token, migrationId: "mig_unknown" }))).toMatchObject({ code: "NOT_FOUND" });
    const malformed = errorOf(await verify({ key: "no-underscores-here", migrationId }));
    expect(malformed).toMatchObject({ status: 400, detail: "Invalid key format" });
    expect(verdict(await verify({ key: seam.token, migrationId }))).toMatchObject({ valid: true, code: "VALID" });
  });

  test("this server's own check: the next apis.listKeys shows a re-hashed key's start", async () => {
    const ownApi = h.api();
    const migrationId = createKeyMigration(server.admin.db, h.workspaceId, SEAM);
    const seam = prefixedApiKey("acme");
    const key = h.rootKey(["api.*.verify_key", "api.*.create_key", "api.*.read_key", "api.*.read_api"]);
    await h.call("keys.migrateKeys", { apiId: ownApi, migrationId, keys: [{ hash: seam.longTokenHash }] }, { key });
    const starts = async () =>
      v
        .parse(
          v.array(v.object({ start: v.string() })),
          dataOf(await h.call("apis.listKeys", { apiId: ownApi }, { key })),
        )
        .map((listed) => listed.start);
    expect(await starts()).toEqual([""]);
    expect(verdict(await verify({ key: seam.token, migrationId }, key))).toMatchObject({ valid: true });
    expect(await starts()).toEqual([seam.token.slice(0, 9)]);
  });
});
