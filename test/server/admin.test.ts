import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";
import { runTsx } from "./cli";
import { asKeyList, callApi } from "./http";

const ROOT_KEY_SECRET = /^ks_root_[1-9A-HJ-NP-Za-km-z]{28}$/;

let server: StartedServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.stop();
});

function admin(...args: string[]) {
  return runTsx("server/admin.ts", [...args, "--data-dir", server.dataDir]);
}

function listedRow(list: string, keyId: string): string {
  const row = list.split("\n").find((line) => line.startsWith(keyId));
  if (row === undefined) throw new Error(`${keyId} is not in the list:\n${list}`);
  return row;
}

describe("root keys, while the server runs", () => {
  test("create prints the secret alone, and the key works at once", async () => {
    const secret = await server.admin(["root-key", "create", "--name", "Fresh key"]);
    expect(secret).toMatch(ROOT_KEY_SECRET);
    expect((await callApi(server.url, { key: secret })).status).toBe(200);
  });

  test("list shows id, name, start, permissions, state and rate limit, and never a secret", async () => {
    const secret = await server.admin(["root-key", "create", "--name", "Listed key", "--permissions", "api.*.read_key,api.*.create_key", "--ratelimit", "1000/1m"]);
    const list = await server.admin(["root-key", "list"]);

    expect(list.split("\n")[0]).toMatch(/^ID\s+NAME\s+START\s+PERMISSIONS\s+STATE\s+RATELIMIT$/);
    const row = list.split("\n").find((line) => line.includes("Listed key")) ?? "";
    expect(row).toMatch(/^key_\S+\s+Listed key\s+ks_root_\S{4}…\s+api\.\*\.read_key,api\.\*\.create_key\s+enabled\s+1000\/1m$/);
    expect(list).not.toContain(secret);
    expect(list).toMatch(/Demo root key .* 300\/1m/);
  });

  test("revoke, disable and enable change what the server answers", async () => {
    const secret = await server.admin(["root-key", "create", "--name", "Changing key"]);
    const keyId = (await server.admin(["root-key", "list"])).split("\n").find((line) => line.includes("Changing key"))?.split(/\s+/)[0] ?? "";

    expect(await server.admin(["root-key", "disable", keyId])).toBe(`${keyId} disabled`);
    expect((await callApi(server.url, { key: secret })).status).toBe(403);
    expect(listedRow(await server.admin(["root-key", "list"]), keyId)).toMatch(/\sdisabled\s/);

    await server.admin(["root-key", "enable", keyId]);
    expect((await callApi(server.url, { key: secret })).status).toBe(200);

    expect(await server.admin(["root-key", "revoke", keyId])).toBe(`${keyId} revoked`);
    expect((await callApi(server.url, { key: secret })).status).toBe(401);
    expect(listedRow(await server.admin(["root-key", "list"]), keyId)).toMatch(/\srevoked\s/);

    const reenable = await admin("root-key", "enable", keyId);
    expect(reenable.code).toBe(1);
    expect(reenable.stderr).toMatch(/no root key .* that can be enabled/);
  });
});

