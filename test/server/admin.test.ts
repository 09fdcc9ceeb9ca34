import Database from "better-sqlite3";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runAdminInProcess } from "../support/admin-in-process";
import { runTsx } from "./cli";
import { asKeyList, callApi } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";
import { DEMO_ROOT_KEY_PERMISSIONS } from "../../server/db/demo-data";

/**
 * The admin CLI on the database a running server reads: here the server is the app in this process (its own
 * connection, as `npm start` has). The commands run in this process too, through a connection of their own
 * (test/support/admin-in-process.ts); what only the program can show (exit codes and streams of a real process,
 * another user, a seed in a process beside a server that keeps answering) runs `node server/admin.ts`.
 */

const ROOT_KEY_SECRET = /^ks_root_[1-9A-HJ-NP-Za-km-z]{28}$/;

let server: InProcessServer;

beforeAll(() => {
  server = startInProcess();
});

afterAll(() => {
  server.close();
});

function admin(...args: string[]) {
  return Promise.resolve(runAdminInProcess([...args, "--data-dir", server.dataDir]));
}

/** The program itself, as a process of its own. */
function adminProcess(...args: string[]) {
  return runTsx("server/admin.ts", [...args, "--data-dir", server.dataDir]);
}

/** Runs an admin command that must succeed; its trimmed stdout. */
async function adminOk(...args: string[]): Promise<string> {
  const run = await admin(...args);
  if (run.code !== 0) throw new Error(`admin ${args.join(" ")} exited with ${run.code}: ${run.stderr}`);
  return run.stdout.trim();
}

function listedRow(list: string, keyId: string): string {
  const row = list.split("\n").find((line) => line.startsWith(keyId));
  if (row === undefined) throw new Error(`${keyId} is not in the list:\n${list}`);
  return row;
}

describe("root keys, while the server runs", () => {
  test("create prints the secret alone, and the key works at once (the program, as a process)", async () => {
    const run = await adminProcess("root-key", "create", "--name", "Fresh key");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${ROOT_KEY_SECRET.source.slice(1, -1)}\n$`));
    const secret = run.stdout.trim();
    expect((await callApi(server, { key: secret })).status).toBe(200);
  });

  test("create takes the real service's URN-form permissions, which allow what they name and no more", async () => {
    const apiId = await adminOk("apis", "create", "--name", "URN API");
    const keyId = (await adminOk("keys", "create", "--name", "URN key", "--api", apiId)).split(" ")[0] ?? "";
    const urn = `unkey:v1:${server.admin.workspaceId}:keyspaces/${apiId}/keys/${keyId}#read_key`;
    const secret = await adminOk("root-key", "create", "--name", "URN reader", "--permissions", urn);
    expect((await callApi(server, { key: secret, path: "/v2/keys.getKey", body: { keyId } })).status).toBe(200);
    // Reading one key is not listing its API's keys.
    expect((await callApi(server, { key: secret, body: { apiId } })).status).toBe(403);
    expect(await adminOk("root-key", "list")).toContain(urn);
  });

  test("list shows id, name, start, permissions, state and rate limit, and never a secret", async () => {
    const secret = await adminOk(
      "root-key",
      "create",
      "--name",
      "Listed key",
      "--permissions",
      "api.*.read_key,api.*.create_key",
      "--ratelimit",
      "1000/1m",
    );
    const list = await adminOk("root-key", "list");

    expect(list.split("\n")[0]).toMatch(/^ID\s+NAME\s+START\s+PERMISSIONS\s+STATE\s+RATELIMIT$/);
    const row = list.split("\n").find((line) => line.includes("Listed key")) ?? "";
    expect(row).toMatch(
      /^key_\S+\s+Listed key\s+ks_root_\S{4}…\s+api\.\*\.read_key,api\.\*\.create_key\s+enabled\s+1000\/1m$/,
    );
    expect(list).not.toContain(secret);
    expect(list).toMatch(/Demo root key .* 300\/1m/);
  });

  test("revoke, disable and enable change what the server answers", async () => {
    const secret = await adminOk("root-key", "create", "--name", "Changing key");
    const keyId =
      (await adminOk("root-key", "list"))
        .split("\n")
        .find((line) => line.includes("Changing key"))
        ?.split(/\s+/)[0] ?? "";

    expect(await adminOk("root-key", "disable", keyId)).toBe(`${keyId} disabled`);
    expect((await callApi(server, { key: secret })).status).toBe(403);
    expect(listedRow(await adminOk("root-key", "list"), keyId)).toMatch(/\sdisabled\s/);

    await adminOk("root-key", "enable", keyId);
    expect((await callApi(server, { key: secret })).status).toBe(200);

    expect(await adminOk("root-key", "revoke", keyId)).toBe(`${keyId} revoked`);
    expect((await callApi(server, { key: secret })).status).toBe(401);
    expect(listedRow(await adminOk("root-key", "list"), keyId)).toMatch(/\srevoked\s/);

    const reenable = await admin("root-key", "enable", keyId);
    expect(reenable.code).toBe(1);
    expect(reenable.stderr).toMatch(/no root key .* that can be enabled/);
  });
});

