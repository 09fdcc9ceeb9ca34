import { beforeAll, describe, expect, test } from "vitest";
import { hashSecret } from "../../server/keys/secrets";
import { adminOnFreshDataDir } from "../support/admin-in-process";

/** The admin CLI's key changes (keys update, reroll, delete), named auto-applied limits, and the new root-key permissions. */

const { admin: adminRun, query } = adminOnFreshDataDir("admin-key-changes");

const admin = adminRun;

function created(...flags: string[]): { keyId: string; secret: string } {
  const run = admin("keys", "create", "--name", "changing", ...flags);
  expect(run.code, run.stderr).toBe(0);
  const [keyId = "", secret = ""] = run.stdout.trim().split(" ");
  return { keyId, secret };
}

beforeAll(() => {
  expect(admin("roles", "create", "--name", "auditor", "--permissions", "audit.read").code).toBe(0);
});

describe("keys update", () => {
  test("replaces what is given and clears with none", () => {
    const { keyId } = created(
      "--credits",
      "5",
      "--refill",
      "daily:5",
      "--external-id",
      "user_1",
      "--meta",
      '{"a":1}',
      "--expires",
      "+1d",
    );
    const run = admin(
      "keys",
      "update",
      keyId,
      "--name",
      "renamed",
      "--disabled",
      "--credits",
      "unlimited",
      "--external-id",
      "none",
      "--meta",
      "none",
      "--expires",
      "none",
      "--roles",
      "auditor",
      "--permissions",
      "documents.read",
      "--ratelimit",
      "tokens=100/1m:auto",
      "--ratelimit",
      "burst=5/1s",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(keyId);
    expect(
      query(
        "SELECT name, enabled, credits_remaining, refill_interval, external_id, meta, expires, roles, permissions FROM keys WHERE id = ?",
        keyId,
      ),
    ).toEqual([
      {
        name: "renamed",
        enabled: 0,
        credits_remaining: null,
        refill_interval: null,
        external_id: null,
        meta: null,
        expires: null,
        roles: '["auditor"]',
        permissions: '["documents.read"]',
      },
    ]);
    expect(
      query('SELECT name, "limit", duration_ms, auto_apply FROM key_ratelimits WHERE key_id = ? ORDER BY name', keyId),
    ).toEqual([
      { name: "burst", limit: 5, duration_ms: 1000, auto_apply: 0 },
      { name: "tokens", limit: 100, duration_ms: 60_000, auto_apply: 1 },
    ]);
    expect(admin("keys", "update", keyId, "--ratelimit", "none", "--enabled").code).toBe(0);
    expect(query("SELECT count(*) AS n FROM key_ratelimits WHERE key_id = ?", keyId)).toEqual([{ n: 0 }]);
  });

  test("an unknown role, an unknown key, nothing to change and contradicting flags are refused and change nothing", () => {
    const { keyId } = created();
    const role = admin("keys", "update", keyId, "--name", "kept?", "--roles", "ghost");
    expect(role.code).toBe(1);
    expect(role.stderr).toContain("Role 'ghost' was not found.");
    expect(query("SELECT name FROM keys WHERE id = ?", keyId)).toEqual([{ name: "changing" }]);
    expect(admin("keys", "update", "key_nothere1", "--name", "x").code).toBe(1);
    expect(admin("keys", "update", keyId).code).toBe(2);
    expect(admin("keys", "update", keyId, "--enabled", "--disabled").code).toBe(2);
  });
});

describe("keys reroll and keys delete", () => {
  test("reroll prints a new key with the same settings and the old one's prefix before its first _, as the real service; the old one expires", () => {
    const old = created("--credits", "9", "--permissions", "documents.read");
    const run = admin("keys", "reroll", old.keyId);
    expect(run.code, run.stderr).toBe(0);
    const [keyId = "", secret = ""] = run.stdout.trim().split(" ");
    expect(secret).toMatch(/^sk_[1-9A-HJ-NP-Za-km-z]+$/);
    expect(query("SELECT hash, credits_remaining, permissions FROM keys WHERE id = ?", keyId)).toEqual([
      { hash: hashSecret(secret), credits_remaining: 9, permissions: '["documents.read"]' },
    ]);
    const [oldRow] = query<{ expires: number }>("SELECT expires FROM keys WHERE id = ?", old.keyId);
    expect(oldRow?.expires).toBeLessThanOrEqual(Date.now());

    const later = created();
    expect(admin("keys", "reroll", later.keyId, "--expiration", "120000").code).toBe(0);
    const [laterRow] = query<{ expires: number }>("SELECT expires FROM keys WHERE id = ?", later.keyId);
    expect(laterRow?.expires).toBeGreaterThan(Date.now() + 60_000);
  });

  test("delete is soft unless --permanent; a deleted key cannot be changed again", () => {
    const soft = created();
    expect(admin("keys", "delete", soft.keyId).code).toBe(0);
    expect(
      query<{ deleted: number }>("SELECT deleted_at IS NOT NULL AS deleted FROM keys WHERE id = ?", soft.keyId),
    ).toEqual([{ deleted: 1 }]);
    expect(admin("keys", "delete", soft.keyId).code).toBe(1);
    const hard = created("--ratelimit", "5/1m");
    expect(admin("keys", "delete", hard.keyId, "--permanent").code).toBe(0);
    expect(query("SELECT id FROM keys WHERE id = ?", hard.keyId)).toEqual([]);
    expect(query("SELECT id FROM key_ratelimits WHERE key_id = ?", hard.keyId)).toEqual([]);
  });
});

describe("named auto-applied limits and root-key permissions", () => {
  test("NAME=N/W:auto is stored auto-applied (as N/W is), a bare NAME=N/W not; identities list shows each as it was given", () => {
    const run = admin(
      "identities",
      "create",
      "--external-id",
      "org_auto",
      "--ratelimit",
      "tokens=50/1h:auto",
      "--ratelimit",
      "10/1s",
    );
    expect(run.code, run.stderr).toBe(0);
    const limits = query(
      "SELECT r.name, r.auto_apply FROM identity_ratelimits r JOIN identities i ON i.id = r.identity_id WHERE i.external_id = 'org_auto' ORDER BY r.name",
    );
    expect(limits).toEqual([
      { name: "requests", auto_apply: 1 },
      { name: "tokens", auto_apply: 1 },
    ]);
    expect(admin("identities", "list").stdout).toContain("10/1s,tokens=50/1h:auto");
    expect(admin("keys", "create", "--name", "x", "--ratelimit", "tokens=5/1m:always").code).toBe(2);
  });

  test("root-key create takes the permissions of the key-changing operations", () => {
    const permissions =
      "api.*.create_key,api.*.update_key,api.*.delete_key,api.*.create_api,rbac.*.add_permission_to_key,rbac.*.create_permission,identity.*.read_identity";
    const run = admin("root-key", "create", "--permissions", permissions);
    expect(run.code, run.stderr).toBe(0);
    expect(query("SELECT permissions FROM root_keys WHERE hash = ?", hashSecret(run.stdout.trim()))).toEqual([
      { permissions: JSON.stringify(permissions.split(",")) },
    ]);
  });
});
