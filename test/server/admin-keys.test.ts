import { describe, expect, test } from "vitest";
import { adminOnFreshDataDir } from "../support/admin-in-process";

const { admin: adminRun, query } = adminOnFreshDataDir("admin-keys");

/** The admin command line in this process (admin.test.ts runs the program itself as a process). */
function admin(...args: string[]) {
  return Promise.resolve(adminRun(...args));
}

describe("keys create", () => {
  test("takes credits, a refill, a rate limit, permissions, roles, an identity, meta and an expiry, and prints <keyId> <secret>", async () => {
    const run = await admin(
      "keys",
      "create",
      "--name",
      "Full key",
      "--credits",
      "7",
      "--refill",
      "daily:10",
      "--ratelimit",
      "5/1m",
      "--permissions",
      "documents.read,users.view",
      "--roles",
      "reader",
      "--external-id",
      "user_9",
      "--meta",
      '{"plan":"pro"}',
      "--expires=-2d",
    );
    expect(run.code, run.stderr).toBe(0);
    const [keyId = "", secret = ""] = run.stdout.trim().split(" ");
    expect(keyId).toMatch(/^key_\w+$/);
    expect(secret).toMatch(/^sk_live_\w+$/);

    const [key] = query<Record<string, unknown>>(
      `SELECT credits_remaining, refill_interval, refill_amount, permissions, roles, meta, external_id, expires < unixepoch() * 1000 AS expired
         FROM keys WHERE id = ?`,
      keyId,
    );
    expect(key).toEqual({
      credits_remaining: 7,
      refill_interval: "daily",
      refill_amount: 10,
      permissions: '["documents.read","users.view"]',
      roles: '["reader"]',
      meta: '{"plan":"pro"}',
      external_id: "user_9",
      expired: 1,
    });
    expect(query('SELECT name, "limit", duration_ms, auto_apply FROM key_ratelimits WHERE key_id = ?', keyId)).toEqual([
      { name: "requests", limit: 5, duration_ms: 60_000, auto_apply: 1 },
    ]);
    expect(query("SELECT external_id FROM identities WHERE external_id = 'user_9'")).toHaveLength(1);
  });

  test("a refill without credits starts full; a second key of the same identity shares it", async () => {
    const first = await admin(
      "keys",
      "create",
      "--name",
      "Monthly",
      "--refill",
      "monthly:100",
      "--external-id",
      "user_9",
      "--expires",
      "+30d",
    );
    expect(first.code, first.stderr).toBe(0);
    const [keyId = ""] = first.stdout.split(" ");
    expect(query("SELECT credits_remaining, refill_day FROM keys WHERE id = ?", keyId)).toEqual([
      { credits_remaining: 100, refill_day: 1 },
    ]);
    expect(query("SELECT id FROM identities WHERE external_id = 'user_9'")).toHaveLength(1);
  });

  test.each([
    [["--credits", "-1"], "--credits"],
    [["--credits", "many"], "--credits"],
    [["--refill", "weekly:5"], "--refill"],
    [["--refill", "daily:0"], "--refill"],
    [["--ratelimit", "5"], "--ratelimit"],
    [["--meta", "[1,2]"], "--meta"],
    [["--meta", "{nope"], "--meta"],
    [["--permissions", "has space"], "--permissions"],
    [["--roles", "a;b"], "--roles"],
    [["--expires", "tomorrow"], "--expires"],
  ])("refuses %j with a message naming the flag, creating nothing", async (flags, flag) => {
    const before = query<{ n: number }>("SELECT count(*) AS n FROM keys")[0]?.n;
    const run = await admin("keys", "create", "--name", "Bad", ...flags);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(flag);
    expect(query<{ n: number }>("SELECT count(*) AS n FROM keys")[0]?.n).toBe(before);
  });
});

