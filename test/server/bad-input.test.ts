import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_KINDS, type ErrorCode } from "../../src/lib/contract";
import { startServer, type StartedServer } from "../support/server-process";
import { asError, asKeyList, callApi, typeFor, type ApiAnswer } from "./http";

/**
 * Whatever a client sends, the API answers with its documented envelope (or, for a request that is not valid
 * HTTP at all, the HTTP layer's bare 4xx and a closed connection), never a 5xx and never a hang.
 *
 * Decided here: the body is read as JSON whatever Content-Type says (text/plain, a form type, none at all).
 * CONTRACT.md fixes what the client sends, not what the server must refuse, and the header proves nothing:
 * what authenticates is the Authorization header, which a cross-site form cannot set. A body that is not JSON
 * is invalid input (400) however it is labelled.
 */

let server: StartedServer;
let key: string;

beforeAll(async () => {
  server = await startServer();
  // A key without a rate limit: this file sends a few hundred requests.
  key = await server.admin(["root-key", "create", "--name", "bad input"]);
});

afterAll(async () => {
  await server.stop();
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
    ["the key's hash instead of the key", "Bearer 0000000000000000000000000000000000000000000000000000000000000000", "err:svc:authentication:key_not_found"],
  ] as const)("%s gets its envelope", async (_case, header, code) => {
    expectError(await callApi(server.url, { authorization: header.replaceAll("KEY", key), body: {} }), code);
  });

  test("two Authorization headers are not two chances: the request is malformed", async () => {
    const answer = await rawRequest(
      `POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ks_other\r\n` +
        "Content-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.text).toContain("/errors/svc/authentication/malformed");
  });
});

describe("content types", () => {
  test.each([
    ["application/json", '{"limit":2}'],
    ["application/json; charset=utf-8", '{"limit":2}'],
    ["text/plain", '{"limit":2}'],
    ["application/x-www-form-urlencoded", '{"limit":2}'],
    ["multipart/form-data; boundary=x", '{"limit":2}'],
    [undefined, '{"limit":2}'],
  ])("a JSON body labelled %s is read as JSON", async (contentType, body) => {
    const answer = await rawRequest(
      `POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\n` +
        (contentType === undefined ? "" : `Content-Type: ${contentType}\r\n`) +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 /);
    expect((JSON.parse(answer.body) as { data: { keys: unknown[] } }).data.keys).toHaveLength(2);
  });

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
      await callApi(server.url, { key, body, headers: { "content-type": contentType } }),
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
    const envelope = expectError(await callApi(server.url, { key, body }), "err:svc:application:invalid_input");
    expect(envelope.error.errors?.map((entry) => entry.location)).toContain(location);
    expect(envelope.error.errors?.every((entry) => entry.message !== "")).toBe(true);
  });

  test.each([
    ["a duplicated field (the last one wins, as in JSON.parse)", '{"limit":5,"limit":3}', 3],
    ["a limit of 1.0 (a whole number)", '{"limit":1.0}', 1],
    ["a cursor that was never handed out", '{"cursor":"key_zzzzzzzzzzzzzzzzzzzzzzzzzzzz","limit":1}', 0],
    ["an externalId nobody has", '{"externalId":"\' OR 1=1 --"}', 0],
  ])("%s is a valid request", async (_case, body, count) => {
    const list = asKeyList(await callApi(server.url, { key, body }));
    expect(list.data.keys).toHaveLength(count);
  });

  test("an apiId of another shape or workspace is not found, whatever it looks like", async () => {
    for (const apiId of ["api_doesNotExist", "' OR 1=1 --", "api_\u202e", "x".repeat(5000)]) {
      expectError(await callApi(server.url, { key, body: { apiId } }), "err:svc:data:api_not_found");
    }
  });
});

describe("size", () => {
  test("a 2 MB body is refused with 413 and the connection is closed", async () => {
    const answer = await callApi(server.url, { key, body: `{"pad":"${"x".repeat(2 * 1024 * 1024)}"}` });
    expectError(answer, "err:user:bad_request:request_body_too_large");
    expect(answer.headers.get("connection")).toBe("close");
  });

  test("a Content-Length of 2 MB is refused before the body is sent", async () => {
    const answer = await rawRequest(
      `POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n{`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.body).toContain("/errors/user/bad_request/request_body_too_large");
  });
});

