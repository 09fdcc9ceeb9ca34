import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../../server/db/ids";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";
import { multiLimitOf, ratelimitHarness, type RatelimitHarness } from "./ratelimit-harness";

/**
 * The real service's route tests of ratelimit.multiLimit (svc/api/routes/v2_ratelimit_multi_limit/*_test.go), replayed
 * over HTTP, each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
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

const multiLimit = (body: unknown, key: string) => h.call("ratelimit.multiLimit", body, { key });
const check = (namespace: string, identifier: string, limit: number, more: Record<string, unknown> = {}) => ({
  namespace,
  identifier,
  limit,
  duration: 60_000,
  ...more,
});
const limiterOf = (...namespaceIds: string[]) => h.rootKey(namespaceIds.map((id) => `ratelimit.${id}.limit`));
const requestIdOf = (json: unknown) => (json as { meta: { requestId: string } }).meta.requestId;

describe("200", () => {
  test("auto-create multiple namespaces with audit logs (served differently: no audit log, this server keeps none; the namespaces are created as there)", async () => {
    const names = [newId("req"), newId("req"), newId("req")];
    const key = h.rootKey(["ratelimit.*.create_namespace", "ratelimit.*.limit"]);
    const data = multiLimitOf(
      await multiLimit(
        [100, 200, 300].map((n, i) => check(names[i] ?? "", "user_123", n)),
        key,
      ),
    );
    expect(data.passed).toBe(true);
    expect(data.limits.map(({ passed, namespace, limit, remaining }) => [passed, namespace, limit, remaining])).toEqual(
      [
        [true, names[0], 100, 99],
        [true, names[1], 200, 199],
        [true, names[2], 300, 299],
      ],
    );
    expect(names.every((name) => rl.hasNamespace(name))).toBe(true);
  });

  test("basic multi rate limiting", async () => {
    const [a, b] = [rl.namespace(), rl.namespace()];
    const data = multiLimitOf(
      await multiLimit([check(a.name, "user_123", 100), check(b.name, "user_123", 200)], limiterOf(a.id, b.id)),
    );
    expect(data.passed).toBe(true);
    expect(data.limits).toHaveLength(2);
    expect(data.limits[0]).toMatchObject({ passed: true, namespace: a.name, limit: 100, remaining: 99 });
    expect(data.limits[0]?.reset).toBeGreaterThan(0);
    expect(data.limits[0]?.overrideId).toBeUndefined();
    expect(data.limits[1]).toMatchObject({ passed: true, namespace: b.name, limit: 200, remaining: 199 });
    expect(data.limits[1]?.overrideId).toBeUndefined();
  });

  test("multiple events are flushed to clickhouse", async () => {
    const [a, b] = [rl.namespace(), rl.namespace()];
    const identifier = newId("req");
    const answer = await multiLimit(
      [check(a.name, identifier, 100), check(b.name, identifier, 200)],
      limiterOf(a.id, b.id),
    );
    const data = multiLimitOf(answer);
    for (const [index, namespace] of [a, b].entries()) {
      const rows = rl.decisions(namespace.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        identifier,
        passed: data.limits[index]?.passed === true ? 1 : 0,
        request_id: requestIdOf(answer.json),
      });
    }
  });

  test("custom cost", async () => {
    const ns = rl.namespace();
    const data = multiLimitOf(await multiLimit([check(ns.name, "user_456", 100, { cost: 5 })], limiterOf(ns.id)));
    expect(data.passed).toBe(true);
    expect(data.limits).toHaveLength(1);
    expect(data.limits[0]).toMatchObject({ passed: true, limit: 100, remaining: 95 });
  });

  test("with override", async () => {
    const ns = rl.namespace();
    const overrideId = rl.override(ns.id, "user_789", 200, 120_000);
    const data = multiLimitOf(await multiLimit([check(ns.name, "user_789", 100)], limiterOf(ns.id)));
    expect(data.passed).toBe(true);
    expect(data.limits[0]).toMatchObject({ passed: true, limit: 200, remaining: 199, overrideId });
  });

  test("with wildcard override", async () => {
    const ns = rl.namespace();
    const identifier = newId("req").replace("req", "prefix");
    const overrideId = rl.override(ns.id, identifier.replace("prefix", "p*"), 200, 120_000);
    const data = multiLimitOf(await multiLimit([check(ns.name, identifier, 100)], limiterOf(ns.id)));
    expect(data.passed).toBe(true);
    expect(data.limits[0]).toMatchObject({ overrideId, passed: true, limit: 200, remaining: 199 });
  });

  test("multiple limits - some fail but all results returned", async () => {
    const [a, b, c] = [rl.namespace(), rl.namespace(), rl.namespace()];
    const identifier = newId("req");
    const body = [check(a.name, identifier, 100), check(b.name, identifier, 1), check(c.name, identifier, 300)];
    const key = limiterOf(a.id, b.id, c.id);
    const first = multiLimitOf(await multiLimit(body, key));
    expect(first.passed).toBe(true);
    expect(first.limits.map((limit) => limit.passed)).toEqual([true, true, true]);
    const second = multiLimitOf(await multiLimit(body, key));
    expect(second.passed).toBe(false);
    expect(second.limits.map(({ namespace, identifier: id, passed }) => [namespace, id, passed])).toEqual([
      [a.name, identifier, true],
      [b.name, identifier, false],
      [c.name, identifier, true],
    ]);
    expect(second.limits[1]).toMatchObject({ limit: 1, remaining: 0 });
  });

  test("rate limiting with active override", async () => {
    const ns = rl.namespace();
    const overrideId = rl.override(ns.id, "override_user", 3, 60_000);
    const body = [check(ns.name, "override_user", 100, { duration: 120_000 })];
    const key = limiterOf(ns.id);
    const answers = [];
    for (let index = 0; index < 4; index += 1) answers.push(multiLimitOf(await multiLimit(body, key)));
    expect(answers.map((data) => [data.passed, data.limits[0]?.passed, data.limits[0]?.remaining])).toEqual([
      [true, true, 2],
      [true, true, 1],
      [true, true, 0],
      [false, false, 0],
    ]);
    expect(answers[0]?.limits[0]).toMatchObject({ limit: 3, overrideId });
    expect(answers[3]?.limits[0]?.overrideId).toBe(overrideId);
  });

  test("custom cost with multiple requests", async () => {
    const [a, b, c] = [rl.namespace(), rl.namespace(), rl.namespace()];
    const data = multiLimitOf(
      await multiLimit(
        [
          check(a.name, "user_multi_cost", 100),
          check(b.name, "user_multi_cost", 50, { cost: 3 }),
          check(c.name, "user_multi_cost", 200, { cost: 10 }),
        ],
        limiterOf(a.id, b.id, c.id),
      ),
    );
    expect(data.passed).toBe(true);
    expect(data.limits.map(({ passed, namespace, limit, remaining }) => [passed, namespace, limit, remaining])).toEqual(
      [
        [true, a.name, 100, 99],
        [true, b.name, 50, 47],
        [true, c.name, 200, 190],
      ],
    );
  });

  test("override with multiple requests", async () => {
    const [a, b] = [rl.namespace(), rl.namespace()];
    const first = rl.override(a.id, "user_multi_override", 5, 60_000);
    const second = rl.override(b.id, "user_multi_override", 3, 60_000);
    const data = multiLimitOf(
      await multiLimit(
        [check(a.name, "user_multi_override", 100), check(b.name, "user_multi_override", 200)],
        limiterOf(a.id, b.id),
      ),
    );
    expect(data.passed).toBe(true);
    expect(data.limits).toEqual([
      expect.objectContaining({ passed: true, namespace: a.name, limit: 5, remaining: 4, overrideId: first }),
      expect.objectContaining({ passed: true, namespace: b.name, limit: 3, remaining: 2, overrideId: second }),
    ]);
  });
});

describe("400", () => {
  const invalid = (answer: Awaited<ReturnType<typeof multiLimit>>) => {
    const error = errorOf(answer);
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/application\/invalid_input$/);
    expect(error.detail).toBe("POST request body for '/v2/ratelimit.multiLimit' failed to validate schema");
    expect((answer.json as { error: { errors: unknown[] } }).error.errors.length).toBeGreaterThan(0);
  };

  test("empty request array", async () => {
    invalid(await multiLimit([], h.rootKey(["ratelimit.*.limit"])));
  });

  test("negative cost", async () => {
    const ns = rl.namespace();
    invalid(await multiLimit([check(ns.name, "user_123", 100, { cost: -5 })], limiterOf(ns.id)));
  });

  test("missing namespace in request", async () => {
    invalid(await multiLimit([check("", "user_123", 100)], h.rootKey(["ratelimit.*.limit"])));
  });

  test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
    const error = errorOf(await h.call("ratelimit.multiLimit", [check("test_namespace", "user_123", 100)], "none"));
    expect(error.status).toBe(401);
  });

  test("malformed authorization header", async () => {
    const error = errorOf(
      await h.call("ratelimit.multiLimit", [check("test_namespace", "user_123", 100)], {
        authorization: "malformed_header",
      }),
    );
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/authentication\/malformed$/);
  });
});

describe("401", () => {
  test("invalid authorization token", async () => {
    const answer = await h.call("ratelimit.multiLimit", [check("test_namespace", "user_123", 100)], {
      authorization: "Bearer invalid_token",
    });
    expect(answer.status).toBe(401);
  });
});

describe("403", () => {
  test("TestWorkspacePermissions: a namespace of another workspace is not there to limit in; creating it is refused", async () => {
    const ns = rl.namespace();
    const error = errorOf(await multiLimit([check(ns.name, "user_123", 100)], h.rootKey([], h.workspace())));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("Missing");
  });

  test("has limit permission but no create_namespace permission", async () => {
    const name = newId("req");
    const error = errorOf(await multiLimit([check(name, "user_123", 100)], h.rootKey(["ratelimit.*.limit"])));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("create_namespace");
    expect(rl.hasNamespace(name)).toBe(false);
  });

  test("has permission for namespace A but tries to access A and B", async () => {
    const [a, b] = [rl.namespace(), rl.namespace()];
    const error = errorOf(
      await multiLimit([check(a.name, "user_123", 100), check(b.name, "user_123", 100)], limiterOf(a.id)),
    );
    expect(error.status).toBe(403);
    expect(error.detail).toContain("Missing");
    // Nothing was decided, so nothing was recorded.
    expect(rl.decisions(a.id)).toEqual([]);
  });
});

describe("410", () => {
  test("soft-deleted namespace returns 410", async () => {
    const ns = rl.namespace();
    rl.deleteNamespace(ns.id);
    const error = errorOf(await multiLimit([check(ns.name, "user_123", 100)], limiterOf(ns.id)));
    expect(error.status).toBe(410);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_namespace_gone$/);
    expect(error.detail).toContain("deleted");
  });
});
