import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../../server/db/ids";
import { startInProcess, type InProcessServer } from "../in-process";
import { errorOf, realHarness, type RealHarness } from "./real-harness";
import { limitOf, ratelimitHarness, type RatelimitHarness } from "./ratelimit-harness";

/**
 * The real service's route tests of ratelimit.limit (svc/api/routes/v2_ratelimit_limit/*_test.go), replayed over HTTP,
 * each named as its real t.Run. Served differently on purpose: docs/real-route-tests.md.
 */

let server: InProcessServer;
let h: RealHarness;
let rl: RatelimitHarness;
/** The harness's clock: the wall clock until the accuracy test moves it, as the real harness's h.Clock. */
let clockAt: number | undefined;

beforeAll(() => {
  server = startInProcess({ clock: () => clockAt ?? Date.now() });
  h = realHarness(server);
  rl = ratelimitHarness(server);
});

afterAll(() => server.close());

const limit = (body: unknown, key: string) => h.call("ratelimit.limit", body, { key });
const ask = (namespace: string, identifier = "user_123", more: Record<string, unknown> = {}) => ({
  namespace,
  identifier,
  limit: 100,
  duration: 60_000,
  ...more,
});
const limiterOf = (namespaceId: string) => h.rootKey([`ratelimit.${namespaceId}.limit`]);

describe("200", () => {
  test("auto-create namespace with audit log (served differently: no audit log, this server keeps none; the namespace is created as there)", async () => {
    const name = newId("req");
    const key = h.rootKey(["ratelimit.*.create_namespace", "ratelimit.*.limit"]);
    const data = limitOf(await limit(ask(name), key));
    expect(data).toMatchObject({ success: true, limit: 100, remaining: 99 });
    expect(rl.hasNamespace(name)).toBe(true);
  });

  test("basic rate limiting", async () => {
    const ns = rl.namespace();
    const data = limitOf(await limit(ask(ns.name), limiterOf(ns.id)));
    expect(data).toMatchObject({ success: true, limit: 100, remaining: 99 });
    expect(data.reset).toBeGreaterThan(0);
    expect(data.overrideId).toBeUndefined();
  });

  test("the event is flushed to clickhouse", async () => {
    const ns = rl.namespace();
    const identifier = newId("req");
    const answer = await limit(ask(ns.name, identifier), limiterOf(ns.id));
    const data = limitOf(answer);
    // The decision is on disk before the answer (the analytics copy reads it from there).
    const rows = rl.decisions(ns.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      identifier,
      passed: data.success ? 1 : 0,
      request_id: (answer.json as { meta: { requestId: string } }).meta.requestId,
    });
  });

  test("custom cost", async () => {
    const ns = rl.namespace();
    const data = limitOf(await limit(ask(ns.name, "user_456", { cost: 5 }), limiterOf(ns.id)));
    expect(data).toMatchObject({ success: true, limit: 100, remaining: 95 });
  });

  test("with override", async () => {
    const ns = rl.namespace();
    const overrideId = rl.override(ns.id, "user_789", 200, 120_000);
    const data = limitOf(await limit(ask(ns.name, "user_789"), limiterOf(ns.id)));
    expect(data).toMatchObject({ success: true, limit: 200, remaining: 199, overrideId });
    expect(Object.keys(data).sort()).toEqual(["limit", "overrideId", "remaining", "reset", "success"]);
  });

  test("with wildcard override", async () => {
    const ns = rl.namespace();
    const identifier = newId("req").replace("req", "prefix");
    const overrideId = rl.override(ns.id, identifier.replace("prefix", "p*"), 200, 120_000);
    const data = limitOf(await limit(ask(ns.name, identifier), limiterOf(ns.id)));
    expect(data).toMatchObject({ overrideId, success: true, limit: 200, remaining: 199 });
  });

  test("rate limit exceeded", async () => {
    const ns = rl.namespace();
    const body = ask(ns.name, newId("req"), { limit: 1 });
    const key = limiterOf(ns.id);
    expect(limitOf(await limit(body, key))).toMatchObject({ success: true, remaining: 0 });
    expect(limitOf(await limit(body, key))).toMatchObject({ success: false, limit: 1, remaining: 0 });
  });

  test.each([
    ["special characters", "!@#$%^&*()_+-=[]{}|;':\",./<>?"],
    ["unicode characters", "αβγδε_测试_테스트_🚀🎉"],
    ["mixed alphanumeric and special", "test-123_ABC.xyz@domain"],
    ["spaces and tabs", "namespace with spaces\tand\ttabs"],
    ["control characters", "test\nwith\rnewlines\tand\btabs"],
    ["colon and slash delimiters", "api:v1:calls/outbound"],
    ["leading and trailing whitespace", "  leading and trailing  "],
    ["minimum length (1 char)", "a"],
    ["maximum length (255 chars)", "x".repeat(255)],
  ])("namespace accepts any characters within length bounds: %s", async (_, name) => {
    const ns = rl.namespace({ name });
    const data = limitOf(await limit(ask(name, newId("req")), limiterOf(ns.id)));
    expect(data.success).toBe(true);
  });

  test("rate limiting with active override", async () => {
    const ns = rl.namespace();
    const overrideId = rl.override(ns.id, "override_user", 3, 60_000);
    const body = ask(ns.name, "override_user", { limit: 100, duration: 120_000 });
    const key = limiterOf(ns.id);
    const answers = [];
    for (let index = 0; index < 4; index += 1) answers.push(limitOf(await limit(body, key)));
    expect(answers.map(({ success, limit: max, remaining }) => [success, max, remaining])).toEqual([
      [true, 3, 2],
      [true, 3, 1],
      [true, 3, 0],
      [false, 3, 0],
    ]);
    expect(answers.map((answer) => answer.overrideId)).toEqual([overrideId, overrideId, overrideId, overrideId]);
  });
});

