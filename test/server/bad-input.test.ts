import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_KINDS, type ErrorCode } from "../../src/lib/contract";
import { asError, asKeyList, callApi, typeFor, type ApiAnswer } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

/**
 * Whatever a client sends, the API answers with its documented envelope (or, for a request that is not valid
 * HTTP at all, the HTTP layer's bare 4xx and a closed connection), never a 5xx and never a hang.
 *
 * Decided here: the body is read as JSON whatever Content-Type says (text/plain, a form type, none at all).
 * docs/api.md fixes what the client sends, not what the server must refuse, and the header proves nothing:
 * what authenticates is the Authorization header, which a cross-site form cannot set. A body that is not JSON
 * is invalid input (400) however it is labelled.
 *
 * These run in-process against the app; what needs real sockets (raw bytes, bad HTTP, slow clients) is in
 * bad-http.test.ts.
 */

let server: InProcessServer;
let key: string;

beforeAll(() => {
  server = startInProcess();
  // A key without a rate limit: this file sends a few hundred requests.
  key = server.admin.createRootKey({ name: "bad input" }).secret;
});

afterAll(() => {
  server.close();
});

function expectError(answer: ApiAnswer, code: ErrorCode) {
  const kind = ERROR_KINDS[code];
  expect(answer.status, answer.text).toBe(kind.status);
  expect(answer.headers.get("content-type")).toBe("application/json");
  const envelope = asError(answer);
  expect(envelope.error).toMatchObject({ status: kind.status, title: kind.title, type: typeFor(server.url, code) });
  return envelope;
}

describe("the Authorization header", () => {
  test.each([
    ["an empty value", "", "err:svc:authentication:malformed"],
    ["Bearer and a space only", "Bearer ", "err:svc:authentication:malformed"],
    ["a lowercase header scheme", "BEARER KEY", "err:svc:authentication:malformed"],
    ["a comma-joined pair of keys", "Bearer KEY, Bearer KEY", "err:svc:authentication:malformed"],
    ["a token of 8 KB", `Bearer ${"k".repeat(8 * 1024)}`, "err:svc:authentication:key_not_found"],
    ["a token of Latin-1 bytes", "Bearer \u00e9\u00e8\u00ff", "err:svc:authentication:key_not_found"],
    ["a token that is SQL", "Bearer ' OR 1=1 --", "err:svc:authentication:malformed"],
    ["a token that is SQL without spaces", "Bearer '/**/OR/**/1=1--", "err:svc:authentication:key_not_found"],
    [
      "the key's hash instead of the key",
      "Bearer 0000000000000000000000000000000000000000000000000000000000000000",
      "err:svc:authentication:key_not_found",
    ],
  ] as const)("%s gets its envelope", async (_case, header, code) => {
    expectError(await callApi(server, { authorization: header.replaceAll("KEY", key), body: {} }), code);
  });

  test("spaces around the key are read past, as the real service reads the header", async () => {
    expect(
      asKeyList(await callApi(server, { authorization: `Bearer   ${key}   `, body: { limit: 1 } })).data.keys,
    ).toHaveLength(1);
    expectError(
      await callApi(server, { authorization: "Bearer   ks_root_unknown   ", body: {} }),
      "err:svc:authentication:key_not_found",
    );
  });

  test("a malformed header is told in the real service's words, with the missing prefix named", async () => {
    const base = "You must provide a valid root key in the Authorization header in the format 'Bearer ROOT_KEY'.";
    const noPrefix = expectError(
      await callApi(server, { authorization: "Token abc", body: {} }),
      "err:svc:authentication:malformed",
    );
    expect(noPrefix.error.detail).toBe(`${base} Your authorization header is missing the 'Bearer ' prefix.`);
    const twoWords = expectError(
      await callApi(server, { authorization: "Bearer two words", body: {} }),
      "err:svc:authentication:malformed",
    );
    expect(twoWords.error.detail).toBe(base);
  });
});

describe("the order of the checks: the header's presence, the body, then the root key, as the real service", () => {
  const invalid = { limit: "ten" };
  const oversized = `{"pad":"${"x".repeat(2 * 1024 * 1024)}"}`;

  test("no Authorization header is the seed's 401 whatever the body", async () => {
    expectError(await callApi(server, { body: invalid }), "err:svc:authentication:missing");
    expectError(await callApi(server, { body: oversized }), "err:svc:authentication:missing");
  });

  test.each([
    ["a malformed header", "Bearer two words"],
    ["an unknown root key", "Bearer ks_root_unknown"],
  ])("%s with an invalid body is the body's 400, with a body over 1 MiB the 413", async (_case, authorization) => {
    const envelope = expectError(
      await callApi(server, { authorization, body: invalid }),
      "err:svc:application:invalid_input",
    );
    expect(envelope.error.errors?.map((entry) => entry.location)).toEqual(["body.limit"]);
    expectError(
      await callApi(server, { authorization, body: oversized }),
      "err:user:bad_request:request_body_too_large",
    );
  });

  test("a disabled root key with an invalid body is the body's 400, with a valid one the 403", async () => {
    const disabled = server.admin.createRootKey({ name: "disabled" });
    server.admin.changeRootKey(disabled.id, "disable");
    expectError(await callApi(server, { key: disabled.secret, body: invalid }), "err:svc:application:invalid_input");
    expectError(await callApi(server, { key: disabled.secret, body: {} }), "err:svc:authorization:key_disabled");
  });
});

