import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../server/app";
import { createRootKey } from "../../server/db/root-keys";
import { findApi } from "../../server/db/apis";
import { findWorkspace } from "../../server/db/workspaces";
import { keyInserter } from "../../server/db/keys";
import { openDatabase } from "../../server/db/open";
import { ensureDemoData } from "../../server/db/demo-data";
import { directMode } from "../../server/process/start";

/** Every body field of the key operations, in-process: each bad value gets the invalid_input envelope naming it. */

const ErrorAnswer = v.object({
  meta: v.object({ requestId: v.string() }),
  error: v.object({
    status: v.number(),
    type: v.string(),
    errors: v.array(v.object({ location: v.string(), message: v.string(), fix: v.optional(v.string()) })),
  }),
});

let db: Database;
let app: ReturnType<typeof createApp>;
let rootKey: string;

beforeAll(() => {
  const dataDir = mkdtempSync(join(tmpdir(), "keyscope-key-ops-"));
  db = openDatabase(dataDir);
  ensureDemoData(db);
  const workspace = findWorkspace(db);
  if (workspace === undefined) throw new Error("no demo workspace");
  rootKey = createRootKey(db, {
    workspaceId: workspace.id,
    name: "t",
    permissions: ["api.*.read_key", "api.*.verify_key"],
  }).secret;
  app = createApp({ mode: directMode(db, dataDir), distDir: "/nonexistent" });
});

afterAll(() => {
  db.close();
});

