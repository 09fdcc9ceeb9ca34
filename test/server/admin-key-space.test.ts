import { describe, expect, test } from "vitest";
import { adminOnFreshDataDir } from "../support/admin-in-process";

/**
 * The admin CLI's settings that the real service keeps beside the API and that its route tests set up: an API's
 * default prefix and byte length and its delete protection, a role's description, a deleted identity, and a
 * workspace's analytics retention.
 */

const { admin: adminRun, query } = adminOnFreshDataDir("admin-key-space");

const admin = adminRun;

function succeeded(...args: string[]): string {
  const run = admin(...args);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.trim();
}

describe("apis", () => {
  test("create takes the key-space defaults and protection; keys create makes keys of that form; apis list shows them", () => {
    const apiId = succeeded(
      "apis",
      "create",
      "--name",
      "Acme",
      "--default-prefix",
      "acme",
      "--default-bytes",
      "32",
      "--delete-protection",
      "on",
    );
    expect(query("SELECT default_prefix, default_bytes, delete_protection FROM apis WHERE id = ?", apiId)).toEqual([
      { default_prefix: "acme", default_bytes: 32, delete_protection: 1 },
    ]);
    const [, secret = ""] = succeeded("keys", "create", "--name", "acme key", "--api", apiId).split(" ");
    // 32 bytes: about 44 base58 characters.
    expect(secret).toMatch(/^acme_[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    const listed = succeeded("apis", "list").split("\n");
    expect(listed[0]).toMatch(/^ID\s+NAME\s+KEYS\s+DEFAULT PREFIX\s+DEFAULT BYTES\s+DELETE PROTECTION\s+IP WHITELIST$/);
    expect(listed.find((line) => line.startsWith(apiId))).toMatch(/Acme\s+1\s+acme\s+32\s+on\s+-$/);
  });

  test("update changes what is given, and none clears a default; an API without defaults keeps making sk_live_ keys", () => {
    const apiId = succeeded("apis", "create", "--name", "Changing", "--default-prefix", "chg", "--default-bytes", "64");
    expect(succeeded("apis", "update", apiId, "--default-prefix", "none", "--delete-protection", "on")).toBe(apiId);
    expect(query("SELECT default_prefix, default_bytes, delete_protection FROM apis WHERE id = ?", apiId)).toEqual([
      { default_prefix: null, default_bytes: 64, delete_protection: 1 },
    ]);
    succeeded("apis", "update", apiId, "--default-bytes", "none", "--delete-protection", "off");
    expect(query("SELECT default_prefix, default_bytes, delete_protection FROM apis WHERE id = ?", apiId)).toEqual([
      { default_prefix: null, default_bytes: null, delete_protection: 0 },
    ]);
    expect(succeeded("keys", "create", "--name", "plain", "--api", apiId).split(" ")[1]).toMatch(/^sk_live_/);
  });

  test("an IP whitelist is set, shown and cleared", () => {
    const apiId = succeeded("apis", "create", "--name", "Walled", "--ip-whitelist", "203.0.113.7, 2001:db8::1");
    expect(query("SELECT ip_whitelist FROM apis WHERE id = ?", apiId)).toEqual([
      { ip_whitelist: "203.0.113.7,2001:db8::1" },
    ]);
    expect(
      succeeded("apis", "list")
        .split("\n")
        .find((line) => line.startsWith(apiId)),
    ).toMatch(/\s203\.0\.113\.7,2001:db8::1$/);
    succeeded("apis", "update", apiId, "--ip-whitelist", "none");
    expect(query("SELECT ip_whitelist FROM apis WHERE id = ?", apiId)).toEqual([{ ip_whitelist: null }]);
  });

  test.each([
    ["an address that is not one", ["apis", "create", "--name", "x", "--ip-whitelist", "203.0.113.7,example.com"]],
    ["a prefix longer than 8", ["apis", "create", "--name", "x", "--default-prefix", "ninechars"]],
    ["a prefix with a dash", ["apis", "create", "--name", "x", "--default-prefix", "a-b"]],
    ["too few bytes", ["apis", "create", "--name", "x", "--default-bytes", "8"]],
    ["a switch that is not on or off", ["apis", "create", "--name", "x", "--delete-protection", "yes"]],
    ["nothing to update", ["apis", "update", "api_whatever"]],
  ])("%s is a usage error that changes nothing", (_, args) => {
    const before = query("SELECT count(*) AS n FROM apis");
    expect(admin(...args).code).toBe(2);
    expect(query("SELECT count(*) AS n FROM apis")).toEqual(before);
  });

  test("update of an API the workspace does not have fails", () => {
    const run = admin("apis", "update", "api_nothere1", "--delete-protection", "on");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no API api_nothere1");
  });
});

describe("roles, identities, workspaces", () => {
  test("roles create takes a description", () => {
    const roleId = succeeded("roles", "create", "--name", "reporter", "--description", "Read only reporting");
    expect(query("SELECT name, description FROM roles WHERE id = ?", roleId)).toEqual([
      { name: "reporter", description: "Read only reporting" },
    ]);
  });

  test("identities delete hides an identity from identities list; its external id can be given to a new one", () => {
    const identityId = succeeded("identities", "create", "--external-id", "org_gone", "--ratelimit", "10/1m");
    expect(succeeded("identities", "delete", "org_gone")).toBe("org_gone");
    expect(succeeded("identities", "list")).not.toContain("org_gone");
    expect(admin("identities", "delete", identityId).code).toBe(1);
    const again = succeeded("identities", "create", "--external-id", "org_gone");
    expect(again).not.toBe(identityId);
    expect(query("SELECT id FROM identities WHERE external_id = 'org_gone'")).toEqual([{ id: again }]);
    expect(query("SELECT count(*) AS n FROM identity_ratelimits WHERE identity_id = ?", identityId)).toEqual([
      { n: 0 },
    ]);
  });

  test("workspaces create and update set the analytics retention, 30 days unless given", () => {
    const plain = succeeded("workspaces", "create", "--name", "Plain");
    const yearLong = succeeded("workspaces", "create", "--name", "Year", "--retention-days", "365");
    expect(
      query(
        "SELECT id, analytics_retention_days AS days FROM workspaces WHERE id IN (?, ?) ORDER BY days",
        plain,
        yearLong,
      ),
    ).toEqual([
      { id: plain, days: 30 },
      { id: yearLong, days: 365 },
    ]);
    expect(succeeded("workspaces", "update", "--workspace", plain, "--retention-days", "90")).toBe(plain);
    expect(query("SELECT analytics_retention_days AS days FROM workspaces WHERE id = ?", plain)).toEqual([
      { days: 90 },
    ]);
    expect(admin("workspaces", "update", "--workspace", plain, "--retention-days", "0").code).toBe(2);
    expect(admin("workspaces", "update", "--workspace", plain).code).toBe(2);
  });

  test("workspaces create and update set the workspace's own analytics quota; none gives it back to the server's flag", () => {
    const limited = succeeded("workspaces", "create", "--name", "Limited", "--analytics-quota", "10");
    expect(query("SELECT analytics_queries_per_hour AS quota FROM workspaces WHERE id = ?", limited)).toEqual([
      { quota: 10 },
    ]);
    succeeded("workspaces", "update", "--workspace", limited, "--analytics-quota", "none");
    expect(query("SELECT analytics_queries_per_hour AS quota FROM workspaces WHERE id = ?", limited)).toEqual([
      { quota: null },
    ]);
    expect(admin("workspaces", "update", "--workspace", limited, "--analytics-quota", "0").code).toBe(2);
  });
});

describe("permissions and key migrations", () => {
  test("permissions create makes one with its name and description; a slug the workspace has, in any case, is refused", () => {
    const id = succeeded("permissions", "create", "--slug", "invoices.void", "--description", "Void an invoice");
    expect(query("SELECT name, slug, description FROM permissions WHERE id = ?", id)).toEqual([
      { name: "invoices.void", slug: "invoices.void", description: "Void an invoice" },
    ]);
    const taken = admin("permissions", "create", "--slug", "Invoices.Void", "--name", "Void");
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("already has a permission");
    expect(succeeded("permissions", "list")).toMatch(/invoices\.void\s+perm_\w+\s+invoices\.void\s+Void an invoice/);
    expect(admin("permissions", "create", "--slug", "two,slugs").code).toBe(2);
  });

  test("migrations create takes the real service's two algorithms and prints the id; migrations list shows them", () => {
    const id = succeeded("migrations", "create", "--algorithm", "github.com/seamapi/prefixed-api-key");
    expect(id).toMatch(/^mig_[1-9A-HJ-NP-Za-km-z]+$/);
    expect(query("SELECT algorithm FROM key_migrations WHERE id = ?", id)).toEqual([
      { algorithm: "github.com/seamapi/prefixed-api-key" },
    ]);
    const refused = admin("migrations", "create", "--algorithm", "bcrypt");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("sha256 or github.com/seamapi/prefixed-api-key");
    expect(succeeded("migrations", "list")).toMatch(new RegExp(`${id}\\s+github\\.com/seamapi/prefixed-api-key\\s+0`));
  });
});