describe("requests that are not valid HTTP", () => {
  test.each([
    ["conflicting Content-Length headers", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"],
    ["Transfer-Encoding with Content-Length (request smuggling)", "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}"],
    ["a chunk size that is not hex", "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"],
    ["a negative Content-Length", "Content-Length: -1\r\n\r\n{}"],
    ["an invalid Host", "Content-Length: 2\r\nHost: a b\r\n\r\n{}"],
    ["a header line without a colon", "Content-Length: 2\r\nthis is not a header\r\n\r\n{}"],
  ])("%s gets a bare 400 from the HTTP layer and a closed connection", async (_case, rest) => {
    const host = rest.includes("Host:") ? "" : "Host: h\r\n";
    const answer = await rawRequest(`POST /v2/keys.listKeys HTTP/1.1\r\n${host}Authorization: Bearer ${key}\r\n${rest}`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.closed).toBe(true);
  });

  test("headers of more than 16 KB get 431", async () => {
    const answer = await rawRequest(`GET /v2/liveness HTTP/1.1\r\nHost: h\r\nX-Pad: ${"p".repeat(20_000)}\r\n\r\n`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 431 /);
  });

  test.each([
    ["GET", 405],
    ["PUT", 405],
    ["DELETE", 405],
    ["PATCH", 405],
  ])("%s on the list operation gets the method-not-allowed envelope", async (method, status) => {
    const answer = await callApi(server.url, { key, method, ...(method !== "GET" && { body: {} }) });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("allow")).toBe("POST");
    asError(answer);
  });

  test("a path that climbs out of /v2 is resolved first, and reads no file", async () => {
    const answer = await rawRequest(`POST /v2/%2e%2e/etc/passwd HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer.body).not.toContain("root:");
  });

  test.each(["/v2/keys.listkeys", "/v2/keys.listKeys/extra", "/v2/../v2/keys.listKeys%00", "/v2/keys.listKeys%2f..", `/v2/${"a".repeat(4000)}`])(
    "%s is the not-found envelope",
    async (path) => {
      const answer = await rawRequest(`POST ${path} HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
      expect(answer.text).toMatch(/^HTTP\/1\.1 404 /);
      expect(answer.body).toContain("/errors/keyscope/routing/not_found");
    },
  );
});

describe("slow clients", () => {
  // The server's limits (server/start.ts): headers within 10 s, the whole request within 15 s.
  test("a client dribbling its headers or its body is cut off within the server's timeouts while others are served promptly", async () => {
    const startedAt = Date.now();
    const slowHeaders = dribble(`POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\n`, () => "X-Slow: 1\r\n");
    const slowBody = dribble(
      `POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 1000\r\n\r\n{`,
      () => " ",
    );
    // Many slow clients at once must not take the workers either.
    const moreSlowBodies = Array.from({ length: 20 }, () =>
      dribble(`POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 1000\r\n\r\n{`, () => " "),
    );

    const latencies: number[] = [];
    let done = false;
    const others = (async () => {
      while (!done) {
        const at = Date.now();
        asKeyList(await callApi(server.url, { key, body: { limit: 5 } }));
        latencies.push(Date.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();

    const [headers, body, ...rest] = await Promise.all([slowHeaders, slowBody, ...moreSlowBodies]);
    done = true;
    await others;

    expect(headers.closed).toBe(true);
    expect(headers.closedAfterMs).toBeLessThan(13_000);
    expect(body.closed).toBe(true);
    expect(body.closedAfterMs).toBeLessThan(18_000);
    for (const slow of [headers, body, ...rest]) expect(slow.text).toMatch(/^(HTTP\/1\.1 408 |$)/);
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(latencies.length).toBeGreaterThan(20);
    // Prompt even on a loaded machine; a worker held by a slow client would take 10 s or more.
    expect(Math.max(...latencies)).toBeLessThan(2_000);
  }, 45_000);

  test("a connection that sends nothing at all is closed", async () => {
    const idle = await dribble("", () => "", 20_000);
    expect(idle.closed).toBe(true);
    expect(idle.closedAfterMs).toBeLessThan(13_000);
  }, 30_000);
});

interface RawAnswer {
  /** Everything the server sent. */
  text: string;
  /** What follows the first blank line. */
  body: string;
  /** The server closed the connection (rather than the test giving up). */
  closed: boolean;
  closedAfterMs: number;
}

function toRawAnswer(text: string, closed: boolean, startedAt: number): RawAnswer {
  const split = text.indexOf("\r\n\r\n");
  return { text, body: split === -1 ? "" : text.slice(split + 4), closed, closedAfterMs: Date.now() - startedAt };
}

/** Sends bytes as they are (latin1) on a fresh connection; resolves once the server closes it or after `giveUpMs`. */
function rawRequest(request: string, giveUpMs = 10_000): Promise<RawAnswer> {
  return dribble(request, () => "", giveUpMs);
}

/** Sends `start`, then `next()` every 500 ms until the server answers or closes the connection. */
function dribble(start: string, next: () => string, giveUpMs = 25_000): Promise<RawAnswer> {
  const { port } = new URL(server.url);
  const startedAt = Date.now();
  return new Promise((resolve) => {
    let text = "";
    let settled = false;
    const socket = connect(Number(port), "127.0.0.1", () => {
      if (start !== "") socket.write(Buffer.from(start, "latin1"));
    });
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(ticker);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(toRawAnswer(text, closed, startedAt));
    };
    const ticker = setInterval(() => {
      const more = next();
      if (more !== "" && text === "" && !socket.destroyed) socket.write(more);
    }, 500);
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
    });
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
  });
}
