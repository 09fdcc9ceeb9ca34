import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_KINDS, type ErrorCode } from "../../src/lib/contract";
import { startInProcess, type InProcessServer } from "./in-process";
import { asError, asKeyList, callApi, requestIdOf, typeFor, waitForLogLine, type ApiAnswer } from "./http";

let server: InProcessServer;
let demoKey: string;

beforeAll(() => {
  server = startInProcess();
  demoKey = server.rootKey;
});

afterAll(() => {
  server.close();
});

/** Asserts the answer is the error envelope of `code`, with the contract's status, title and type. */
function expectError(answer: ApiAnswer, code: ErrorCode) {
  const kind = ERROR_KINDS[code];
  expect(answer.status).toBe(kind.status);
  // A 429 is problem+json, as the real service's (its official client reads a 429 by that type only).
  expect(answer.headers.get("content-type")).toBe(
    kind.status === 429 ? "application/problem+json" : "application/json",
  );
  const envelope = asError(answer);
  expect(envelope.error).toMatchObject({ status: kind.status, title: kind.title, type: typeFor(server.url, code) });
  return envelope;
}

describe("authentication", () => {
  test("a request without a key gets the missing-credentials envelope", async () => {
    const answer = await callApi(server, { body: {} });

    expect(answer.status).toBe(401);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.json).toEqual({
      meta: { requestId: requestIdOf(answer) },
      error: {
        detail: "Authentication credentials were not provided",
        status: 401,
        title: "Unauthorized",
        type: `${server.url}/docs/errors/svc/authentication/missing`,
      },
    });
  });

  test("every response carries its own request id: req_ and 22 base58 characters (no 0, O, I or l)", async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, async () => asError(await callApi(server)).meta.requestId),
    );
    for (const id of ids) expect(id).toMatch(/^req_[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each([
    ["another scheme", "Basic x"],
    ["the scheme alone", "Bearer"],
    ["a lowercase scheme", "bearer TOKEN"],
    ["a bare key", "TOKEN"],
    ["a tab instead of the space", "Bearer\tTOKEN"],
    ["whitespace inside the token", "Bearer TOKEN extra"],
  ])("a header with %s is malformed", async (_case, header) => {
    const answer = await callApi(server, { authorization: header.replace("TOKEN", demoKey) });
    expectError(answer, "err:svc:authentication:malformed");
  });

  test("spaces between Bearer and the key are read past, as the real service reads them, so the key works", async () => {
    const answer = await callApi(server, { authorization: `Bearer  ${demoKey}` });
    expect(answer.status).toBe(200);
  });

  test("whitespace around the header value is not part of it (HTTP strips it), so the key still works", async () => {
    const answer = await callApi(server, { authorization: `Bearer ${demoKey}  ` });
    expect(answer.status).toBe(200);
  });

  test("an unknown key and a revoked key get identical answers apart from the request id", async () => {
    const { id: keyId, secret: revokedKey } = server.admin.createRootKey({ name: "to be revoked" });
    expect((await callApi(server, { key: revokedKey })).status).toBe(200);
    server.admin.changeRootKey(keyId, "revoke");

    const revoked = await callApi(server, { key: revokedKey });
    const unknown = await callApi(server, { key: "ks_root_1111111111111111111111111111" });

    expectError(revoked, "err:svc:authentication:key_not_found");
    const withoutId = (answer: ApiAnswer) => ({ ...asError(answer), meta: null });
    expect(withoutId(revoked)).toEqual(withoutId(unknown));
    expect([...revoked.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
  });

  test("a disabled root key is refused with 403 until it is enabled again", async () => {
    const { id: keyId, secret: key } = server.admin.createRootKey({ name: "to be disabled" });
    server.admin.changeRootKey(keyId, "disable");

    expectError(await callApi(server, { key }), "err:svc:authorization:key_disabled");

    server.admin.changeRootKey(keyId, "enable");
    expect((await callApi(server, { key })).status).toBe(200);
  });
});

describe("permissions and scope", () => {
  test("a root key without a read permission gets insufficient_permissions", async () => {
    const key = server.admin.createRootKey({ permissions: ["api.*.create_key"] }).secret;
    expectError(await callApi(server, { key }), "err:svc:authorization:insufficient_permissions");
  });

  test("a key allowed to read one API lists that API's keys but not the whole workspace", async () => {
    const apiId = server.admin.createApi("Scoped API");
    server.admin.createKey({ name: "Scoped key", apiId });
    const key = server.admin.createRootKey({ permissions: [`api.${apiId}.read_key`] }).secret;

    const scoped = asKeyList(await callApi(server, { key, body: { apiId } }));
    expect(scoped.data.keys.map((listed) => listed.name)).toEqual(["Scoped key"]);

    expectError(await callApi(server, { key }), "err:svc:authorization:insufficient_permissions");
  });

  test("an unknown apiId is a 404", async () => {
    const answer = await callApi(server, { key: demoKey, body: { apiId: "api_1111111111111111111111" } });
    expectError(answer, "err:svc:data:api_not_found");
  });
});

describe("the request body", () => {
  test("an empty body is read as {}", async () => {
    const answer = await callApi(server, { key: demoKey });
    expect(asKeyList(answer).data.keys.length).toBeGreaterThan(0);
  });

  test.each([
    ["invalid JSON", "{limit: 10", "body"],
    ["a JSON array", "[]", "body"],
    ["an unknown field", { limit: 10, pageSize: 5 }, "body.pageSize"],
    ["limit 0", { limit: 0 }, "body.limit"],
    ["limit 101", { limit: 101 }, "body.limit"],
    ["a fractional limit", { limit: 2.5 }, "body.limit"],
    ["a limit given as a string", { limit: "10" }, "body.limit"],
    ["a garbage cursor", { cursor: "not a cursor!" }, "body.cursor"],
    ["an apiId of the wrong type", { apiId: 42 }, "body.apiId"],
  ])("%s is invalid input with errors[] naming %s", async (_case, body, location) => {
    const envelope = expectError(await callApi(server, { key: demoKey, body }), "err:svc:application:invalid_input");
    const named = envelope.error.errors?.find((entry) => entry.location === location);
    expect(named?.message).toBeTruthy();
  });

  test("a body over 1 MiB is refused with 413", async () => {
    const answer = await callApi(server, { key: demoKey, body: JSON.stringify({ pad: "x".repeat(2 * 1024 * 1024) }) });
    expectError(answer, "err:user:bad_request:request_body_too_large");
  });

  test("a chunked body is cut off once it passes 1 MiB", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 2 * 1024 * 1024) controller.close();
        else {
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        }
      },
    });
    // A stream body goes out chunked, without a Content-Length to refuse it by.
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { authorization: `Bearer ${demoKey}` },
      body,
      duplex: "half",
    };
    const response = await server.fetch(`${server.url}/v2/keys.listKeys`, init);
    const text = await response.text();
    const json: unknown = JSON.parse(text);
    const answer = { status: response.status, headers: response.headers, text, json };
    expectError(answer, "err:user:bad_request:request_body_too_large");
  });

  test("the body is only read after authentication: without a key even a huge body gets 401", async () => {
    const answer = await callApi(server, { body: "x".repeat(2 * 1024 * 1024) });
    expectError(answer, "err:svc:authentication:missing");
  });
});