describe("keys and apis", () => {
  test("apis create prints the new id and apis list shows it with its key count", async () => {
    const apiId = await server.admin(["apis", "create", "--name", "Billing API"]);
    expect(apiId).toMatch(/^api_[1-9A-HJ-NP-Za-km-z]+$/);
    await server.admin(["keys", "create", "--name", "one", "--api", apiId]);
    await server.admin(["keys", "create", "--name", "two", "--api", apiId, "--disabled"]);

    expect(await server.admin(["apis", "list"])).toMatch(new RegExp(`^${apiId}\\s+Billing API\\s+2$`, "m"));
  });

  test("keys create prints '<keyId> <secret>' and the key is listed with its state", async () => {
    const apiId = await server.admin(["apis", "create", "--name", "Create API"]);
    const line = await server.admin(["keys", "create", "--name", "Disabled, expiring", "--api", apiId, "--disabled", "--expires", "2030-01-31"]);
    expect(line).toMatch(/^key_[1-9A-HJ-NP-Za-km-z]+ sk_live_[1-9A-HJ-NP-Za-km-z]{24}$/);
    const [keyId] = line.split(" ");

    const keys = asKeyList(await callApi(server.url, { key: server.rootKey ?? "", body: { apiId } })).data.keys;
    expect(keys).toEqual([expect.objectContaining({ keyId, name: "Disabled, expiring", enabled: false, expires: Date.parse("2030-01-31") })]);
  });

  test("keys seed --count 100000 creates them all, while the server keeps answering", async () => {
    const apiId = await server.admin(["apis", "create", "--name", "Seeded API"]);
    // A root key without a rate limit: on a busy machine the polling may outlast the demo key's 300 a minute.
    const pollingKey = await server.admin(["root-key", "create", "--name", "polling"]);
    const seeding = server.admin(["keys", "seed", "--count", "100000", "--api", apiId]);
    const statuses: number[] = [];
    let done = false;
    void seeding.finally(() => (done = true));
    while (!done) {
      statuses.push((await callApi(server.url, { key: pollingKey, body: { limit: 5 } })).status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    expect(await seeding).toBe("100000");
    expect(new Set(statuses)).toEqual(new Set([200]));
    const db = new Database(join(server.dataDir, "keyscope.sqlite"), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) FROM keys WHERE api_id = ?").pluck().get(apiId)).toBe(100000);
      const names = db.prepare<[string], string>("SELECT name FROM keys WHERE api_id = ? LIMIT 50").pluck().all(apiId);
      expect(new Set(names).size).toBeGreaterThan(10);
    } finally {
      db.close();
    }

    // A page at the far end of 100,000 keys is as good as the first.
    const last = asKeyList(await callApi(server.url, { key: server.rootKey ?? "", body: { apiId, cursor: "key_zzzzzzzzzzzzzzzzzzzzzz" } }));
    expect(last.pagination.hasMore).toBe(false);
    const first = asKeyList(await callApi(server.url, { key: server.rootKey ?? "", body: { apiId } }));
    expect(first.data.keys).toHaveLength(100);
  });
});

describe("usage", () => {
  test.concurrent.each([
    ["an unknown command", ["root-key", "explode"]],
    ["a missing --name", ["apis", "create"]],
    ["an option the command does not take", ["keys", "seed", "--count", "5", "--name", "x"]],
    ["a bad rate limit", ["root-key", "create", "--ratelimit", "ten/1m"]],
    ["a bad permission", ["root-key", "create", "--permissions", "everything"]],
    ["a bad expiry", ["keys", "create", "--name", "x", "--expires", "soon"]],
    ["a count of zero", ["keys", "seed", "--count", "0"]],
  ])("%s is an error on stderr with exit code 2 and nothing on stdout", async (_case, args) => {
    const run = await admin(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^keyscope admin: /);
  });

  test("an unknown workspace is an error with exit code 1", async () => {
    const run = await admin("root-key", "list", "--workspace", "ws_1111111111111111111111");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no workspace ws_1111111111111111111111/);
  });

  test("on an empty data directory it creates the demo workspace, says so on stderr, and shows no demo key", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "keyscope-admin-"));
    const run = await runTsx("server/admin.ts", ["root-key", "list", "--data-dir", dataDir]);

    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Created the demo workspace ws_\S+/);
    expect(run.stderr + run.stdout).not.toMatch(/ks_root_[1-9A-HJ-NP-Za-km-z]{28}/);
    expect(run.stdout).toMatch(/Demo root key\s+ks_root_\S{4}…\s+api\.\*\.read_key,api\.\*\.read_analytics,api\.\*\.verify_key\s+enabled\s+300\/1m/);
  });
});
