import { Hono } from "hono";
import { afterEach, expect, test, vi } from "vitest";
import type { AppEnv } from "../../server/http/api-env";
import { createRequestLog } from "../../server/http/request-log";

afterEach(() => {
  vi.useRealTimers();
});

function loggedApp() {
  const writes: string[] = [];
  const log = createRequestLog((chunk) => writes.push(chunk));
  const app = new Hono<AppEnv>();
  app.use(log.middleware);
  app.post("/v2/keys.verifyKey", (c) => c.text("ok"));
  return { app, log, writes };
}

test("the lines of requests close together reach the output in one write, within 25 ms", async () => {
  vi.useFakeTimers();
  const { app, writes } = loggedApp();
  await app.request("/v2/keys.verifyKey?secret=in-the-query", { method: "POST" });
  await app.request("/v2/keys.verifyKey", { method: "POST" });
  expect(writes).toEqual([]);

  vi.advanceTimersByTime(24);
  expect(writes).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(writes).toHaveLength(1);
  expect(writes[0]?.split("\n")).toEqual([
    expect.stringMatching(/^POST \/v2\/keys\.verifyKey 200 \d+\.\dms -$/),
    expect.stringMatching(/^POST \/v2\/keys\.verifyKey 200 \d+\.\dms -$/),
    "",
  ]);
  expect(writes[0]).not.toContain("in-the-query");
});

test("64 KiB of waiting lines are written at once, and flush() writes what is left", async () => {
  vi.useFakeTimers();
  const { app, log, writes } = loggedApp();
  const longPath = `/v2/${"x".repeat(200)}`;
  let requests = 0;
  while (writes.length === 0) {
    await app.request(longPath, { method: "POST" });
    requests += 1;
  }
  expect(writes[0]?.length).toBeGreaterThanOrEqual(64 * 1024);
  expect(writes[0]?.split("\n")).toHaveLength(requests + 1);

  await app.request("/v2/keys.verifyKey", { method: "POST" });
  log.flush();
  expect(writes).toHaveLength(2);
  expect(writes[1]).toMatch(/^POST \/v2\/keys\.verifyKey 200 /);
  vi.advanceTimersByTime(100);
  expect(writes).toHaveLength(2);
});
