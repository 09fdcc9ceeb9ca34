import { afterAll, beforeAll, expect, test } from "vitest";
import { callApi } from "./http";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * An API's IP whitelist over a real connection: without `X-Forwarded-For`, the address checked is the connection's
 * (in-process tests have none: test/server/real-routes/keys-verify-key.test.ts).
 */

let server: StartedServer;
let rootKey: string;

beforeAll(async () => {
  server = await startServer();
  rootKey = await server.admin(["root-key", "create", "--permissions", "api.*.verify_key"]);
}, 60_000);

afterAll(async () => {
  await server.stop();
});

async function codeFor(whitelist: string): Promise<unknown> {
  const apiId = await server.admin(["apis", "create", "--name", `walled ${whitelist}`, "--ip-whitelist", whitelist]);
  const [, secret = ""] = (await server.admin(["keys", "create", "--name", "walled", "--api", apiId])).split(" ");
  const answer = await callApi(server.url, { path: "/v2/keys.verifyKey", key: rootKey, body: { key: secret } });
  return (answer.json as { data?: { code?: unknown } }).data?.code;
}

test("a verification over a connection from an address the API lists is VALID; from one it does not list, FORBIDDEN", async () => {
  expect(await codeFor("127.0.0.1")).toBe("VALID");
  expect(await codeFor("203.0.113.7")).toBe("FORBIDDEN");
});
