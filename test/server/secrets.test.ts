import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";
import { callApi, requestIdOf, waitForLogLine } from "./http";

let server: StartedServer;
let rootKey: string;
let apiKey: string;

beforeAll(async () => {
  server = await startServer();
  rootKey = await server.admin(["root-key", "create", "--name", "secret test"]);
  apiKey = (await server.admin(["keys", "create", "--name", "secret api key"])).split(" ")[1] ?? "";
  expect(rootKey).toMatch(/^ks_root_[1-9A-HJ-NP-Za-km-z]{28}$/);
  expect(apiKey).toMatch(/^sk_live_[1-9A-HJ-NP-Za-km-z]{24}$/);
});

afterAll(async () => {
  await server.stop();
});

/** Every byte the data directory holds: the database, its WAL and shared memory. */
function dataDirBytes(): string {
  return readdirSync(server.dataDir)
    .map((file) => readFileSync(join(server.dataDir, file)).toString("latin1"))
    .join("\n");
}

test("secrets are stored only as hashes: neither the database nor its WAL holds one", async () => {
  await callApi(server.url, { key: rootKey });
  const files = readdirSync(server.dataDir);
  expect(files).toContain("keyscope.sqlite-wal");

  const bytes = dataDirBytes();
  for (const secret of [rootKey, apiKey, server.rootKey ?? "missing"]) {
    expect(bytes).not.toContain(secret);
    // Not even the part after the displayable start.
    expect(bytes).not.toContain(secret.slice(12));
  }
});

test("the server's output never holds a key that was used, right or wrong", async () => {
  const wrongKey = "ks_root_NotARealKeyButASecretAnyway1";
  await callApi(server.url, { key: rootKey, body: { limit: 1 } });
  await callApi(server.url, { key: wrongKey });
  await callApi(server.url, { authorization: `bearer ${rootKey}` });
  const last = await callApi(server.url, { key: rootKey, body: "{not json" });
  await waitForLogLine(() => server.output(), requestIdOf(last));

  const output = server.output();
  expect(output).toMatch(/^POST \/v2\/keys\.listKeys 401 /m);
  for (const secret of [rootKey, wrongKey, apiKey]) expect(output).not.toContain(secret);
  expect(output).not.toMatch(/authorization/i);
});