describe("listing and paging", () => {
  let apiId: string;
  let storedIds: string[];

  beforeAll(() => {
    apiId = server.admin.createApi("Paged API");
    server.admin.seedKeys(1000, apiId);
    const db = new Database(join(server.dataDir, "keyscope.sqlite"), { readonly: true });
    try {
      storedIds = db.prepare<[string], string>("SELECT id FROM keys WHERE api_id = ?").pluck().all(apiId);
    } finally {
      db.close();
    }
  });

  test("paging through 1,000 keys 100 at a time yields each key exactly once, in keyId order", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = asKeyList(
        await callApi(server, { key: demoKey, body: { apiId, limit: 100, ...(cursor && { cursor }) } }),
      );
      pages += 1;
      seen.push(...page.data.keys.map((key) => key.keyId));
      if (!page.pagination.hasMore) {
        expect(page.pagination.cursor).toBeUndefined();
        break;
      }
      cursor = page.pagination.cursor;
      expect(cursor).toBeDefined();
    }

    expect(pages).toBe(10);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect([...seen].sort()).toEqual([...storedIds].sort());
    expect(seen).toEqual([...seen].sort());
  });

  test("the default page holds 100 keys", async () => {
    const page = asKeyList(await callApi(server, { key: demoKey, body: { apiId } }));
    expect(page.data.keys).toHaveLength(100);
    expect(page.pagination.hasMore).toBe(true);
  });

  test("listed keys carry name, start, state and dates, and never a secret or hash", async () => {
    const { keyId, secret } = server.admin.createKey({ name: "Expiring key", expires: "2031-02-03T04:05:06Z", apiId });
    let found;
    let cursor: string | undefined;
    do {
      const page = asKeyList(await callApi(server, { key: demoKey, body: { apiId, ...(cursor && { cursor }) } }));
      found ??= page.data.keys.find((key) => key.keyId === keyId);
      expect(page.data.keys.every((key) => !JSON.stringify(key).includes(secret ?? "?"))).toBe(true);
      cursor = page.pagination.cursor;
    } while (cursor !== undefined && found === undefined);

    expect(found).toEqual({
      keyId,
      name: "Expiring key",
      start: secret?.slice(0, "sk_live_".length + 4),
      enabled: true,
      createdAt: found?.createdAt,
      expires: Date.parse("2031-02-03T04:05:06Z"),
    });
    expect(Math.abs((found?.createdAt ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  test("the demo workspace holds a mix of states: disabled, expired, with meta", async () => {
    const demoApiId = queryOne<string>("SELECT id FROM apis WHERE name = 'Demo API'");
    const keys = asKeyList(await callApi(server, { key: demoKey, body: { apiId: demoApiId } })).data.keys;
    expect(keys).toHaveLength(25);
    expect(keys.some((key) => !key.enabled)).toBe(true);
    expect(keys.some((key) => key.expires !== undefined && key.expires < Date.now())).toBe(true);
    expect(keys.some((key) => key.meta !== undefined)).toBe(true);
  });

  test("a key created while the server runs is in the very next answer to the same request", async () => {
    const freshApi = server.admin.createApi("Fresh API");
    const before = asKeyList(await callApi(server, { key: demoKey, body: { apiId: freshApi } }));
    expect(before.data.keys).toEqual([]);

    server.admin.createKey({ name: "Just made", apiId: freshApi });

    const after = asKeyList(await callApi(server, { key: demoKey, body: { apiId: freshApi } }));
    expect(after.data.keys.map((key) => key.name)).toEqual(["Just made"]);
  });

  test("externalId filters the list", async () => {
    const keys = asKeyList(await callApi(server, { key: demoKey, body: { externalId: "org_acme" } })).data.keys;
    expect(keys.map((key) => key.name).sort()).toEqual(["Acme Corp integration", "Edge functions"]);
  });
});

describe("rate limits", () => {
  test("a root key past its limit gets 429 with Retry-After while another key is unaffected", async () => {
    const limited = server.admin.createRootKey({ ratelimit: "3/60s" }).secret;
    for (let request = 0; request < 3; request += 1) {
      expect((await callApi(server, { key: limited, body: { limit: 1 } })).status).toBe(200);
    }

    const refused = await callApi(server, { key: limited, body: { limit: 1 } });
    expectError(refused, "err:user:too_many_requests:rate_limited");
    const retryAfter = refused.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    expect((await callApi(server, { key: demoKey, body: { limit: 1 } })).status).toBe(200);
  });
});

describe("the real service's apis.listKeys", () => {
  test("lists one API's keys with data as the array itself, and pages like keys.listKeys", async () => {
    const apiId = queryOne<string>("SELECT id FROM apis WHERE name = 'Demo API'");
    const answer = await callApi(server, { key: demoKey, path: "/v2/apis.listKeys", body: { apiId, limit: 2 } });
    expect(answer.status).toBe(200);
    const body = answer.json as { data: unknown; pagination: { hasMore: boolean; cursor?: string } };
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.data).toHaveLength(2);
    expect(body.pagination.hasMore).toBe(true);
    expect(body.pagination.cursor).toMatch(/^key_/);
  });

  test("refuses a request without apiId as invalid input naming the field", async () => {
    const answer = await callApi(server, { key: demoKey, path: "/v2/apis.listKeys", body: {} });
    expect(answer.status).toBe(400);
    expect(asError(answer).error.type).toBe(typeFor(server.url, "err:svc:application:invalid_input"));
    expect(asError(answer).error.errors?.[0]?.location).toBe("body.apiId");
  });
});

describe("other routes", () => {
  test("liveness answers OK with a request id", async () => {
    const answer = await callApi(server, { method: "GET", path: "/v2/liveness" });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ meta: { requestId: requestIdOf(answer) }, data: { message: "OK" } });
  });

  test("an unknown operation is a 404 envelope and a wrong method a 405 naming the right one", async () => {
    const unknown = await callApi(server, { path: "/v2/keys.frobnicate" });
    expect(unknown.status).toBe(404);
    expect(asError(unknown).error.type).toBe(typeFor(server.url, "err:keyscope:routing:not_found"));

    const wrongMethod = await callApi(server, { method: "GET" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  test("each request is logged as one line without its key, header or query string", async () => {
    const answer = await callApi(server, {
      key: demoKey,
      path: "/v2/keys.listKeys?secret=in-the-query",
      body: { limit: 1 },
    });
    await waitForLogLine(() => server.output(), requestIdOf(answer));
    expect(server.output()).toMatch(/^POST \/v2\/keys\.listKeys 200 \d+(\.\d+)?ms req_[1-9A-HJ-NP-Za-km-z]+$/m);
    expect(server.output()).not.toContain("in-the-query");
    expect(server.output()).not.toContain(demoKey);
  });
});

/** The first column of the first row of a query on the server's database. */
function queryOne<T>(sql: string, ...params: string[]): T {
  const db = new Database(join(server.dataDir, "keyscope.sqlite"), { readonly: true });
  try {
    const value = db
      .prepare<string[], T>(sql)
      .pluck()
      .get(...params);
    if (value === undefined) throw new Error(`no row for ${sql}`);
    return value;
  } finally {
    db.close();
  }
}