describe("400", () => {
  const invalid = (error: ReturnType<typeof errorOf>) => {
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/application\/invalid_input$/);
    expect(error.detail).toBe("POST request body for '/v2/ratelimit.limit' failed to validate schema");
  };

  test("negative cost", async () => {
    const ns = rl.namespace();
    const answer = await limit(ask(ns.name, "user_123", { cost: -5 }), limiterOf(ns.id));
    invalid(errorOf(answer));
    expect((answer.json as { error: { errors: unknown[] } }).error.errors.length).toBeGreaterThan(0);
  });

  test("missing namespace in request", async () => {
    const answer = await limit(
      { identifier: "user_123", limit: 100, duration: 60_000 },
      h.rootKey(["ratelimit.*.limit"]),
    );
    invalid(errorOf(answer));
    expect((answer.json as { error: { errors: unknown[] } }).error.errors.length).toBeGreaterThan(0);
  });

  test.each([1, 2])(
    "missing authorization header (served differently: the seed's 401 where the real service answers 400, case %i)",
    async () => {
      const error = errorOf(await h.call("ratelimit.limit", ask("test_namespace"), "none"));
      expect(error.status).toBe(401);
      expect(error.type).toMatch(/\/authentication\/missing$/);
    },
  );

  test("malformed authorization header", async () => {
    const error = errorOf(
      await h.call("ratelimit.limit", ask("test_namespace"), { authorization: "malformed_header" }),
    );
    expect(error.status).toBe(400);
    expect(error.type).toMatch(/\/errors\/svc\/authentication\/malformed$/);
  });
});

describe("401", () => {
  test("invalid authorization token", async () => {
    const answer = await h.call("ratelimit.limit", ask("test_namespace"), { authorization: "Bearer invalid_token" });
    expect(answer.status).toBe(401);
  });
});

describe("403", () => {
  test("TestWorkspacePermissions: a namespace of another workspace is not there to limit in; creating it is refused", async () => {
    const ns = rl.namespace();
    const error = errorOf(await limit(ask(ns.name), h.rootKey([], h.workspace())));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("create_namespace");
  });

  test("has limit permission but no create_namespace permission", async () => {
    const name = newId("req");
    const error = errorOf(await limit(ask(name), h.rootKey(["ratelimit.*.limit"])));
    expect(error.status).toBe(403);
    expect(error.detail).toContain("create_namespace");
    expect(rl.hasNamespace(name)).toBe(false);
  });
});

describe("410", () => {
  test("soft-deleted namespace returns 410", async () => {
    const ns = rl.namespace();
    rl.deleteNamespace(ns.id);
    const error = errorOf(await limit(ask(ns.name), limiterOf(ns.id)));
    expect(error.status).toBe(410);
    expect(error.type).toMatch(/\/errors\/svc\/data\/ratelimit_namespace_gone$/);
    expect(error.detail).toContain("deleted");
  });
});

describe("accuracy", () => {
  /**
   * The real TestRateLimitAccuracy's matrix: limits 5 and 100, windows of 1 s and 5 s, load 0.9×, 1× and 10× the
   * limit, for 50 windows, one request after another with the clock moved between them; the successes must fall in its
   * bounds. Here the limiter is exact, so they are also the exact count a sliding window lets through.
   */
  test("load_%.1fx (0.9x, 1.0x and 10.0x the limit, for limits 5 and 100 over 50 windows of 1 s and 5 s)", async () => {
    const results: string[] = [];
    const windows = 50;
    for (const max of [5, 100]) {
      for (const duration of [1000, 5000]) {
        for (const loadFactor of [0.9, 1.0, 10.0]) {
          const ns = rl.namespace();
          const key = limiterOf(ns.id);
          const body = JSON.stringify({ namespace: ns.name, identifier: newId("req"), limit: max, duration });
          const rps = Math.max(1, Math.ceil(max * loadFactor * (1000 / duration)));
          const seconds = Math.ceil((windows * duration) / 1000);
          const totalRequests = rps * seconds;
          const numWindows = (seconds * 1000) / duration;
          const maxAllowed = Math.min(numWindows * max, totalRequests);
          let upper = Math.floor(maxAllowed * 1.2);
          let lower = Math.floor(maxAllowed * 0.95);
          if (rps * (duration / 1000) <= max) {
            lower = Math.floor(totalRequests * 0.95);
            upper = totalRequests;
          }
          upper = Math.min(upper, totalRequests);
          const interval = Math.floor(1000 / rps);
          clockAt = Date.now();
          let successes = 0;
          for (let index = 0; index < totalRequests; index += 1) {
            clockAt += interval;
            const answer = await h.call("ratelimit.limit", body, { key });
            if (limitOf(answer).success) successes += 1;
          }
          results.push(`${max}/${duration}ms ×${loadFactor}: ${successes} in [${lower}, ${upper}]`);
          expect(successes, results.at(-1)).toBeGreaterThanOrEqual(lower);
          expect(successes, results.at(-1)).toBeLessThanOrEqual(upper);
        }
      }
    }
    clockAt = undefined;
  }, 300_000);
});
