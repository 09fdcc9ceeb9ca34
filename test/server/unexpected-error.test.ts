import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { asError, callApi, requestIdOf, typeFor, waitForLogLine } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

let server: InProcessServer;

beforeAll(() => {
  server = startInProcess();
});

afterAll(() => {
  server.close();
});

test("a failure inside the server is a generic 500 envelope that leaks no stack, and the server keeps serving", async () => {
  const key = server.rootKey;
  expect((await callApi(server, { key })).status).toBe(200);

  const db = new Database(join(server.dataDir, "keyscope.sqlite"));
  // Its rate limits reference the keys: without them, dropping the keys breaks no foreign key on the way.
  db.exec("DROP TABLE key_ratelimits; DROP TABLE keys");
  db.close();

  const answer = await callApi(server, { key });

  expect(answer.status).toBe(500);
  expect(answer.json).toEqual({
    meta: { requestId: requestIdOf(answer) },
    error: {
      detail: "An unexpected error occurred",
      status: 500,
      title: "Internal Server Error",
      type: typeFor(server.url, "err:svc:application:unexpected_error"),
    },
  });
  expect(answer.text).not.toMatch(/no such table|\.ts:\d+|at /);

  // The operator's log names the request id, so a report can be traced.
  await waitForLogLine(() => server.output(), asError(answer).meta.requestId);

  expect((await callApi(server, { method: "GET", path: "/v2/liveness" })).status).toBe(200);
});
