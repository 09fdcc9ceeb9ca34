import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";
import { Override, ratelimitHarness, type RatelimitHarness } from "./ratelimit-harness";

/**
 * The real service's route tests of ratelimit.listOverrides (svc/api/routes/v2_ratelimit_list_overrides/*_test.go),
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

const listOverrides = (body: unknown, key: string) => h.call("ratelimit.listOverrides", body, { key });
const Page = v.object({
  data: v.array(Override),
  pagination: v.object({ cursor: v.optional(v.string()), hasMore: v.boolean() }),
});

describe("200", () => {
  let ns: { id: string; name: string };
  let overrideId: string;
  let key: string;
  beforeAll(() => {
    ns = rl.namespace({ name: "test_namespace" });
    overrideId = rl.override(ns.id, "test_identifier", 10, 1000);
    key = h.rootKey(["ratelimit.*.read_override"]);
  });

  test.each([
    ["get by namespace name", () => ns.name],
    ["get by namespace ID", () => ns.id],
  ])("%s", async (_, namespace) => {
    const page = v.parse(Page, (await listOverrides({ namespace: namespace() }, key)).json);
    expect(page.data).toEqual([{ overrideId, identifier: "test_identifier", limit: 10, duration: 1000 }]);
  });

  test("get empty list for namespace without overrides", async () => {
    const empty = rl.namespace({ name: "empty_namespace" });
    const page = v.parse(Page, (await listOverrides({ namespace: empty.id }, key)).json);
    expect(page.data).toEqual([]);
    expect(page.pagination).toEqual({ hasMore: false });
  });
});

describe("400", () => {
  test.each([
    ["missing all required fields", {}],
    ["neither namespace ID nor name provided", { namespace: "" }],
  ])("%s", async (_, body) => {
    const answer = await listOverrides(body, h.rootKey([]));
    const error = errorOf(answer);
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/application\/invalid_input$/);
    expect(error.detail).toBe("POST request body for '/v2/ratelimit.listOverrides' failed to validate schema");
    expect((answer.json as { error: { errors: unknown[] } }).error.errors.length).toBeGreaterThan(0);
  });

  test("malformed authorization header", async () => {
    const answer = await h.call(
      "ratelimit.listOverrides",
      { namespace: "test_namespace" },
      {
        authorization: "malformed_header",
      },
    );
    expect(answer.status).toBe(400);
  });

  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    expect((await h.call("ratelimit.listOverrides", { namespace: "test_namespace" }, "none")).status).toBe(401);
  });
});

describe("401", () => {
  test("invalid authorization token", async () => {
    const answer = await h.call(
      "ratelimit.listOverrides",
      { namespace: "test_namespace" },
      {
        authorization: "Bearer invalid_token",
      },
    );
    expect(answer.status).toBe(401);
  });
});

describe("403", () => {
  test("TestWorkspacePermissions: another workspace's namespace is not found (404)", async () => {
    const ns = rl.namespace();
    rl.override(ns.id, "test_identifier", 10, 1000);
    expect((await listOverrides({ namespace: ns.id }, h.rootKey([], h.workspace()))).status).toBe(404);
  });
});

describe("404", () => {
  test.each([
    ["namespace id not found", "ns_nonexistent"],
    ["namespace name not found", "nonexistent_namespace"],
  ])("%s", async (_, namespace) => {
    const error = errorOf(await listOverrides({ namespace }, h.rootKey(["ratelimit.*.read_override"])));
    expect(error.status).toBe(404);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_namespace_not_found$/);
  });
});