describe("roles and identities", () => {
  test("roles create, grant and list: a role carries permissions; keys create --roles makes the roles it names", async () => {
    const created = await admin("roles", "create", "--name", "auditor", "--permissions", "logs.read");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toMatch(/^role_\w+$/);
    const granted = await admin("roles", "grant", "--name", "auditor", "--permissions", "logs.export,logs.read");
    expect(granted.stdout.trim()).toBe("logs.read,logs.export");
    expect((await admin("keys", "create", "--name", "With roles", "--roles", "auditor,newcomer")).code).toBe(0);

    const listed = await admin("roles", "list");
    expect(listed.stdout).toMatch(/^auditor\s+role_\w+\s+logs\.read,logs\.export\s+1$/m);
    expect(listed.stdout).toMatch(/^newcomer\s+role_\w+\s+-\s+1$/m);
  });

  test("identities create takes rate limits (the default one applied always, named ones when asked) and meta", async () => {
    const run = await admin(
      "identities",
      "create",
      "--external-id",
      "team_7",
      "--ratelimit",
      "100/1m",
      "--ratelimit",
      "tokens=5000/1h",
      "--meta",
      '{"tier":"gold"}',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(
      query(
        'SELECT name, "limit", duration_ms, auto_apply FROM identity_ratelimits WHERE identity_id = ? ORDER BY name',
        run.stdout.trim(),
      ),
    ).toEqual([
      { name: "requests", limit: 100, duration_ms: 60_000, auto_apply: 1 },
      { name: "tokens", limit: 5000, duration_ms: 3_600_000, auto_apply: 0 },
    ]);
    expect((await admin("identities", "list")).stdout).toMatch(/^team_7\s+id_\w+\s+0\s+100\/1m,tokens=5000\/1h$/m);
  });

  test.each([
    [["roles", "create", "--name", "auditor"], /already has a role "auditor"/],
    [["roles", "create", "--name", "two words"], /--name/],
    [["roles", "create", "--name", "x", "--permissions", "a b"], /--permissions/],
    [["roles", "grant", "--name", "ghost", "--permissions", "a"], /no role "ghost"/],
    [["roles", "grant", "--name", "auditor"], /--permissions/],
    [["identities", "create"], /--external-id/],
    [["identities", "create", "--external-id", "team_7"], /already has an identity "team_7"/],
    [
      ["identities", "create", "--external-id", "x", "--ratelimit", "5/1s", "--ratelimit", "6/1m"],
      /names "requests" twice/,
    ],
    [["identities", "create", "--external-id", "x", "--ratelimit", "bad name=5/1s"], /--ratelimit NAME=N\/WINDOW/],
    [["identities", "create", "--external-id", "x", "--ratelimit", "tokens=lots"], /--ratelimit/],
    [["root-key", "create", "--ratelimit", "5/1s", "--ratelimit", "6/1s"], /--ratelimit is given 2 times/],
  ])("%j is refused with a readable message", async (args, message) => {
    const run = await admin(...args);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^keyscope admin: /);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("workspaces create and traffic", () => {
  test("workspaces create prints the new workspace's id", async () => {
    const run = await admin("workspaces", "create", "--name", "Second");
    expect(run.code, run.stderr).toBe(0);
    expect(query("SELECT name FROM workspaces WHERE id = ?", run.stdout.trim())).toEqual([{ name: "Second" }]);
  });

  test("traffic records M verifications over N days through the verify code, and prints the outcomes", async () => {
    const before = query<{ n: number }>("SELECT count(*) AS n FROM key_verifications")[0]?.n ?? 0;
    const run = await admin("traffic", "--days", "3", "--count", "500");
    expect(run.code, run.stderr).toBe(0);

    const printed = run.stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" "));
    const total = printed.reduce((sum, [, n]) => sum + Number(n), 0);
    expect(total).toBe(500);
    const rows = query<{ n: number; oldest: number; newest: number }>(
      "SELECT count(*) AS n, min(time) AS oldest, max(time) AS newest FROM key_verifications WHERE seq > ?",
      String(before),
    )[0];
    expect(rows?.n).toBe(500);
    expect(rows?.newest).toBeLessThanOrEqual(Date.now());
    expect(rows?.oldest).toBeGreaterThanOrEqual(Date.now() - 3 * 24 * 3_600_000 - 60_000);
  });

  test("traffic without --days is a usage error", async () => {
    const run = await admin("traffic", "--count", "5");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--days");
  });
});
