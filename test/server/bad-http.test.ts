import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";
import { asKeyList, callApi } from "./http";

/**
 * What needs a real server and raw sockets: bytes as sent on the wire, requests that are not valid HTTP (the
 * HTTP layer's bare 4xx and a closed connection), and slow clients, never a 5xx and never a hang. The
 * envelopes for bad input that a client can send through fetch are in bad-input.test.ts, in-process.
 *
 * Decided here: the body is read as JSON whatever Content-Type says (text/plain, a form type, none at all).
 * docs/api.md fixes what the client sends, not what the server must refuse, and the header proves nothing:
 * what authenticates is the Authorization header, which a cross-site form cannot set. A body that is not JSON
 * is invalid input (400) however it is labelled.
 */

let server: StartedServer;
let key: string;
// The server's limits, short here so the slow clients below wait seconds rather than tens of them: headers within
// the client timeout, the whole request within 1.5 times it (server/process/start.ts).
const CLIENT_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = CLIENT_TIMEOUT_MS * 1.5;
// Room for a busy machine: the server checks its timeouts every half second here, and a loaded event loop is late.
const SLACK_MS = 3_000;

beforeAll(async () => {
  server = await startServer({ args: ["--client-timeout", String(CLIENT_TIMEOUT_MS / 1000)] });
  // A key without a rate limit: this file sends a few hundred requests.
  key = await server.admin(["root-key", "create", "--name", "bad input"]);
});

afterAll(async () => {
  await server.stop();
});

describe("the Authorization header", () => {
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
});

describe("size", () => {
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
    [
      "Transfer-Encoding with Content-Length (request smuggling)",
      "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}",
    ],
    ["a chunk size that is not hex", "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"],
    ["a negative Content-Length", "Content-Length: -1\r\n\r\n{}"],
    ["an invalid Host", "Content-Length: 2\r\nHost: a b\r\n\r\n{}"],
    ["a header line without a colon", "Content-Length: 2\r\nthis is not a header\r\n\r\n{}"],
  ])("%s gets a bare 400 from the HTTP layer and a closed connection", async (_case, rest) => {
    const host = rest.includes("Host:") ? "" : "Host: h\r\n";
    const answer = await rawRequest(
      `POST /v2/keys.listKeys HTTP/1.1\r\n${host}Authorization: Bearer ${key}\r\n${rest}`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.closed).toBe(true);
  });

  test("headers of more than 16 KB get 431", async () => {
    const answer = await rawRequest(`GET /v2/liveness HTTP/1.1\r\nHost: h\r\nX-Pad: ${"p".repeat(20_000)}\r\n\r\n`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 431 /);
  });

  test("a path that climbs out of /v2 is resolved first, and reads no file", async () => {
    const answer = await rawRequest(
      `POST /v2/%2e%2e/etc/passwd HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer.body).not.toContain("root:");
  });

  test.each([
    "/v2/keys.listkeys",
    "/v2/keys.listKeys/extra",
    "/v2/../v2/keys.listKeys%00",
    "/v2/keys.listKeys%2f..",
    `/v2/${"a".repeat(4000)}`,
  ])("%s is the not-found envelope", async (path) => {
    const answer = await rawRequest(
      `POST ${path} HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer.body).toContain("/errors/keyscope/routing/not_found");
  });
});

describe("a client that goes away", () => {
  test("mid-body, it is a bad request in the log, not an unexpected error of the server", async () => {
    const { port } = new URL(server.url);
    // keys.whoami is called nowhere else in this file, so its log line is this request's.
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `POST /v2/keys.whoami HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 100\r\n\r\n{"key":`,
          () => {
            socket.destroy();
            resolve();
          },
        );
      });
    });
    await expect
      .poll(() => /^POST \/v2\/keys\.whoami \d+ /m.exec(server.output())?.[0], { timeout: 10_000 })
      .toBe("POST /v2/keys.whoami 400 ");
    expect(server.output()).not.toContain("Unexpected error");
  });
});

// The two wait out the server's timeouts: concurrently, they take the time of the longer one.
describe.concurrent("slow clients", () => {
  test("a client dribbling its headers or its body is cut off within the server's timeouts while others are served promptly", async () => {
    const slowHeaders = dribble(
      `POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\n`,
      () => "X-Slow: 1\r\n",
    );
    const slowBody = dribble(
      `POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 1000\r\n\r\n{`,
      () => " ",
    );
    // Many slow clients at once must not take the workers either.
    const moreSlowBodies = Array.from({ length: 20 }, () =>
      dribble(
        `POST /v2/keys.listKeys HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\nContent-Length: 1000\r\n\r\n{`,
        () => " ",
      ),
    );

    const latencies: number[] = [];
    let done = false;
    const others = (async () => {
      while (!done) {
        const at = Date.now();
        asKeyList(await callApi(server.url, { key, body: { limit: 5 } }));
        latencies.push(Date.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const [headers, body, ...rest] = await Promise.all([slowHeaders, slowBody, ...moreSlowBodies]);
    done = true;
    await others;

    // Each kept sending until the server cut it off: the server's timeout, not the test's patience, ended it.
    expect(headers.closed).toBe(true);
    expect(headers.closedAfterMs).toBeLessThan(CLIENT_TIMEOUT_MS + SLACK_MS);
    expect(body.closed).toBe(true);
    expect(body.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    for (const slow of [headers, body, ...rest]) expect(slow.text).toMatch(/^(HTTP\/1\.1 408 |$)/);
    // Others were served all along (a request every 100 ms or so) ...
    expect(latencies.length).toBeGreaterThan(5);
    // ... and promptly even on a loaded machine: a worker held by a slow client would wait for its timeout.
    expect(Math.max(...latencies)).toBeLessThan(CLIENT_TIMEOUT_MS);
  }, 30_000);

  test("a connection that sends nothing at all is closed", async () => {
    const idle = await dribble("", () => "", 20_000);
    expect(idle.closed).toBe(true);
    expect(idle.closedAfterMs).toBeLessThan(CLIENT_TIMEOUT_MS + SLACK_MS);
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
