import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createKeyStore, type KeyStore } from "../../../server/db/key-store";
import { changeRootKey, createRootKey } from "../../../server/db/root-keys";
import { createApi } from "../../../server/db/apis";
import { createIdentity } from "../../../server/db/identities";
import { createRole, grantRole } from "../../../server/db/rbac";
import { createWorkspace } from "../../../server/db/workspaces";
import { keyInserter, type NewKey } from "../../../server/db/keys";
import { openDatabase } from "../../../server/db/open";
import { latestRefillMoment } from "../../../server/keys/credits";
import { parsePermissionQuery, type PermissionQuery } from "../../../server/keys/permission-query";
import { createKeyRateLimiter, type KeyRateLimiter } from "../../../server/keys/key-rate-limiter";
import { verifyKey, type VerifyRequest } from "../../../server/keys/verify-key";
import { hashSecret } from "../../../server/keys/secrets";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 15, 12);
const VERIFY_ALL = JSON.stringify(["api.*.verify_key"]);

let db: Database;
let store: KeyStore;
let limiter: KeyRateLimiter;
let workspaceId: string;
let apiId: string;
let requests = 0;

beforeEach(() => {
  db = openDatabase(mkdtempSync(join(tmpdir(), "keyscope-verify-")));
  store = createKeyStore(db);
  limiter = createKeyRateLimiter();
  workspaceId = createWorkspace(db, "test", T0 - 100 * DAY);
  apiId = createApi(db, workspaceId, "api", T0 - 100 * DAY);
});

afterEach(() => {
  db.close();
});

function addKey(secret: string, fields: Partial<NewKey> = {}): string {
  return keyInserter(db)({
    workspaceId,
    apiId,
    name: secret,
    secret,
    enabled: true,
    createdAt: T0 - 50 * DAY,
    ...fields,
  });
}

function verify(
  secret: string,
  at: number,
  extra: Omit<VerifyRequest, "keyHash"> = {},
  caller = { workspaceId, permissions: VERIFY_ALL },
) {
  requests += 1;
  const result = verifyKey(
    { keyHash: hashSecret(secret), ...extra },
    { store, limiter, caller, requestId: `req_test${requests}`, now: at, region: "test" },
  );
  if (result.kind !== "verified") throw new Error(`expected a verification, got ${result.kind}`);
  return result.data;
}

describe("credits", () => {
  test("a daily refill is applied lazily at the first verification of a new day, to the refill amount", () => {
    addKey("sk_daily", { credits: 2, refill: { interval: "daily", amount: 3 } });
    // The key was made 50 days ago and never refilled: the first verification refills it.
    expect(verify("sk_daily", T0)).toMatchObject({ code: "VALID", credits: 2 });
    expect(verify("sk_daily", T0 + 1000)).toMatchObject({ code: "VALID", credits: 1 });
    expect(verify("sk_daily", T0 + 2000)).toMatchObject({ code: "VALID", credits: 0 });
    expect(verify("sk_daily", T0 + 3000)).toMatchObject({ code: "USAGE_EXCEEDED", valid: false, credits: 0 });
    expect(verify("sk_daily", T0 + DAY)).toMatchObject({ code: "VALID", credits: 2 });
  });

  test("a cost above the remaining credits spends nothing; cost 0 spends nothing and passes", () => {
    addKey("sk_costly", { credits: 3 });
    expect(verify("sk_costly", T0, { credits: { cost: 4 } })).toMatchObject({ code: "USAGE_EXCEEDED", credits: 3 });
    expect(verify("sk_costly", T0, { credits: { cost: 0 } })).toMatchObject({ code: "VALID", credits: 3 });
    expect(verify("sk_costly", T0, { credits: { cost: 3 } })).toMatchObject({ code: "VALID", credits: 0 });
    const spent = db.prepare("SELECT spent_credits FROM key_verifications ORDER BY seq").pluck().all();
    expect(spent).toEqual([0, 0, 3]);
  });

  test("a monthly refill falls on its day, or on the month's last day when the month is shorter", () => {
    expect(latestRefillMoment("monthly", 31, Date.UTC(2026, 1, 28, 10))).toBe(Date.UTC(2026, 1, 28));
    expect(latestRefillMoment("monthly", 31, Date.UTC(2026, 1, 27, 10))).toBe(Date.UTC(2026, 0, 31));
    expect(latestRefillMoment("monthly", 1, Date.UTC(2026, 0, 1, 0))).toBe(Date.UTC(2026, 0, 1));
    expect(latestRefillMoment("daily", 1, Date.UTC(2026, 0, 1, 23))).toBe(Date.UTC(2026, 0, 1));
  });
});