describe("keys and apis", () => {
  test("apis create prints the new id and apis list shows it with its key count", async () => {
    const apiId = await adminOk("apis", "create", "--name", "Billing API");
    expect(apiId).toMatch(/^api_[1-9A-HJ-NP-Za-km-z]+$/);
    await adminOk("keys", "create", "--name", "one", "--api", apiId);
    await adminOk("keys", "create", "--name", "two", "--api", apiId, "--disabled");

    expect(await adminOk("apis", "list")).toMatch(
      new RegExp(`^${apiId}\\s+Billing API\\s+2\\s+-\\s+-\\s+off\\s+-$`, "m"),
    );
  });

  test("keys create prints '<keyId> <secret>' and the key is listed with its state", async () => {
    const apiId = await adminOk("apis", "create", "--name", "Create API");
    const line = await adminOk(
      "keys",
      "create",
      "--name",
      "Disabled, expiring",
      "--api",
      apiId,
      "--disabled",
      "--expires",
      "2030-01-31",
    );
    expect(line).toMatch(/^key_[1-9A-HJ-NP-Za-km-z]+ sk_live_[1-9A-HJ-NP-Za-km-z]{24}$/);
    const [keyId] = line.split(" ");

    const keys = asKeyList(await callApi(server, { key: server.rootKey, body: { apiId } })).data.keys;
    expect(keys).toEqual([
      expect.objectContaining({ keyId, name: "Disabled, expiring", enabled: false, expires: Date.parse("2030-01-31") }),
    ]);
  });

  test("keys seed --count 100000 creates them all, while the server keeps answering", async () => {
    const apiId = await adminOk("apis", "create", "--name", "Seeded API");
    // A key without a rate limit: the demo key's 300 a minute would run out while a slow machine seeds.
    const poller = server.admin.createRootKey({ name: "poller" }).secret;
    // A process of its own: the seed writes while this process's server answers.
    const seeding = adminProcess("keys", "seed", "--count", "100000", "--api", apiId).then((run) => {
      if (run.code !== 0) throw new Error(`keys seed exited with ${run.code}: ${run.stderr}`);
      return run.stdout.trim();
    });
    const statuses: number[] = [];
    let done = false;
    void seeding.finally(() => (done = true));
    while (!done) {
      statuses.push((await callApi(server, { key: poller, body: { limit: 5 } })).status);
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
    const last = asKeyList(
      await callApi(server, { key: server.rootKey, body: { apiId, cursor: "key_zzzzzzzzzzzzzzzzzzzzzz" } }),
    );
    expect(last.pagination.hasMore).toBe(false);
    const first = asKeyList(await callApi(server, { key: server.rootKey, body: { apiId } }));
    expect(first.data.keys).toHaveLength(100);
  }, 90_000);
});

describe("usage", () => {
  test.concurrent.each([
    ["an unknown command", ["root-key", "explode"]],
    ["a missing --name", ["apis", "create"]],
    ["an option the command does not take", ["keys", "seed", "--count", "5", "--name", "x"]],
    ["a bad rate limit", ["root-key", "create", "--ratelimit", "ten/1m"]],
    ["a bad permission", ["root-key", "create", "--permissions", "everything"]],
    [
      "a URN permission off the real service's grammar",
      ["root-key", "create", "--permissions", "unkey:v1:ws_1:keyspaces/*#*"],
    ],
    [
      "a URN permission of another workspace",
      ["root-key", "create", "--permissions", "unkey:v1:ws_1111111111111111111111:**#*"],
    ],
    ["empty permissions", ["root-key", "create", "--permissions", ""]],
    ["permissions that are only commas", ["root-key", "create", "--permissions", " , "]],
    ["a bad expiry", ["keys", "create", "--name", "x", "--expires", "soon"]],
    ["a count of zero", ["keys", "seed", "--count", "0"]],
  ])("%s is an error on stderr with exit code 2 and nothing on stdout", async (_case, args) => {
    const run = await admin(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^keyscope admin: /);
  });

  test("the program exits with code 2 on a usage error, the message on stderr and nothing on stdout", async () => {
    const run = await adminProcess("root-key", "explode");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe('keyscope admin: unknown command "root-key explode"\n');
  });

  test("an unknown workspace is an error with exit code 1", async () => {
    const run = await admin("root-key", "list", "--workspace", "ws_1111111111111111111111");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no workspace ws_1111111111111111111111/);
  });

  test("a command that writes, on an empty data directory, creates the demo workspace, says so on stderr, and shows no demo key", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "keyscope-admin-"));
    const run = runAdminInProcess(["apis", "create", "--name", "First API", "--data-dir", dataDir]);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^api_[1-9A-HJ-NP-Za-km-z]+\n$/);
    expect(run.stderr).toMatch(/Created the demo workspace ws_\S+/);
    expect(run.stderr + run.stdout).not.toMatch(/ks_root_[1-9A-HJ-NP-Za-km-z]{28}/);
    const list = runAdminInProcess(["root-key", "list", "--data-dir", dataDir]);
    const permissions = DEMO_ROOT_KEY_PERMISSIONS.join(",").replace(/[.*]/g, "\\$&");
    expect(list.stdout).toMatch(new RegExp(`Demo root key\\s+ks_root_\\S{4}…\\s+${permissions}\\s+enabled\\s+300/1m`));
  });
});

