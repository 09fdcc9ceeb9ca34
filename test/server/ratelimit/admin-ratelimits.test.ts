import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_NAMESPACE, DEMO_RATELIMIT_DECISIONS } from "../../../server/db/demo-data";
import { runAdminInProcess } from "../../support/admin-in-process";
import { callApi } from "../http";
import { startInProcess, type InProcessServer } from "../in-process";
import { limitOf } from "../real-routes/ratelimit-harness";

/**
 * The admin CLI's rate-limit commands on the database a running server reads (the app in this process), and the demo
 * workspace's namespace.
 */

let server: InProcessServer;
let key: string;

beforeAll(() => {
  server = startInProcess();
  key = server.rootKey;
});

afterAll(() => server.close());

function admin(...args: string[]) {
  return runAdminInProcess([...args, "--data-dir", server.dataDir]);
}

function adminOk(...args: string[]): string {
  const run = admin(...args);
  if (run.code !== 0) throw new Error(`admin ${args.join(" ")} exited with ${run.code}: ${run.stderr}`);
  return run.stdout.trim();
}

const limit = async (namespace: string, identifier: string) =>
  limitOf(
    await callApi(server, {
      path: "/v2/ratelimit.limit",
      key,
      body: JSON.stringify({ namespace, identifier, limit: 100, duration: 60_000 }),
    }),
  );

describe("namespaces and overrides, while the server runs", () => {
  test("a namespace made, an override set, changed and deleted: each seen by the server's next limit", async () => {
    const id = adminOk("namespaces", "create", "--name", "sms.sign_up");
    expect(id).toMatch(/^rlns_/);
    expect((await limit(id, "premium_1")).limit).toBe(100);

    const overrideId = adminOk(
      "overrides",
      "set",
      "--namespace",
      "sms.sign_up",
      "--identifier",
      "premium_*",
      "--ratelimit",
      "1000/1m",
    );
    expect(await limit("sms.sign_up", "premium_1")).toMatchObject({ limit: 1000, overrideId });
    expect(adminOk("overrides", "set", "--namespace", id, "--identifier", "premium_*", "--ratelimit", "0/1m")).toBe(
      overrideId,
    );
    expect(await limit("sms.sign_up", "premium_1")).toMatchObject({ success: false, limit: 0 });
    expect(adminOk("overrides", "list", "--namespace", "sms.sign_up")).toMatch(
      new RegExp(`^IDENTIFIER +ID +RATELIMIT\\npremium_\\* +${overrideId} +0/1m$`),
    );

    expect(adminOk("overrides", "delete", "--namespace", "sms.sign_up", "--identifier", "premium_*")).toBe(overrideId);
    expect((await limit("sms.sign_up", "premium_1")).limit).toBe(100);
  });

  test("a deleted namespace is 410 to the next limit, its name stays taken, and the list says so", async () => {
    const id = adminOk("namespaces", "create", "--name", "to-delete");
    expect(adminOk("namespaces", "delete", "to-delete")).toBe("to-delete");
    const answer = await callApi(server, {
      path: "/v2/ratelimit.limit",
      key,
      body: JSON.stringify({ namespace: id, identifier: "u", limit: 1, duration: 1000 }),
    });
    expect(answer.status).toBe(410);
    expect(admin("namespaces", "create", "--name", "to-delete").stderr).toMatch(/already has a namespace to-delete/);
    expect(adminOk("namespaces", "list")).toMatch(new RegExp(`^to-delete +${id} +0 +0 +deleted$`, "m"));
  });

  test.each([
    [["overrides", "set", "--namespace", "nope", "--identifier", "a", "--ratelimit", "1/1m"], /no namespace nope/],
    [["overrides", "set", "--namespace", DEMO_NAMESPACE, "--identifier", "a", "--ratelimit", "1/10ms"], /at least 1s/],
    [["overrides", "set", "--namespace", DEMO_NAMESPACE, "--ratelimit", "1/1m"], /--identifier is required/],
    [["overrides", "delete", "--namespace", DEMO_NAMESPACE, "--identifier", "nobody"], /no override for exactly/],
    [["namespaces", "delete", "nope"], /no namespace nope/],
    [["traffic", "--days", "1", "--count", "5", "--namespace", "nope"], /no namespace nope/],
    [["traffic", "--days", "1", "--count", "5", "--namespace", DEMO_NAMESPACE, "--api", "api_x"], /give one/],
  ])("%j is refused with a reason and changes nothing", (args, reason) => {
    const run = admin(...args);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(reason);
  });
});

describe("traffic and the demo", () => {
  test("traffic --namespace records the decisions through the limit code, some blocked, and prints both counts", () => {
    adminOk("namespaces", "create", "--name", "traffic");
    const printed = adminOk("traffic", "--namespace", "traffic", "--days", "3", "--count", "5000");
    const [, passed = "0", blocked = "0"] = /^passed (\d+)\nblocked (\d+)$/.exec(printed) ?? [];
    expect(Number(passed) + Number(blocked)).toBe(5000);
    expect(Number(blocked)).toBeGreaterThan(0);
    const stored = server.admin.db
      .prepare<[], { passed: number; n: number }>(
        `SELECT d.passed, count(*) AS n FROM ratelimit_decisions d JOIN ratelimit_namespaces n ON n.id = d.namespace_id
          WHERE n.name = 'traffic' GROUP BY d.passed ORDER BY d.passed`,
      )
      .all();
    expect(stored).toEqual([
      { passed: 0, n: Number(blocked) },
      { passed: 1, n: Number(passed) },
    ]);
  });

  test("the demo workspace holds a namespace with traffic, some of it blocked, and its overrides applied", async () => {
    const list = adminOk("namespaces", "list");
    expect(list).toMatch(
      new RegExp(`^${DEMO_NAMESPACE.replace(".", "\\.")} +rlns_\\w+ +2 +${DEMO_RATELIMIT_DECISIONS} +live$`, "m"),
    );
    const byOutcome = server.admin.db
      .prepare<[string], { identifier: string; passed: number; overridden: number }>(
        `SELECT identifier, passed, override_id != '' AS overridden FROM ratelimit_decisions d
           JOIN ratelimit_namespaces n ON n.id = d.namespace_id WHERE n.name = ? GROUP BY 1, 2, 3`,
      )
      .all(DEMO_NAMESPACE);
    expect(byOutcome.some((row) => row.passed === 0 && row.identifier.startsWith("user_"))).toBe(true);
    expect(byOutcome.filter((row) => row.identifier === "banned_bot")).toEqual([
      { identifier: "banned_bot", passed: 0, overridden: 1 },
    ]);
    expect(byOutcome.filter((row) => row.identifier === "org_acme").every((row) => row.overridden === 1)).toBe(true);
    // The demo root key may limit there, and the override applies.
    expect(await limit(DEMO_NAMESPACE, "banned_bot")).toMatchObject({ success: false, limit: 0 });
  });
});