describe("rate limits", () => {
  test("an auto-applied limit refuses past its limit and opens again as the window slides; a refused call takes no token", () => {
    addKey("sk_limited", { ratelimits: [{ name: "requests", limit: 2, durationMs: 60_000, autoApply: true }] });
    const start = Math.floor(T0 / 60_000) * 60_000;
    expect(verify("sk_limited", start).ratelimits).toEqual([
      expect.objectContaining({
        name: "requests",
        exceeded: false,
        remaining: 1,
        reset: start + 60_000,
        autoApply: true,
      }),
    ]);
    expect(verify("sk_limited", start + 1).code).toBe("VALID");
    expect(verify("sk_limited", start + 2)).toMatchObject({
      code: "RATE_LIMITED",
      ratelimits: [expect.objectContaining({ exceeded: true, remaining: 0 })],
    });
    // The real service's sliding window: at the next window's start the previous one still counts in full, halfway
    // through it counts half (2 × 0.5 = 1 of the limit of 2).
    expect(verify("sk_limited", start + 60_000).code).toBe("RATE_LIMITED");
    expect(verify("sk_limited", start + 90_000)).toMatchObject({
      code: "VALID",
      ratelimits: [expect.objectContaining({ exceeded: false, remaining: 0, reset: start + 120_000 })],
    });
  });

  test("a named limit is checked only when asked for, with its overrides; an unknown name without limit and duration is refused", () => {
    addKey("sk_named", { ratelimits: [{ name: "expensive", limit: 1, durationMs: 60_000, autoApply: false }] });
    expect(verify("sk_named", T0).ratelimits).toBeUndefined();
    expect(verify("sk_named", T0, { ratelimits: [{ name: "expensive" }] }).code).toBe("VALID");
    expect(verify("sk_named", T0, { ratelimits: [{ name: "expensive" }] }).code).toBe("RATE_LIMITED");
    expect(verify("sk_named", T0, { ratelimits: [{ name: "expensive", limit: 5 }] }).code).toBe("VALID");
    expect(verify("sk_named", T0, { ratelimits: [{ name: "adhoc", limit: 1, duration: 1000 }] }).code).toBe("VALID");

    const unknown = verifyKey(
      { keyHash: hashSecret("sk_named"), ratelimits: [{ name: "nope" }] },
      {
        store,
        limiter,
        caller: { workspaceId, permissions: VERIFY_ALL },
        requestId: "req_unknown",
        now: T0,
        region: "test",
      },
    );
    expect(unknown).toEqual({
      kind: "unknown_ratelimit",
      index: 0,
      name: "nope",
      keyId: expect.stringMatching(/^key_/) as string,
    });
  });
});