describe("a data directory that cannot be used is one line naming it and the fix", () => {
  test.concurrent.each([
    ["root-key", "list"],
    ["apis", "list"],
  ])("%s %s on a mistyped --data-dir creates nothing there", (group, action) => {
    const mistyped = join(mkdtempSync(join(tmpdir(), "keyscope-admin-")), "dta");
    const run = runAdminInProcess([group, action, "--data-dir", mistyped]);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `keyscope admin: there is no Keyscope database at ${join(mistyped, "keyscope.sqlite")}: check --data-dir (the directory the server was started with)\n`,
    );
    expect(existsSync(mistyped)).toBe(false);
  });

  test("a data directory that is a file", () => {
    const file = join(mkdtempSync(join(tmpdir(), "keyscope-admin-")), "data");
    writeFileSync(file, "not a directory");
    const run = runAdminInProcess(["root-key", "create", "--data-dir", file]);

    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `keyscope admin: the data directory ${file} is a file (or lies under one): pass a directory with --data-dir\n`,
    );
  });

  test("a data directory this user may not write in", async () => {
    const parent = mkdtempSync(join(tmpdir(), "keyscope-admin-"));
    const readOnly = join(parent, "read-only");
    mkdirSync(readOnly);
    chmodSync(parent, 0o755);
    chmodSync(readOnly, 0o555);
    // root may write in any ordinary directory. Running the command as nobody instead needs the checkout to be
    // readable by nobody, which a clone under a private directory (mktemp -d) is not; sysfs lets no one, root
    // included, create a file in it.
    const notWritable = process.getuid?.() === 0 ? "/sys/fs" : readOnly;
    const run = await runTsx("server/admin.ts", ["root-key", "create", "--data-dir", notWritable]);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^keyscope admin: cannot write in the data directory ${resolve(notWritable)} \\(\\w+\\): make it writable for this user, or pass another with --data-dir\n$`,
      ),
    );
  });
});
