import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRootKey } from "../../../server/db/root-keys";
import { startInProcess, type InProcessServer } from "../in-process";
import { dataOf, errorOf, realHarness, type RealHarness } from "./real-harness";
import { Override, ratelimitHarness, type RatelimitHarness } from "./ratelimit-harness";

/**
 * The real service's route tests of ratelimit.getOverride (svc/api/routes/v2_ratelimit_get_override/*_test.go),
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

const getOverride = (body: unknown, key: string) => h.call("ratelimit.getOverride", body, { key });

/** A namespace with one override of `test_identifier`, 10 per second, as the real tests set up. */
function withOverride(): { ns: { id: string; name: string }; overrideId: string } {
  const ns = rl.namespace();
  return { ns, overrideId: rl.override(ns.id, "test_identifier", 10, 1000) };
}

describe("200", () => {
  test.each([
    ["get by namespace name", (ns: { id: string; name: string }) => ns.name],
    ["get by namespace ID", (ns: { id: string; name: string }) => ns.id],
  ])("%s", async (_, namespaceOf) => {
    const { ns, overrideId } = withOverride();
    const key = h.rootKey([h.urn(`ratelimits/namespaces/${ns.id}/overrides/*`, "read_override")]);
    const answer = await getOverride({ namespace: namespaceOf(ns), identifier: "test_identifier" }, key);
    expect(v.parse(Override, dataOf(answer))).toEqual({
      overrideId,
      identifier: "test_identifier",
      limit: 10,
      duration: 1000,
    });
  });
});

describe("400", () => {
  test.each([
    ["missing all required fields", {}],
    ["missing identifier", { namespace: "not_empty" }],
    ["empty identifier", { namespace: "not_empty", identifier: "" }],
    ["neither namespace ID nor name provided", { namespace: "", identifier: "user_123" }],
  ])("%s", async (_, body) => {
    const answer = await getOverride(body, h.rootKey([]));
    const error = errorOf(answer);
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/application\/invalid_input$/);
    expect(error.detail).toBe("POST request body for '/v2/ratelimit.getOverride' failed to validate schema");
    expect((answer.json as { error: { errors: unknown[] } }).error.errors.length).toBeGreaterThan(0);
  });

  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    const body = { namespace: "test", identifier: "test_identifier" };
    expect(errorOf(await h.call("ratelimit.getOverride", body, "none")).status).toBe(401);
  });

  test("malformed authorization header", async () => {
    const body = { namespace: "test", identifier: "test_identifier" };
    expect(errorOf(await h.call("ratelimit.getOverride", body, { authorization: "malformed_header" })).status).toBe(
      400,
    );
  });
});

describe("401", () => {
  test("invalid authorization token", async () => {
    const body = { namespace: "test", identifier: "test_identifier" };
    expect((await h.call("ratelimit.getOverride", body, { authorization: "Bearer invalid_token" })).status).toBe(401);
  });
});

describe("403", () => {
  test("TestWorkspacePermissions: another workspace's namespace is not found (404)", async () => {
    const { ns } = withOverride();
    const answer = await getOverride({ namespace: ns.id, identifier: "test_identifier" }, h.rootKey([], h.workspace()));
    expect(answer.status).toBe(404);
  });
});

describe("404", () => {
  test("override not found", async () => {
    const ns = rl.namespace();
    const error = errorOf(
      await getOverride(
        { namespace: ns.id, identifier: "non_existent_identifier" },
        h.rootKey([`ratelimit.${ns.id}.read_override`]),
      ),
    );
    expect(error).toMatchObject({ status: 404 });
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_override_not_found$/);
  });

  test.each([
    ["namespace not found", "ns_nonexistent"],
    ["namespace name not found", "nonexistent_namespace"],
  ])("%s", async (_, namespace) => {
    const error = errorOf(
      await getOverride({ namespace, identifier: "some_identifier" }, h.rootKey(["ratelimit.*.read_override"])),
    );
    expect(error.status).toBe(404);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_namespace_not_found$/);
  });

  test("identifier not found", async () => {
    const ns = rl.namespace();
    const error = errorOf(
      await getOverride(
        { namespace: ns.id, identifier: "nonexistent_identifier" },
        h.rootKey([`ratelimit.${ns.id}.read_override`]),
      ),
    );
    expect(error.status).toBe(404);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_override_not_found$/);
  });

  test("TestOverrideResponsesDoNotLeakExistence: without read_override, an override that exists and one that does not are the same 404", async () => {
    const ns = rl.namespace();
    rl.override(ns.id, "existing_identifier", 10, 1000);
    const key = h.rootKey([]);
    const existing = await getOverride({ namespace: ns.id, identifier: "existing_identifier" }, key);
    const missing = await getOverride({ namespace: ns.id, identifier: "non_existent_identifier" }, key);
    expect(existing.status).toBe(404);
    expect(missing.status).toBe(404);
    const { status, type, detail } = errorOf(missing);
    expect(errorOf(existing)).toEqual({ status, type, detail });
  });
});

