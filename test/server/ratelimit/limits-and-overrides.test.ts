import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../../server/app";
import { createRootKey } from "../../../server/db/root-keys";
import { createWorkspace } from "../../../server/db/workspaces";
import { openDatabase } from "../../../server/db/open";
import { directMode } from "../../../server/process/start";
import { callApi, type ApiTarget } from "../http";
import { IN_PROCESS_URL, startInProcess, type InProcessServer } from "../in-process";
import { limitOf, multiLimitOf, ratelimitHarness, type RatelimitHarness } from "../real-routes/ratelimit-harness";

/**
 * What the rate-limit operations do beyond the real route tests: which override wins, when a change is seen, a limit
 * of 0, counts exact under concurrency and kept across a restart, workspaces apart.
 */

let server: InProcessServer;
let rl: RatelimitHarness;
let key: string;

const ALL = ["limit", "create_namespace", "set_override", "read_override", "delete_override"].map(
  (action) => `ratelimit.*.${action}`,
);

beforeAll(() => {
  server = startInProcess();
  rl = ratelimitHarness(server);
  key = createRootKey(server.admin.db, { workspaceId: server.admin.workspaceId, name: "rl", permissions: ALL }).secret;
});

afterAll(() => server.close());

const call = (operation: string, body: unknown, target: ApiTarget = server, rootKey = key) =>
  callApi(target, { path: `/v2/ratelimit.${operation}`, key: rootKey, body: JSON.stringify(body) });
const limit = async (namespace: string, identifier: string, max = 10, target: ApiTarget = server) =>
  limitOf(await call("limit", { namespace, identifier, limit: max, duration: 60_000 }, target));
const setOverride = async (namespace: string, identifier: string, max: number) => {
  const answer = await call("setOverride", { namespace, identifier, limit: max, duration: 60_000 });
  return (answer.json as { data: { overrideId: string } }).data.overrideId;
};

describe("which override applies", () => {
  test("one set for exactly the identifier wins over every pattern; then the most specific pattern, then the oldest", async () => {
    const ns = rl.namespace();
    const broad = await setOverride(ns.name, "team_*", 50);
    const narrow = await setOverride(ns.name, "team_acme_*", 40);
    const exact = await setOverride(ns.name, "team_acme_1", 30);
    const sameLength = await setOverride(ns.name, "*_other", 20);
    const older = await setOverride(ns.name, "q*", 7);
    await setOverride(ns.name, "*q", 8);

    expect(await limit(ns.name, "team_acme_1")).toMatchObject({ overrideId: exact, limit: 30 });
    expect(await limit(ns.name, "team_acme_2")).toMatchObject({ overrideId: narrow, limit: 40 });
    expect(await limit(ns.name, "team_globex")).toMatchObject({ overrideId: broad, limit: 50 });
    expect(await limit(ns.name, "team_other")).toMatchObject({ overrideId: sameLength, limit: 20 });
    // "q*" and "*q" are as specific: the older one.
    expect(await limit(ns.name, "qq")).toMatchObject({ overrideId: older, limit: 7 });
    expect((await limit(ns.name, "nobody")).overrideId).toBeUndefined();
  });

  test("a pattern's other characters are themselves, not regular-expression syntax", async () => {
    const ns = rl.namespace();
    const dotted = await setOverride(ns.name, "a.b*", 5);
    expect((await limit(ns.name, "a.b.c")).overrideId).toBe(dotted);
    expect((await limit(ns.name, "aXb.c")).overrideId).toBeUndefined();
  });

  test("getOverride answers the override that applies; deleteOverride needs the pattern as set", async () => {
    const ns = rl.namespace();
    const pattern = await setOverride(ns.name, "premium_*", 1000);
    const got = await call("getOverride", { namespace: ns.name, identifier: "premium_user1" });
    expect((got.json as { data: unknown }).data).toEqual({
      overrideId: pattern,
      identifier: "premium_*",
      limit: 1000,
      duration: 60_000,
    });
    expect((await call("deleteOverride", { namespace: ns.name, identifier: "premium_user1" })).status).toBe(404);
    expect((await call("deleteOverride", { namespace: ns.name, identifier: "premium_*" })).status).toBe(200);
  });
});

describe("a change is seen by the next limit", () => {
  test("an override set, changed and deleted applies from the next request on, with its id kept when set again", async () => {
    const ns = rl.namespace();
    expect(await limit(ns.name, "user_1", 10)).toMatchObject({ limit: 10, remaining: 9 });
    const id = await setOverride(ns.name, "user_1", 3);
    expect(await limit(ns.name, "user_1", 10)).toMatchObject({ limit: 3, remaining: 1, overrideId: id });
    expect(await setOverride(ns.name, "user_1", 100)).toBe(id);
    expect(await limit(ns.name, "user_1", 10)).toMatchObject({ limit: 100, remaining: 97 });
    await call("deleteOverride", { namespace: ns.name, identifier: "user_1" });
    expect(await limit(ns.name, "user_1", 10)).toMatchObject({ limit: 10, remaining: 6 });
    expect(await setOverride(ns.name, "user_1", 5)).toBe(id);
    expect(await limit(ns.name, "user_1", 10)).toMatchObject({ limit: 5, remaining: 0, overrideId: id });
  });

  test("an override of 0 blocks every request that costs anything, and one that costs nothing passes", async () => {
    const ns = rl.namespace();
    await setOverride(ns.name, "banned", 0);
    expect(await limit(ns.name, "banned", 1000)).toMatchObject({ success: false, limit: 0, remaining: 0 });
    const free = limitOf(
      await call("limit", { namespace: ns.name, identifier: "banned", limit: 1000, duration: 60_000, cost: 0 }),
    );
    expect(free).toMatchObject({ success: true, remaining: 0 });
  });

  test("an override set with the admin's connection (another process's commit) is seen by the next limit", async () => {
    const ns = rl.namespace();
    expect((await limit(ns.name, "cli_user")).limit).toBe(10);
    const id = rl.override(ns.id, "cli_*", 2, 60_000);
    expect(await limit(ns.name, "cli_user")).toMatchObject({ limit: 2, overrideId: id, remaining: 0 });
  });
});

