import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";
import { ratelimitHarness, type RatelimitHarness } from "./ratelimit-harness";

/**
 * The real service's route tests of ratelimit.deleteOverride (svc/api/routes/v2_ratelimit_delete_override/*_test.go),
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

const deleteOverride = (body: unknown, key: string) => h.call("ratelimit.deleteOverride", body, { key });

describe("200", () => {
  let ns: { id: string; name: string };
  let key: string;
  beforeAll(() => {
    ns = rl.namespace();
    key = h.rootKey([`ratelimit.${ns.id}.delete_override`]);
  });

  test("delete by namespace name", async () => {
    const overrideId = rl.override(ns.id, "test_identifier", 10, 1000);
    expect(dataOf(await deleteOverride({ namespace: ns.name, identifier: "test_identifier" }, key))).toEqual({});
    expect(rl.storedOverride(overrideId).deleted_at).toEqual(expect.any(Number));
  });

  test("delete by namespace ID", async () => {
    const overrideId = rl.override(ns.id, "test_identifier_2", 10, 1000);
    expect(dataOf(await deleteOverride({ namespace: ns.id, identifier: "test_identifier_2" }, key))).toEqual({});
    expect(rl.storedOverride(overrideId).deleted_at).toEqual(expect.any(Number));
  });
});

describe("400", () => {
  test.each([
    ["missing all required fields", {}],
    ["missing identifier", { namespace: "test_namespace_id" }],
    ["empty identifier", { namespace: "test_namespace_id", identifier: "" }],
    ["namespace not provided", { namespace: "", identifier: "user_123" }],
  ])("%s", async (_, body) => {
    const answer = await deleteOverride(body, h.rootKey([]));
    const error = errorOf(answer);
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/application\/invalid_input$/);
    expect(error.detail).toBe("POST request body for '/v2/ratelimit.deleteOverride' failed to validate schema");
    expect((answer.json as { error: { errors: unknown[] } }).error.errors.length).toBeGreaterThan(0);
  });

  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    const body = { namespace: "test", identifier: "test_identifier" };
    expect((await h.call("ratelimit.deleteOverride", body, "none")).status).toBe(401);
  });

  test("malformed authorization header", async () => {
    const body = { namespace: "test", identifier: "test_identifier" };
    expect((await h.call("ratelimit.deleteOverride", body, { authorization: "malformed_header" })).status).toBe(400);
  });
});

describe("401", () => {
  test("invalid authorization token", async () => {
    const body = { namespace: "test", identifier: "test_identifier" };
    expect((await h.call("ratelimit.deleteOverride", body, { authorization: "Bearer invalid_token" })).status).toBe(
      401,
    );
  });
});

describe("403", () => {
  test("TestWorkspacePermissions: another workspace's namespace is not found (404), and the override stays", async () => {
    const ns = rl.namespace();
    const overrideId = rl.override(ns.id, "test_identifier", 10, 1000);
    const answer = await deleteOverride(
      { namespace: ns.id, identifier: "test_identifier" },
      h.rootKey([], h.workspace()),
    );
    expect(answer.status).toBe(404);
    expect(rl.storedOverride(overrideId).deleted_at).toBeNull();
  });
});

describe("404", () => {
  let ns: { id: string; name: string };
  let key: string;
  beforeAll(() => {
    ns = rl.namespace();
    key = h.rootKey([`ratelimit.${ns.id}.delete_override`]);
  });

  test("override not found", async () => {
    const error = errorOf(await deleteOverride({ namespace: ns.id, identifier: "non_existent_identifier" }, key));
    expect(error.status).toBe(404);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_override_not_found$/);
  });

  test.each([
    ["namespace not found", "ns_nonexistent"],
    ["namespace name not found", "nonexistent_namespace"],
  ])("%s", async (_, namespace) => {
    const error = errorOf(await deleteOverride({ namespace, identifier: "some_identifier" }, key));
    expect(error.status).toBe(404);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_namespace_not_found$/);
  });
});