async function post(operation: string, body: string, authorization = `Bearer ${rootKey}`) {
  const response = await app.request(`http://127.0.0.1/v2/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization },
    body,
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

type BadBody = readonly [body: string, location: string];

const BAD_BODIES: Record<string, readonly BadBody[]> = {
  "keys.getKey": [
    ["{}", "body.keyId"],
    ['{"keyId": 5}', "body.keyId"],
    ['{"keyId": "not-a-key-id"}', "body.keyId"],
    ['{"keyId": "key_abc", "decrypt": "yes"}', "body.decrypt"],
    ['{"keyId": "key_abc", "extra": 1}', "body.extra"],
  ],
  "keys.whoami": [
    ["{}", "body.key"],
    ['{"key": ""}', "body.key"],
    [JSON.stringify({ key: "k".repeat(513) }), "body.key"],
    ['{"key": ["sk"]}', "body.key"],
  ],
  "keys.verifyKey": [
    ["{}", "body.key"],
    ['{"key": "sk", "tags": "path=/"}', "body.tags"],
    ['{"key": "sk", "tags": [1]}', "body.tags.0"],
    [JSON.stringify({ key: "sk", tags: Array.from({ length: 21 }, (_, index) => `t${index}`) }), "body.tags"],
    ['{"key": "sk", "permissions": ""}', "body.permissions"],
    ['{"key": "sk", "credits": 1}', "body.credits"],
    ['{"key": "sk", "credits": {"cost": -1}}', "body.credits.cost"],
    ['{"key": "sk", "credits": {"cost": 1.5}}', "body.credits.cost"],
    ['{"key": "sk", "credits": {"cost": 1, "more": 2}}', "body.credits.more"],
    ['{"key": "sk", "ratelimits": {}}', "body.ratelimits"],
    ['{"key": "sk", "ratelimits": [{}]}', "body.ratelimits.0.name"],
    ['{"key": "sk", "ratelimits": [{"name": "r", "limit": 0}]}', "body.ratelimits.0.limit"],
    ['{"key": "sk", "ratelimits": [{"name": "r", "duration": "1s"}]}', "body.ratelimits.0.duration"],
    ['{"key": "sk", "migrationId": 5}', "body.migrationId"],
    [JSON.stringify({ key: "sk", migrationId: "m".repeat(257) }), "body.migrationId"],
  ],
  "keys.migrateKeys": [
    ["{}", "body.migrationId"],
    ['{"migrationId": "mig_x", "apiId": "api_x", "keys": {}}', "body.keys"],
    ['{"migrationId": "mig_x", "apiId": "api_x", "keys": []}', "body.keys"],
    ['{"migrationId": "mig_x", "apiId": "api_x", "keys": [{"hash": 5}]}', "body.keys.0.hash"],
    ['{"migrationId": "mig_x", "apiId": "api_x", "keys": [{"hash": "abc", "key": "sk"}]}', "body.keys.0.key"],
    ['{"migrationId": "mig_x", "apiId": "api_x", "keys": [{"hash": "abc", "expires": -1}]}', "body.keys.0.expires"],
    [
      '{"migrationId": "mig_x", "apiId": "api_x", "keys": [{"hash": "abc", "credits": {"remaining": 5, "more": 1}}]}',
      "body.keys.0.credits.more",
    ],
    [
      JSON.stringify({
        migrationId: "mig_x",
        apiId: "api_x",
        keys: Array.from({ length: 10_001 }, () => ({ hash: "abc" })),
      }),
      "body.keys",
    ],
  ],
  "apis.listKeys": [
    ["{}", "body.apiId"],
    ['{"apiId": "api_x", "decrypt": 1}', "body.decrypt"],
    ['{"apiId": "api_x", "revalidateKeysCache": "true"}', "body.revalidateKeysCache"],
  ],
};

/** A body each operation takes: the Authorization header is looked at only once the body is valid, as the real service does. */
const VALID_BODIES: Record<string, string> = {
  "keys.getKey": '{"keyId": "key_abc"}',
  "keys.whoami": '{"key": "sk"}',
  "keys.verifyKey": '{"key": "sk"}',
  "apis.listKeys": '{"apiId": "api_x"}',
  "keys.migrateKeys": '{"migrationId": "mig_x", "apiId": "api_x", "keys": [{"hash": "abc"}]}',
};

describe.each(Object.entries(BAD_BODIES))("%s", (operation, cases) => {
  test.each(cases)("%s is invalid_input at %s", async (body: string, location: string) => {
    const answer = await post(operation, body);
    expect(answer.status).toBe(400);
    const { error } = v.parse(ErrorAnswer, answer.json);
    expect(error.type).toMatch(/\/errors\/svc\/application\/invalid_input$/);
    expect(error.errors.map((entry) => entry.location)).toContain(location);
  });

  test("a body that is not JSON, or an array, is invalid_input at body", async () => {
    for (const body of ["{nope", "[]"]) {
      const answer = await post(operation, body);
      expect(answer.status).toBe(400);
      expect(v.parse(ErrorAnswer, answer.json).error.errors[0]?.location).toBe("body");
    }
  });

  test("a malformed Authorization header is a 400 with errors[] too", async () => {
    const answer = await post(operation, VALID_BODIES[operation] ?? "{}", "Bearer two words");
    expect(answer.status).toBe(400);
    expect(v.parse(ErrorAnswer, answer.json).error.errors).toEqual([
      expect.objectContaining({ location: "header.Authorization" }),
    ]);
  });
});

test("a body that is not JSON is refused without quoting it back: it may hold a secret", async () => {
  const answer = await post("keys.verifyKey", '{"key": sk_live_secretpart123}');
  expect(answer.status).toBe(400);
  expect(JSON.stringify(answer.json)).not.toMatch(/secretpart|sk_live_s/);
  expect(v.parse(ErrorAnswer, answer.json).error.errors[0]?.message).toMatch(/^Unexpected token/);
});

test("a verifyKey ratelimit naming no limit of the key, without limit and duration, is a 412 naming the key", async () => {
  const workspace = findWorkspace(db);
  const api = workspace === undefined ? undefined : findApi(db, workspace.id);
  if (workspace === undefined || api === undefined) throw new Error("no demo API");
  const keyId = keyInserter(db)({
    workspaceId: workspace.id,
    apiId: api.id,
    name: "limited",
    secret: "sk_live_named",
    enabled: true,
    createdAt: Date.now(),
  });

  const answer = await post("keys.verifyKey", JSON.stringify({ key: "sk_live_named", ratelimits: [{ name: "nope" }] }));

  expect(answer.status).toBe(412);
  expect(answer.json).toMatchObject({
    error: {
      detail: `ratelimit 'nope' was requested but does not exist for key '${keyId}' and there is no identity connected.`,
    },
  });
  const withOwnLimit = await post(
    "keys.verifyKey",
    JSON.stringify({ key: "sk_live_named", ratelimits: [{ name: "nope", limit: 1, duration: 1000 }] }),
  );
  expect(withOwnLimit.status).toBe(200);
});