describe("exact", () => {
  test("1,000 concurrent limits of one identifier let exactly the limit through, and each is recorded once", async () => {
    const ns = rl.namespace();
    const answers = await Promise.all(Array.from({ length: 1000 }, () => limit(ns.name, "hot", 137)));
    expect(answers.filter((answer) => answer.success)).toHaveLength(137);
    const remaining = answers.filter((answer) => answer.success).map((answer) => answer.remaining);
    expect(new Set(remaining).size).toBe(137);
    const decisions = rl.decisions(ns.id);
    expect(decisions).toHaveLength(1000);
    expect(decisions.filter((decision) => decision.passed === 1)).toHaveLength(137);
  });

  test("a multiLimit refused by one limit spends nothing of the others", async () => {
    const [a, b] = [rl.namespace(), rl.namespace()];
    const body = (max: number) => [
      { namespace: a.name, identifier: "u", limit: 5, duration: 60_000 },
      { namespace: b.name, identifier: "u", limit: max, duration: 60_000 },
    ];
    expect(multiLimitOf(await call("multiLimit", body(1))).passed).toBe(true);
    const refused = multiLimitOf(await call("multiLimit", body(1)));
    expect(refused.limits.map((check) => [check.passed, check.remaining])).toEqual([
      [true, 4],
      [false, 0],
    ]);
    expect(await limit(a.name, "u", 5)).toMatchObject({ remaining: 3 });
  });

  test("a server started on the same data goes on from the decisions recorded: no fresh allowance, refused batches not counted", async () => {
    const ns = rl.namespace();
    for (let index = 0; index < 3; index += 1) await limit(ns.name, "kept", 5);
    const other = rl.namespace();
    await call("multiLimit", [
      { namespace: ns.name, identifier: "kept", limit: 5, duration: 60_000 },
      { namespace: other.name, identifier: "kept", limit: 0 + 1, duration: 60_000, cost: 2 },
    ]);

    const db = openDatabase(server.dataDir);
    try {
      const restarted = createApp({ mode: directMode(db, server.dataDir), distDir: server.dataDir });
      const target: ApiTarget = { url: IN_PROCESS_URL, fetch: async (url, init) => restarted.request(url, init) };
      expect(await limit(ns.name, "kept", 5, target)).toMatchObject({ success: true, remaining: 1 });
      expect(await limit(ns.name, "kept", 5, target)).toMatchObject({ success: true, remaining: 0 });
      expect(await limit(ns.name, "kept", 5, target)).toMatchObject({ success: false });
    } finally {
      db.close();
    }
  });
});

describe("workspaces and permissions", () => {
  test("a namespace of the same name in another workspace is another namespace with its own counters", async () => {
    const mine = rl.namespace({ name: "shared-name" });
    const workspace = createWorkspace(server.admin.db, "another");
    const foreign = rl.namespace({ name: "shared-name", workspaceId: workspace });
    const foreignKey = createRootKey(server.admin.db, { workspaceId: workspace, name: "f", permissions: ALL }).secret;
    await call("limit", { namespace: "shared-name", identifier: "u", limit: 1, duration: 60_000 }, server, foreignKey);
    expect(await limit("shared-name", "u", 1)).toMatchObject({ success: true });
    expect(rl.decisions(mine.id)).toHaveLength(1);
    expect(rl.decisions(foreign.id)).toHaveLength(1);
    const byId = await call("getOverride", { namespace: foreign.id, identifier: "u" });
    expect(byId.status).toBe(404);
  });

  test("a root key of one namespace may limit there only, and is told which permission another needs", async () => {
    const [a, b] = [rl.namespace(), rl.namespace()];
    const scoped = createRootKey(server.admin.db, {
      workspaceId: server.admin.workspaceId,
      name: "scoped",
      permissions: [`ratelimit.${a.id}.limit`],
    }).secret;
    const ask = (namespace: string) => ({ namespace, identifier: "u", limit: 1, duration: 60_000 });
    expect((await call("limit", ask(a.name), server, scoped)).status).toBe(200);
    const refused = await call("limit", ask(b.name), server, scoped);
    expect(refused.status).toBe(403);
    expect((refused.json as { error: { detail: string } }).error.detail).toBe(
      `Missing one of these permissions: ratelimit.${b.id}.limit or ratelimit.*.limit`,
    );
    expect(rl.decisions(b.id)).toEqual([]);
  });
});
