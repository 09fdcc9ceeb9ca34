import { existsSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer } from "../support/server-process";
import { asError, callApi, typeFor } from "./http";
import { startInProcessProxy, type InProcessProxy } from "./in-process";

/** Bytes no text decoder would round-trip, to prove the body is relayed untouched. */
const ODD_BYTES = Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x22, 0x0a, 0xc3, 0x28, 0x80, 0x01]);

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let upstream: Server;
let upstreamUrl: string;
const received: Received[] = [];

function listenOnFreePort(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") reject(new Error("no TCP address"));
      else resolve(address.port);
    }),
  );
}

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      if (request.url === "/v2/moved") {
        response.writeHead(307, { location: "https://elsewhere.example.com/v2/keys.listKeys" });
        response.end();
        return;
      }
      response.writeHead(429, {
        "content-type": "application/octet-stream",
        "retry-after": "7",
        "x-ratelimit-remaining": "0",
        "ratelimit-limit": "100",
        "set-cookie": "session=upstream",
        "x-internal-debug": "not for clients",
      });
      response.end(ODD_BYTES);
    });
  });
  upstreamUrl = `http://127.0.0.1:${await listenOnFreePort(upstream)}`;
});

afterAll(() => {
  upstream.close();
});

test("a proxy process says where it relays and keeps no database", async () => {
  const proxy = await startServer({ args: ["--upstream", upstreamUrl] });
  try {
    expect(proxy.output()).toContain(`Proxying /v2/* to ${upstreamUrl}\n`);
    expect(proxy.rootKey).toBeUndefined();
    expect(existsSync(join(proxy.dataDir, "keyscope.sqlite"))).toBe(false);
  } finally {
    await proxy.stop();
  }
});

describe("proxy mode", () => {
  let proxy: InProcessProxy;

  beforeAll(() => {
    proxy = startInProcessProxy(new URL(upstreamUrl));
  });

  test("relays status, body bytes and the headers that matter, byte for byte", async () => {
    const response = await proxy.fetch(`${proxy.url}/v2/keys.listKeys`, {
      method: "POST",
      headers: {
        authorization: "Bearer sk_upstream_Key 123",
        "content-type": "application/json",
        accept: "application/json",
        cookie: "dashboard=secret",
      },
      body: ODD_BYTES,
    });
    const body = Buffer.from(await response.arrayBuffer());

    expect(response.status).toBe(429);
    expect(body.equals(ODD_BYTES)).toBe(true);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("retry-after")).toBe("7");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(response.headers.get("ratelimit-limit")).toBe("100");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("x-internal-debug")).toBeNull();
  });

  test("passes method, path, query, body bytes, Authorization, Content-Type and Accept unchanged, and nothing else of the browser's", async () => {
    received.length = 0;
    await proxy.fetch(`${proxy.url}/v2/keys.listKeys?x=1`, {
      method: "POST",
      headers: {
        authorization: "Bearer sk_upstream_Key 123",
        "content-type": "application/json",
        accept: "application/json",
        cookie: "dashboard=secret",
      },
      body: ODD_BYTES,
    });

    const [request] = received;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/v2/keys.listKeys?x=1");
    expect(request?.body.equals(ODD_BYTES)).toBe(true);
    expect(request?.headers.authorization).toBe("Bearer sk_upstream_Key 123");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers["accept-encoding"]).toBe("identity");
    expect(request?.headers.cookie).toBeUndefined();
  });

  test("a missing Authorization header stays missing upstream", async () => {
    received.length = 0;
    await proxy.fetch(`${proxy.url}/v2/keys.listKeys`, { method: "POST" });
    expect(received[0]?.headers.authorization).toBeUndefined();
  });

  test("a redirect to another origin is not relayed: the proxy's own envelope names where it leads", async () => {
    received.length = 0;
    const response = await proxy.fetch(`${proxy.url}/v2/moved`, { method: "POST", redirect: "manual" });
    expect(response.status).toBe(502);
    const body: unknown = await response.json();
    expect(body).toMatchObject({
      error: {
        type: typeFor(proxy.url, "err:keyscope:proxy:upstream_redirect"),
        errors: [{ location: "header.location", message: "https://elsewhere.example.com/v2/keys.listKeys" }],
      },
    });
    expect(received).toHaveLength(1);
  });

  test("still serves the docs and the dashboard itself", async () => {
    expect((await proxy.fetch(`${proxy.url}/docs/errors/svc/authentication/missing`)).status).toBe(200);
    expect(received.some((request) => request.url.startsWith("/docs"))).toBe(false);
  });
});

test("an unreachable upstream is a 502 envelope of the proxy's own, naming --upstream and the fix", async () => {
  const closed = createServer();
  const port = await listenOnFreePort(closed);
  await new Promise((resolve) => closed.close(resolve));
  const proxy = startInProcessProxy(new URL(`http://127.0.0.1:${port}/base/`));
  const answer = await callApi(proxy, { key: "anything" });
  expect(answer.status).toBe(502);
  const envelope = asError(answer);
  expect(envelope.error).toMatchObject({
    status: 502,
    title: "Bad Gateway",
    type: typeFor(proxy.url, "err:keyscope:proxy:upstream_unreachable"),
  });
  expect(envelope.error.detail).toContain(`its upstream API at http://127.0.0.1:${port}/base (--upstream)`);
  expect(envelope.error.detail).toMatch(/ECONNREFUSED/);
  expect(envelope.error.detail).toMatch(/restart the proxy with --upstream set to the API's address/);
  // Not the API's own unexpected error, which tells the user to report it to whoever runs the API.
  expect(envelope.error.type).not.toContain("unexpected_error");
});

test("an upstream that trickles its answer forever is cut off at the proxy's deadline with the 502 envelope, not left hanging", async () => {
  const trickling = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"meta":');
      // A byte now and then: a socket idle timeout never fires, only a deadline for the whole answer does.
      const ticker = setInterval(() => response.write(" "), 50);
      response.on("close", () => clearInterval(ticker));
    });
  });
  const port = await listenOnFreePort(trickling);
  try {
    const proxy = startInProcessProxy(new URL(`http://127.0.0.1:${port}`), { upstreamTimeoutMs: 500 });
    const answer = await callApi(proxy, { key: "anything" });
    expect(answer.status).toBe(502);
    const envelope = asError(answer);
    expect(envelope.error.type).toBe(typeFor(proxy.url, "err:keyscope:proxy:upstream_unreachable"));
    expect(envelope.error.detail).toContain("no complete answer within 0.5 s");
  } finally {
    trickling.closeAllConnections();
    await new Promise((resolve) => trickling.close(resolve));
  }
});
