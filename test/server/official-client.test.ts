import { join } from "node:path";
import { Unkey } from "@unkey/api";
import {
  BadRequestErrorResponse,
  ForbiddenErrorResponse,
  NotFoundErrorResponse,
  TooManyRequestsErrorResponse,
  UnauthorizedErrorResponse,
} from "@unkey/api/models/errors";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DATABASE_FILE_NAME } from "../../server/db/open";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * The real service's official TypeScript client (`@unkey/api`, pinned in devDependencies) against a real
 * `npm start` server: every operation the server serves, its typed results (a response that did not match the
 * client's schema would throw its ResponseValidationError), its page iterator, and its typed errors.
 * analytics.getVerifications is called once here; its SQL rules are the analytics suites' own.
 */

let server: StartedServer;
let unkey: Unkey;
let apiId: string;

function clientWith(rootKey: string): Unkey {
  // No retries: a test sees each answer as the server gave it.
  return new Unkey({ rootKey, serverURL: server.url, retryConfig: { strategy: "none" } });
}

/** `keys create` through the admin CLI: the id and the secret it prints. */
async function createKey(...flags: string[]): Promise<{ keyId: string; secret: string }> {
  const [keyId = "", secret = ""] = (
    await server.admin(["keys", "create", "--name", "client test key", ...flags])
  ).split(" ");
  return { keyId, secret };
}

function verificationRow(
  requestId: string,
): { key_id: string; outcome: string; tags: string; spent_credits: number; region: string } | undefined {
  const db = new Database(join(server.dataDir, DATABASE_FILE_NAME), { readonly: true });
  try {
    return db
      .prepare<[string], { key_id: string; outcome: string; tags: string; spent_credits: number; region: string }>(
        "SELECT key_id, outcome, tags, spent_credits, region FROM key_verifications WHERE request_id = ?",
      )
      .get(requestId);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startServer();
  if (server.rootKey === undefined) throw new Error("a first start prints the demo root key");
  unkey = clientWith(server.rootKey);
  apiId = (await server.admin(["apis", "list"])).split("\n")[1]?.split(/\s+/)[0] ?? "";
});

afterAll(async () => {
  await server.stop();
});

describe("apis.listKeys", () => {
  test("the page iterator visits every key of the API once, each a typed Key", async () => {
    const seen: string[] = [];
    let pages = 0;
    for await (const page of await unkey.apis.listKeys({ apiId, limit: 4 })) {
      pages += 1;
      seen.push(...page.result.data.map((key) => key.keyId));
    }

    const db = new Database(join(server.dataDir, DATABASE_FILE_NAME), { readonly: true });
    const stored = db.prepare<[string], string>("SELECT id FROM keys WHERE api_id = ? ORDER BY id").pluck().all(apiId);
    db.close();
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(stored);
  });

  test("the demo keys carry the whole Key object: usage, credits, rate limits, identity, permissions", async () => {
    const keys = [];
    for await (const page of await unkey.apis.listKeys({ apiId })) keys.push(...page.result.data);
    const byName = new Map(keys.map((key) => [key.name, key]));

    expect(byName.get("Checkout service")?.credits).toMatchObject({ refill: { interval: "daily", amount: 20 } });
    expect(byName.get("Production backend")).toMatchObject({
      permissions: ["documents.read", "documents.write", "users.view"],
      roles: ["editor"],
      ratelimits: [{ name: "requests", limit: 10, duration: 1000, autoApply: true }],
    });
    expect(byName.get("Acme Corp integration")?.identity).toMatchObject({ externalId: "org_acme" });
    expect(keys.filter((key) => key.lastUsedAt !== undefined).length).toBeGreaterThan(20);
    expect(JSON.stringify(keys)).not.toMatch(/sk_(live|test)_\w{10,}/);
  });

  test("decrypt asks for the decrypt permission, as the real service does, and revalidateKeysCache is accepted", async () => {
    const fresh = await unkey.apis.listKeys({ apiId, limit: 1, revalidateKeysCache: true });
    expect(fresh.result.data).toHaveLength(1);

    const error = await unkey.apis.listKeys({ apiId, decrypt: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ForbiddenErrorResponse);
    expect((error as ForbiddenErrorResponse).error.detail).toMatch(
      new RegExp(
        `^Missing one of these permissions: api\\.\\*\\.decrypt_key or api\\.${apiId}\\.decrypt_key or unkey:v1:ws_\\w+:keyspaces/${apiId}/keys/\\*#decrypt_key$`,
      ),
    );
  });

  test("an unknown API is a typed 404", async () => {
    const error = await unkey.apis.listKeys({ apiId: "api_unknown" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundErrorResponse);
    expect((error as NotFoundErrorResponse).statusCode).toBe(404);
  });

  test("the list page shows this server's own writes: a verification moves lastUsedAt and spends a credit", async () => {
    const { keyId, secret } = await createKey("--credits", "10", "--api", apiId);
    const listed = async () => {
      for await (const page of await unkey.apis.listKeys({ apiId })) {
        const key = page.result.data.find((candidate) => candidate.keyId === keyId);
        if (key !== undefined) return key;
      }
      throw new Error(`${keyId} is not listed`);
    };
    const before = await listed();
    expect(before.lastUsedAt).toBeUndefined();
    expect(before.credits?.remaining).toBe(10);

    await unkey.keys.verifyKey({ key: secret });

    const after = await listed();
    expect(after.lastUsedAt).toEqual(expect.any(Number));
    expect(after.credits?.remaining).toBe(9);
  });
});

describe("keys.getKey and keys.whoami", () => {
  test("getKey and whoami return the same typed Key, with everything the admin CLI gave it", async () => {
    const { keyId, secret } = await createKey(
      "--credits",
      "50",
      "--refill",
      "monthly:100",
      "--ratelimit",
      "5/1s",
      "--permissions",
      "documents.read",
      "--roles",
      "reader",
      "--external-id",
      "user_42",
      "--meta",
      '{"plan":"pro"}',
      "--expires",
      "+30d",
    );

    const got = await unkey.keys.getKey({ keyId });
    const whoami = await unkey.keys.whoami({ key: secret });

    expect(got.data).toEqual(whoami.data);
    expect(got.data).toMatchObject({
      keyId,
      name: "client test key",
      enabled: true,
      meta: { plan: "pro" },
      permissions: ["documents.read"],
      roles: ["reader"],
      credits: { remaining: 50, refill: { interval: "monthly", amount: 100, refillDay: 1 } },
      identity: { externalId: "user_42" },
      ratelimits: [{ name: "requests", limit: 5, duration: 1000, autoApply: true }],
    });
    expect(got.data.start).toBe(secret.slice(0, got.data.start.length));
    expect(got.data.plaintext).toBeUndefined();
    expect(got.data.expires).toBeGreaterThan(Date.now());
  });

  test("the per-API permission forms: api.<apiId>.read_key reads that API's keys; another API's gets getKey's typed 403 and whoami's 404", async () => {
    const { keyId, secret } = await createKey();
    const otherApi = await server.admin(["apis", "create", "--name", "Elsewhere"]);
    const ownApiReader = clientWith(
      await server.admin(["root-key", "create", "--permissions", `api.${apiId}.read_key,api.${apiId}.verify_key`]),
    );
    const otherApiReader = clientWith(
      await server.admin(["root-key", "create", "--permissions", `api.${otherApi}.read_key`]),
    );

    expect((await ownApiReader.keys.getKey({ keyId })).data.keyId).toBe(keyId);
    expect((await ownApiReader.keys.verifyKey({ key: secret })).data.code).toBe("VALID");
    const forbidden = await otherApiReader.keys.getKey({ keyId }).catch((caught: unknown) => caught);
    expect(forbidden).toBeInstanceOf(ForbiddenErrorResponse);
    expect((forbidden as ForbiddenErrorResponse).error.detail).toMatch(
      new RegExp(
        `^Missing one of these permissions: api\\.\\*\\.read_key or api\\.${apiId}\\.read_key or unkey:v1:ws_\\w+:keyspaces/${apiId}/keys/${keyId}#read_key$`,
      ),
    );
    // whoami hides the key as the real service does: the secret's holder learns nothing from a root key that may not read it.
    const hidden = await otherApiReader.keys.whoami({ key: secret }).catch((caught: unknown) => caught);
    expect(hidden).toBeInstanceOf(NotFoundErrorResponse);
    expect((hidden as NotFoundErrorResponse).error.type).toMatch(/\/errors\/svc\/data\/key_not_found$/);
  });

  test("an unknown key id or secret is a typed 404 key_not_found", async () => {
    for (const call of [
      () => unkey.keys.getKey({ keyId: "key_unknown1" }),
      () => unkey.keys.whoami({ key: "sk_live_nobody" }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotFoundErrorResponse);
      expect((error as NotFoundErrorResponse).error.type).toMatch(/\/errors\/svc\/data\/key_not_found$/);
    }
  });
});

describe("keys.verifyKey", () => {
  test("every outcome, each recorded with the call's request id", async () => {
    const credits = await createKey("--credits", "2");
    const limited = await createKey("--ratelimit", "1/1h");
    const disabled = await createKey("--disabled");
    const expired = await createKey("--expires=-1d");
    const permitted = await createKey("--permissions", "documents.read,users.view");
    const otherApi = await server.admin(["apis", "create", "--name", "Other API"]);
    const outsider = clientWith(
      await server.admin(["root-key", "create", "--permissions", `api.${otherApi}.verify_key`]),
    );

    const cases = [
      ["VALID", () => unkey.keys.verifyKey({ key: credits.secret, tags: ["path=/api/users"] })],
      ["USAGE_EXCEEDED", () => unkey.keys.verifyKey({ key: credits.secret, credits: { cost: 5 } })],
      ["VALID", () => unkey.keys.verifyKey({ key: limited.secret })],
      ["RATE_LIMITED", () => unkey.keys.verifyKey({ key: limited.secret })],
      ["DISABLED", () => unkey.keys.verifyKey({ key: disabled.secret })],
      ["EXPIRED", () => unkey.keys.verifyKey({ key: expired.secret })],
      [
        "INSUFFICIENT_PERMISSIONS",
        () =>
          unkey.keys.verifyKey({ key: permitted.secret, permissions: "documents.read AND (admin OR billing.write)" }),
      ],
      [
        "VALID",
        () => unkey.keys.verifyKey({ key: permitted.secret, permissions: "(admin OR users.view) AND documents.read" }),
      ],
      // A key of an API the root key may not verify is not found, as on the real service.
      ["NOT_FOUND", () => outsider.keys.verifyKey({ key: permitted.secret })],
      ["NOT_FOUND", () => unkey.keys.verifyKey({ key: "sk_live_nobody" })],
    ] as const;

    for (const [code, call] of cases) {
      const answer = await call();
      expect(answer.data, code).toMatchObject({ code, valid: code === "VALID" });
      const row = verificationRow(answer.meta.requestId);
      if (code === "NOT_FOUND") expect(row).toBeUndefined();
      else expect(row, code).toMatchObject({ key_id: answer.data.keyId, outcome: code, region: "local" });
    }
  });

  test("credits are spent, rate limits reported, and lastUsedAt set", async () => {
    const { keyId, secret } = await createKey("--credits", "10", "--ratelimit", "3/1h");

    const answer = await unkey.keys.verifyKey({
      key: secret,
      credits: { cost: 4 },
      tags: ["path=/api/orders", "method=GET"],
    });

    expect(answer.data).toMatchObject({ valid: true, code: "VALID", keyId, credits: 6 });
    expect(answer.data.ratelimits).toEqual([
      expect.objectContaining({
        name: "requests",
        limit: 3,
        duration: 3_600_000,
        autoApply: true,
        exceeded: false,
        remaining: 2,
      }),
    ]);
    expect(verificationRow(answer.meta.requestId)).toMatchObject({
      spent_credits: 4,
      tags: '["path=/api/orders","method=GET"]',
    });
    expect((await unkey.keys.getKey({ keyId })).data.lastUsedAt).toEqual(expect.any(Number));
  });

  test("a role's permissions are the key's: INSUFFICIENT_PERMISSIONS until the role is granted one, then VALID", async () => {
    await server.admin(["roles", "create", "--name", "billing", "--permissions", "invoices.read"]);
    const { keyId, secret } = await createKey("--permissions", "users.view", "--roles", "billing");
    const ask = () => unkey.keys.verifyKey({ key: secret, permissions: "invoices.write AND users.view" });

    expect((await ask()).data).toMatchObject({
      code: "INSUFFICIENT_PERMISSIONS",
      permissions: ["invoices.read", "users.view"],
      roles: ["billing"],
    });
    await server.admin(["roles", "grant", "--name", "billing", "--permissions", "invoices.write"]);
    expect((await ask()).data).toMatchObject({
      code: "VALID",
      permissions: ["invoices.read", "invoices.write", "users.view"],
      roles: ["billing"],
    });
    expect((await unkey.keys.getKey({ keyId })).data).toMatchObject({
      permissions: ["invoices.read", "invoices.write", "users.view"],
      roles: ["billing"],
    });
  });

  test("an identity's rate limit is shared by its keys, typed in getKey and in verifyKey's answer", async () => {
    const identityId = await server.admin([
      "identities",
      "create",
      "--external-id",
      "org_shared",
      "--ratelimit",
      "2/1h",
      "--ratelimit",
      "exports=1/1h",
    ]);
    const first = await createKey("--external-id", "org_shared");
    const second = await createKey("--external-id", "org_shared");
    const limits = [
      { name: "exports", limit: 1, duration: 3_600_000, autoApply: false },
      { name: "requests", limit: 2, duration: 3_600_000, autoApply: true },
    ];
    const withoutIds = (identity: { ratelimits?: { id: string }[] } | undefined) =>
      identity?.ratelimits?.map(({ id: _id, ...limit }) => limit);

    const { identity } = (await unkey.keys.getKey({ keyId: first.keyId })).data;
    expect(identity).toMatchObject({ id: identityId, externalId: "org_shared" });
    expect(withoutIds(identity)).toEqual(limits);
    const answer = await unkey.keys.verifyKey({ key: first.secret });
    expect(answer.data).toMatchObject({ code: "VALID", identity: { id: identityId, externalId: "org_shared" } });
    expect(withoutIds(answer.data.identity)).toEqual(limits);
    expect(answer.data.ratelimits).toEqual([
      expect.objectContaining({ name: "requests", remaining: 1, autoApply: true }),
    ]);
    expect((await unkey.keys.verifyKey({ key: second.secret, ratelimits: [{ name: "exports" }] })).data.code).toBe(
      "VALID",
    );
    expect((await unkey.keys.verifyKey({ key: second.secret })).data).toMatchObject({
      code: "RATE_LIMITED",
      ratelimits: [expect.objectContaining({ name: "requests", exceeded: true, remaining: 0 })],
    });
  });

  test("a root key that may verify no key is told NOT_FOUND, as if the key did not exist", async () => {
    const reader = clientWith(await server.admin(["root-key", "create", "--permissions", "api.*.read_key"]));
    const { secret } = await createKey();

    const answer = await reader.keys.verifyKey({ key: secret });

    expect(answer.data).toEqual({ valid: false, code: "NOT_FOUND" });
  });

  test("a permission query that does not parse is a typed 400 with its errors", async () => {
    const error = await unkey.keys
      .verifyKey({ key: "sk_live_x", permissions: "documents.read AND (" })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(BadRequestErrorResponse);
    const [entry, ...others] = (error as BadRequestErrorResponse).error.errors;
    expect(others).toEqual([]);
    expect(entry?.location).toBe("body.permissions");
    expect((error as BadRequestErrorResponse).error.type).toMatch(
      /\/errors\/user\/bad_request\/permissions_query_syntax_error$/,
    );
    expect((error as BadRequestErrorResponse).error.detail).toBe(
      "Unexpected end of query. Expected a permission identifier or opening parenthesis.",
    );
  });
});

describe("analytics.getVerifications", () => {
  test("answers the client's call with typed rows", async () => {
    const answer = await unkey.analytics.getVerifications({
      query: "SELECT outcome, count(*) AS n FROM key_verifications_v1 GROUP BY outcome",
    });
    expect(Array.isArray(answer.data)).toBe(true);
  });
});

describe("the client's typed errors", () => {
  test("a malformed Authorization header is a typed 400 with errors[], not a ResponseValidationError", async () => {
    const error = await clientWith("two words")
      .keys.getKey({ keyId: "key_x" })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(BadRequestErrorResponse);
    expect((error as BadRequestErrorResponse).statusCode).toBe(400);
    expect((error as BadRequestErrorResponse).error.errors.length).toBeGreaterThan(0);
  });

  test("an unknown root key is a typed 401", async () => {
    const error = await clientWith("ks_root_unknown")
      .apis.listKeys({ apiId })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnauthorizedErrorResponse);
    expect((error as UnauthorizedErrorResponse).statusCode).toBe(401);
  });

  test("a root key over its rate limit is a typed 429", async () => {
    const limited = clientWith(await server.admin(["root-key", "create", "--ratelimit", "1/1h"]));
    await limited.apis.listKeys({ apiId, limit: 1 });

    const error = await limited.apis.listKeys({ apiId, limit: 1 }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TooManyRequestsErrorResponse);
    expect((error as TooManyRequestsErrorResponse).statusCode).toBe(429);
  });
});
