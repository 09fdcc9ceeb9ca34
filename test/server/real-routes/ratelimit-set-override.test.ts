import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";
import { ratelimitHarness, type RatelimitHarness } from "./ratelimit-harness";

/**
 * The real service's route tests of ratelimit.setOverride (svc/api/routes/v2_ratelimit_set_override/*_test.go),
 * replayed over HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let rl: RatelimitHarness;

beforeAll(() => {
  server = startInProcess();
  h = realHarness(server);
  rl = ratelimitHarness(server);
});

afterAll(() => server.close());

const setOverride = (body: unknown, key: string) => h.call("ratelimit.setOverride", body, { key });
const overrideIdOf = (answer: Awaited<ReturnType<typeof setOverride>>) =>
  v.parse(v.object({ overrideId: v.pipe(v.string(), v.regex(/^rlor_/)) }), dataOf(answer)).overrideId;

describe("200", () => {
  let ns: { id: string; name: string };
  let key: string;
  beforeAll(() => {
    ns = rl.namespace();
    key = h.rootKey([`ratelimit.${ns.id}.set_override`]);
  });

  test("create override using namespace name", async () => {
    const overrideId = overrideIdOf(
      await setOverride({ namespace: ns.name, identifier: "user_123", limit: 10, duration: 1000 }, key),
    );
    expect(rl.storedOverride(overrideId)).toMatchObject({ identifier: "user_123", limit: 10, duration_ms: 1000 });
  });

  test("create override using namespace ID", async () => {
    const overrideId = overrideIdOf(
      await setOverride({ namespace: ns.id, identifier: "user_456", limit: 20, duration: 2000 }, key),
    );
    expect(rl.storedOverride(overrideId)).toMatchObject({ identifier: "user_456", limit: 20, duration_ms: 2000 });
  });

  test("create override with wildcard identifier", async () => {
    const overrideId = overrideIdOf(
      await setOverride({ namespace: ns.id, identifier: "*", limit: 5, duration: 2000 }, key),
    );
    expect(rl.storedOverride(overrideId)).toMatchObject({ identifier: "*", limit: 5, duration_ms: 2000 });
  });

  test("create same override twice should update existing record", async () => {
    const first = overrideIdOf(await setOverride({ namespace: ns.id, identifier: "*", limit: 5, duration: 2000 }, key));
    const second = overrideIdOf(
      await setOverride({ namespace: ns.id, identifier: "*", limit: 100, duration: 60_000 }, key),
    );
    expect(second).toBe(first);
    expect(rl.storedOverride(first)).toMatchObject({ identifier: "*", limit: 100, duration_ms: 60_000 });
  });
});

describe("400", () => {
  test.each([
    ["missing all required fields", {}],
    ["missing identifier", { namespace: "test_namespace_id", limit: 10, duration: 1000 }],
    ["empty identifier", { namespace: "test_namespace_id", identifier: "", limit: 10, duration: 1000 }],
    ["missing duration", { namespace: "test_namespace_id", identifier: "user_123", limit: 10 }],
    [
      "invalid limit (negative)",
      { namespace: "test_namespace_id", identifier: "user_123", limit: -10, duration: 1000 },
    ],
    [
      "invalid duration (negative)",
      { namespace: "test_namespace_id", identifier: "user_123", limit: 10, duration: -1000 },
    ],
    ["neither namespace ID nor name provided", { namespace: "", identifier: "user_123", limit: 10, duration: 1000 }],
  ])("%s", async (_, body) => {
    const answer = await setOverride(body, h.rootKey(["ratelimit.*.set_override"]));
    const error = errorOf(answer);
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/application\/invalid_input$/);
    expect(error.detail).toBe("POST request body for '/v2/ratelimit.setOverride' failed to validate schema");
    expect((answer.json as { error: { errors: unknown[] } }).error.errors.length).toBeGreaterThan(0);
  });

  test("malformed authorization header", async () => {
    const body = { namespace: "test", identifier: "test_identifier", limit: 10, duration: 1000 };
    expect(errorOf(await h.call("ratelimit.setOverride", body, { authorization: "malformed_header" })).status).toBe(
      400,
    );
  });
});

describe("401", () => {
  test("invalid authorization token", async () => {
    const body = { namespace: "test", identifier: "test_identifier", limit: 10, duration: 1000 };
    expect((await h.call("ratelimit.setOverride", body, { authorization: "Bearer invalid_token" })).status).toBe(401);
  });
});

describe("403", () => {
  test("TestWorkspacePermissions: another workspace's namespace is not found (404), and no override is set", async () => {
    const ns = rl.namespace();
    const answer = await setOverride(
      { namespace: ns.id, identifier: "test_identifier", limit: 10, duration: 1000 },
      h.rootKey([], h.workspace()),
    );
    expect(answer.status).toBe(404);
    expect(
      server.admin.db.prepare("SELECT count(*) FROM ratelimit_overrides WHERE namespace_id = ?").pluck().get(ns.id),
    ).toBe(0);
  });
});

describe("404", () => {
  test.each([
    ["namespace id not found", "ns_nonexistent"],
    ["namespace name not found", "nonexistent_namespace"],
  ])("%s", async (_, namespace) => {
    const error = errorOf(
      await setOverride({ namespace, identifier: "some_identifier", limit: 10, duration: 1000 }, h.rootKey([])),
    );
    expect(error.status).toBe(404);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_namespace_not_found$/);
  });
});