describe("429", () => {
  // The real tests set the workspace's API throttle (its limits table, per minute); here a root key carries its own
  // limit, so each replay gives its one root key the limit the workspace had.
  const limited = (ratelimit?: { limit: number; windowMs: number }) =>
    createRootKey(server.admin.db, {
      workspaceId: h.workspace(),
      name: "throttled",
      permissions: [],
      ...(ratelimit !== undefined && { ratelimit }),
    }).secret;
  const body = { namespace: "nonexistent", identifier: "test" };

  test.each([
    ["TestWorkspaceRateLimit_DefaultLimits_Unlimited", undefined],
    ["TestWorkspaceRateLimit_NullFields_Unlimited", undefined],
  ])("%s: without a limit the call is answered (the namespace's 404)", async (_, ratelimit) => {
    expect((await getOverride(body, limited(ratelimit))).status).toBe(404);
  });

  test("TestWorkspaceRateLimit_EnforcesLimit: two calls a minute are answered, the third is 429", async () => {
    const key = limited({ limit: 2, windowMs: 60_000 });
    expect((await getOverride(body, key)).status).toBe(404);
    expect((await getOverride(body, key)).status).toBe(404);
    const third = errorOf(await getOverride(body, key));
    expect(third.status).toBe(429);
  });
});

describe("URN permissions", () => {
  let ns: { id: string; name: string };
  let overrideId: string;
  beforeAll(() => {
    ({ ns, overrideId } = withOverride());
  });
  const workspaceOf = () => h.workspaceId;

  test.each([
    ["exact override permission", () => `ratelimits/namespaces/${ns.id}/overrides/${overrideId}`, "read_override"],
    ["namespace override wildcard permission", () => `ratelimits/namespaces/${ns.id}/overrides/*`, "read_override"],
    ["namespace descendant wildcard permission", () => `ratelimits/namespaces/${ns.id}/**`, "read_override"],
    ["ratelimits descendant wildcard permission", () => "ratelimits/**", "read_override"],
    ["workos wildcard namespace permission", () => "ratelimits/namespaces/*/overrides/*", "read_override"],
    ["admin permission", () => "**", "*"],
  ])("TestGetOverride_AuthorizesURNPermissions: %s", async (_, resource, action) => {
    const answer = await getOverride(
      { namespace: ns.name, identifier: "test_identifier" },
      h.rootKey([h.urn(resource(), action)]),
    );
    expect(v.parse(Override, dataOf(answer)).overrideId).toBe(overrideId);
  });

  test.each([
    [
      "sibling namespace wildcard permission",
      () => h.urn("ratelimits/namespaces/ns_other/overrides/*", "read_override"),
    ],
    [
      "wrong action permission",
      () => h.urn(`ratelimits/namespaces/${ns.id}/overrides/${overrideId}`, "delete_override"),
    ],
    [
      "wrong workspace permission",
      () => `unkey:v1:ws_other:ratelimits/namespaces/${ns.id}/overrides/${overrideId}#read_override`,
    ],
  ])("TestGetOverride_RejectsNonCoveringURNPermissions: %s", async (_, permission) => {
    expect(workspaceOf()).toMatch(/^ws_/);
    const error = errorOf(
      await getOverride({ namespace: ns.name, identifier: "test_identifier" }, h.rootKey([permission()])),
    );
    expect(error.status).toBe(404);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_override_not_found$/);
  });
});