describe("content types", () => {
  test.each([
    ["a form body", "application/x-www-form-urlencoded", "limit=10&cursor=x"],
    ["XML", "application/xml", "<limit>10</limit>"],
    ["plain text", "text/plain", "hello"],
    ["bytes that are not UTF-8", "application/json", "\xff\xfe{\x00}"],
    ["JSON with a trailing comma", "application/json", '{"limit":10,}'],
    ["JSON with a comment", "application/json", '{"limit":10 /* ten */}'],
    ["two JSON documents", "application/json", "{}{}"],
    ["a NUL byte", "application/json", '{"limit":1}\u0000'],
  ])("%s is invalid input", async (_case, contentType, body) => {
    const envelope = expectError(
      await callApi(server, { key, body, headers: { "content-type": contentType } }),
      "err:svc:application:invalid_input",
    );
    expect(envelope.error.errors?.[0]?.location).toBe("body");
  });
});

describe("fields", () => {
  test.each([
    ["a JSON string", '"limit"', "body"],
    ["a JSON number", "42", "body"],
    ["JSON null", "null", "body"],
    ["JSON true", "true", "body"],
    ["an array of objects", '[{"limit":1}]', "body"],
    ["deeply nested arrays", `${"[".repeat(50_000)}${"]".repeat(50_000)}`, "body"],
    ["__proto__", '{"__proto__":{"limit":1}}', "body.__proto__"],
    ["constructor", '{"constructor":{"prototype":{}}}', "body.constructor"],
    ["an unknown field", '{"pageSize":5}', "body.pageSize"],
    ["a field name of 10 KB", `{"${"f".repeat(10_000)}":1}`, `body.${"f".repeat(10_000)}`],
    ["a null limit", '{"limit":null}', "body.limit"],
    ["a negative limit", '{"limit":-1}', "body.limit"],
    ["a huge limit", '{"limit":1e308}', "body.limit"],
    ["a limit of 2^53", '{"limit":9007199254740993}', "body.limit"],
    ["a limit as an object", '{"limit":{"$gt":0}}', "body.limit"],
    ["a limit as an array", '{"limit":[10]}', "body.limit"],
    ["a boolean limit", '{"limit":true}', "body.limit"],
    ["an empty apiId", '{"apiId":""}', "body.apiId"],
    ["an apiId as an object", '{"apiId":{"$ne":null}}', "body.apiId"],
    ["an empty cursor", '{"cursor":""}', "body.cursor"],
    ["a path as cursor", '{"cursor":"../../etc/passwd"}', "body.cursor"],
    ["SQL as cursor", `{"cursor":"key_1' OR '1'='1"}`, "body.cursor"],
    ["a cursor of 10 KB", `{"cursor":"key_${"a".repeat(10_000)}"}`, "body.cursor"],
    ["a cursor with a lookalike letter", '{"cursor":"key_\u0430bc"}', "body.cursor"],
    ["a cursor with 0 (not base58)", '{"cursor":"key_0abc"}', "body.cursor"],
    ["a number as cursor", '{"cursor":12345}', "body.cursor"],
    ["an externalId of 257 characters", `{"externalId":"${"e".repeat(257)}"}`, "body.externalId"],
    ["an empty externalId", '{"externalId":""}', "body.externalId"],
  ])("%s is invalid input naming where", async (_case, body, location) => {
    const envelope = expectError(await callApi(server, { key, body }), "err:svc:application:invalid_input");
    expect(envelope.error.errors?.map((entry) => entry.location)).toContain(location);
    expect(envelope.error.errors?.every((entry) => entry.message !== "")).toBe(true);
  });

  test.each([
    ["a duplicated field (the last one wins, as in JSON.parse)", '{"limit":5,"limit":3}', 3],
    ["a limit of 1.0 (a whole number)", '{"limit":1.0}', 1],
    ["a cursor that was never handed out", '{"cursor":"key_zzzzzzzzzzzzzzzzzzzzzzzzzzzz","limit":1}', 0],
    ["an externalId nobody has", '{"externalId":"\' OR 1=1 --"}', 0],
  ])("%s is a valid request", async (_case, body, count) => {
    const list = asKeyList(await callApi(server, { key, body }));
    expect(list.data.keys).toHaveLength(count);
  });

  test("an apiId of another shape or workspace is not found, whatever it looks like", async () => {
    for (const apiId of ["api_doesNotExist", "' OR 1=1 --", "api_\u202e", "x".repeat(5000)]) {
      expectError(await callApi(server, { key, body: { apiId } }), "err:svc:data:api_not_found");
    }
  });
});

describe("size", () => {
  test("a 2 MB body is refused with 413 and the connection is closed", async () => {
    const answer = await callApi(server, { key, body: `{"pad":"${"x".repeat(2 * 1024 * 1024)}"}` });
    expectError(answer, "err:user:bad_request:request_body_too_large");
    expect(answer.headers.get("connection")).toBe("close");
  });
});

describe("methods", () => {
  test.each([
    ["GET", 405],
    ["PUT", 405],
    ["DELETE", 405],
    ["PATCH", 405],
  ])("%s on the list operation gets the method-not-allowed envelope", async (method, status) => {
    const answer = await callApi(server, { key, method, ...(method !== "GET" && { body: {} }) });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("allow")).toBe("POST");
    asError(answer);
  });
});