function query(text: string): PermissionQuery {
  const parsed = parsePermissionQuery(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.query;
}

describe("roles", () => {
  test("a key's permissions are its own and its roles': a role's permission turns INSUFFICIENT_PERMISSIONS into VALID", () => {
    createRole(db, workspaceId, "reader", []);
    const keyId = addKey("sk_role", { permissions: ["users.view"], roles: ["reader"] });
    expect(verify("sk_role", T0, { permissions: query("documents.read AND users.view") })).toMatchObject({
      code: "INSUFFICIENT_PERMISSIONS",
      permissions: ["users.view"],
      roles: ["reader"],
    });

    grantRole(db, workspaceId, "reader", ["documents.read"]);
    expect(verify("sk_role", T0, { permissions: query("documents.read AND users.view") })).toMatchObject({
      code: "VALID",
      permissions: ["documents.read", "users.view"],
      roles: ["reader"],
    });
    // The Key object lists them too, as keys.getKey does on the real service.
    expect(store.findKeyById(keyId, workspaceId)).toMatchObject({
      permissions: '["documents.read","users.view"]',
      roles: '["reader"]',
    });
  });

  test("another workspace's role of the same name grants nothing", () => {
    const other = createWorkspace(db, "other");
    createRole(db, other, "admin", ["admin.write"]);
    addKey("sk_foreign_role", { roles: ["admin"] });
    expect(verify("sk_foreign_role", T0, { permissions: query("admin.write") }).code).toBe("INSUFFICIENT_PERMISSIONS");
  });
});

describe("identity rate limits", () => {
  const PER_MINUTE = 60_000;
  const start = Math.floor(T0 / PER_MINUTE) * PER_MINUTE;

  test("an identity's auto-applied limit is one counter shared by all its keys, reported with the identity", () => {
    createIdentity(db, {
      workspaceId,
      externalId: "org_1",
      ratelimits: [{ name: "requests", limit: 2, durationMs: PER_MINUTE, autoApply: true }],
    });
    addKey("sk_org_a", { externalId: "org_1" });
    addKey("sk_org_b", { externalId: "org_1" });

    const first = verify("sk_org_a", start);
    expect(first.code).toBe("VALID");
    expect(first.identity).toMatchObject({
      externalId: "org_1",
      ratelimits: [expect.objectContaining({ name: "requests", limit: 2, duration: PER_MINUTE, autoApply: true })],
    });
    expect(first.ratelimits).toEqual([
      expect.objectContaining({ name: "requests", exceeded: false, remaining: 1, autoApply: true }),
    ]);
    expect(verify("sk_org_b", start + 1).code).toBe("VALID");
    expect(verify("sk_org_a", start + 2)).toMatchObject({
      code: "RATE_LIMITED",
      ratelimits: [expect.objectContaining({ exceeded: true })],
    });
    expect(verify("sk_org_b", start + 3).code).toBe("RATE_LIMITED");
    expect(verify("sk_org_b", start + PER_MINUTE).code).toBe("RATE_LIMITED");
    expect(verify("sk_org_b", start + 2 * PER_MINUTE).code).toBe("VALID");
  });

  test("a named identity limit is checked only when asked for; the key's own limit of the same name takes precedence", () => {
    createIdentity(db, {
      workspaceId,
      externalId: "org_2",
      ratelimits: [
        { name: "tokens", limit: 1, durationMs: PER_MINUTE, autoApply: false },
        { name: "requests", limit: 1, durationMs: PER_MINUTE, autoApply: true },
      ],
    });
    addKey("sk_org_own", {
      externalId: "org_2",
      ratelimits: [{ name: "requests", limit: 5, durationMs: PER_MINUTE, autoApply: true }],
    });

    // The key's "requests" (5) replaces the identity's (1).
    expect(verify("sk_org_own", start).ratelimits).toEqual([
      expect.objectContaining({ name: "requests", limit: 5, remaining: 4 }),
    ]);
    expect(verify("sk_org_own", start + 1).code).toBe("VALID");
    expect(verify("sk_org_own", start + 2, { ratelimits: [{ name: "tokens" }] }).code).toBe("VALID");
    expect(verify("sk_org_own", start + 3, { ratelimits: [{ name: "tokens" }] })).toMatchObject({
      code: "RATE_LIMITED",
      ratelimits: [
        expect.objectContaining({ name: "requests", exceeded: false }),
        expect.objectContaining({ name: "tokens", exceeded: true }),
      ],
    });
  });
});

describe("fates and records", () => {
  test("the order of refusals: disabled before expired before permissions", () => {
    addKey("sk_all_wrong", { enabled: false, expires: T0 - DAY, permissions: [] });
    expect(verify("sk_all_wrong", T0, { permissions: { kind: "permission", name: "x" } }).code).toBe("DISABLED");
    addKey("sk_expired", { expires: T0 - DAY });
    expect(verify("sk_expired", T0 - 2 * DAY).code).toBe("VALID");
    expect(verify("sk_expired", T0).code).toBe("EXPIRED");
  });

  test("another workspace's key, and a key of an API the root key may not verify, are NOT_FOUND and leave no record", () => {
    addKey("sk_mine");
    const other = createWorkspace(db, "other");
    expect(verify("sk_mine", T0, {}, { workspaceId: other, permissions: VERIFY_ALL })).toEqual({
      valid: false,
      code: "NOT_FOUND",
    });
    expect(db.prepare("SELECT count(*) FROM key_verifications").pluck().get()).toBe(0);

    const hidden = verify(
      "sk_mine",
      T0,
      {},
      { workspaceId, permissions: JSON.stringify(["api.api_other.verify_key"]) },
    );
    expect(hidden).toEqual({ valid: false, code: "NOT_FOUND" });
    expect(verify("sk_mine", T0, {}, { workspaceId, permissions: "[]" })).toEqual({ valid: false, code: "NOT_FOUND" });
    expect(db.prepare("SELECT count(*) FROM key_verifications").pluck().get()).toBe(0);
  });

  test("each verification is one row with the request id, key space, identity, tags and region; lastUsedAt never moves back", () => {
    const keyId = addKey("sk_recorded", { externalId: "user_1" });
    verify("sk_recorded", T0, { tags: ["path=/api/users"] });
    verify("sk_recorded", T0 - DAY);

    const rows = db
      .prepare(
        "SELECT request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags FROM key_verifications ORDER BY seq",
      )
      .all();
    expect(rows).toEqual([
      {
        request_id: `req_test${requests - 1}`,
        time: T0,
        workspace_id: workspaceId,
        key_space_id: apiId,
        key_id: keyId,
        external_id: "user_1",
        outcome: "VALID",
        region: "test",
        tags: '["path=/api/users"]',
      },
      expect.objectContaining({ time: T0 - DAY, tags: "[]" }),
    ]);
    expect(store.findKeyById(keyId, workspaceId)?.last_used_at).toBe(T0);
  });
});

describe("the store's change version", () => {
  test("changes with this connection's own writes and with another connection's commits, and only then", () => {
    addKey("sk_versioned");
    const first = store.changeVersion();
    expect(store.changeVersion()).toBe(first);

    verify("sk_versioned", T0);
    const afterOwnWrite = store.changeVersion();
    expect(afterOwnWrite).not.toBe(first);
    expect(store.changeVersion()).toBe(afterOwnWrite);

    const other = openDatabase(db.name.slice(0, db.name.lastIndexOf("/")));
    other.prepare("UPDATE keys SET name = 'renamed'").run();
    other.close();
    expect(store.changeVersion()).not.toBe(afterOwnWrite);
  });
});

describe("root keys looked up once per group commit", () => {
  test("a root key revoked by another process once a group has committed is refused by the next request", async () => {
    const { id, secret } = createRootKey(db, { workspaceId, name: "r", permissions: ["api.*.verify_key"] });
    const hash = hashSecret(secret);
    const inGroup = () => store.inGroupCommit(() => [store.findRootKey(hash)?.id, store.findRootKey(hash)?.id]);
    expect(await inGroup()).toEqual([id, id]);

    const other = openDatabase(db.name.slice(0, db.name.lastIndexOf("/")));
    changeRootKey(other, workspaceId, id, "revoke");
    other.close();

    expect(store.findRootKey(hash)).toBeUndefined();
    expect(await inGroup()).toEqual([undefined, undefined]);
  });
});
