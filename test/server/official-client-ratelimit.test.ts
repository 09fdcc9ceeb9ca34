import { Unkey } from "@unkey/api";
import {
  BadRequestErrorResponse,
  ForbiddenErrorResponse,
  GoneErrorResponse,
  NotFoundErrorResponse,
} from "@unkey/api/models/errors";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_RATELIMIT_DECISIONS } from "../../server/db/demo-data";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * The real service's official TypeScript client (`@unkey/api`) against a real `npm start` server, for the rate-limit
 * operations and their analytics: each typed answer parses (a response off its schema would throw its
 * ResponseValidationError), each change is seen by the next limit or query, its page iterator walks the overrides,
 * and its typed errors come as the real service's.
 */

let server: StartedServer;
let unkey: Unkey;

function clientWith(rootKey: string): Unkey {
  return new Unkey({ rootKey, serverURL: server.url, retryConfig: { strategy: "none" } });
}

beforeAll(async () => {
  server = await startServer();
  if (server.rootKey === undefined) throw new Error("a first start prints the demo root key");
  unkey = clientWith(server.rootKey);
});

afterAll(async () => {
  await server.stop();
});

const ask = (namespace: string, identifier: string, limit = 3) => ({ namespace, identifier, limit, duration: 60_000 });

describe("ratelimit.limit and multiLimit", () => {
  test("a limit creates its namespace, counts exactly, and answers the typed result", async () => {
    const answers = [];
    for (let index = 0; index < 4; index += 1) answers.push((await unkey.ratelimit.limit(ask("client", "u1"))).data);
    expect(answers.map(({ success, remaining }) => [success, remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(answers[0]?.reset).toBeGreaterThan(Date.now());
    expect(answers[0]?.overrideId).toBeUndefined();
  });

  test("multiLimit answers every check, all or nothing", async () => {
    const result = await unkey.ratelimit.multiLimit([ask("client", "u2", 5), ask("client-b", "u2", 1)]);
    expect(result.data.passed).toBe(true);
    const refused = await unkey.ratelimit.multiLimit([ask("client", "u2", 5), ask("client-b", "u2", 1)]);
    expect(refused.data).toMatchObject({
      passed: false,
      limits: [
        { namespace: "client", identifier: "u2", passed: true, remaining: 4 },
        { namespace: "client-b", identifier: "u2", passed: false, remaining: 0 },
      ],
    });
  });
});

describe("overrides", () => {
  test("set, get, list and delete, each seen by the next limit", async () => {
    await unkey.ratelimit.limit(ask("overrides", "warm"));
    const { overrideId } = (
      await unkey.ratelimit.setOverride({ namespace: "overrides", identifier: "vip_*", limit: 100, duration: 60_000 })
    ).data;
    expect((await unkey.ratelimit.limit(ask("overrides", "vip_1"))).data).toMatchObject({
      success: true,
      limit: 100,
      remaining: 99,
      overrideId,
    });

    const got = await unkey.ratelimit.getOverride({ namespace: "overrides", identifier: "vip_1" });
    expect(got.data).toEqual({ overrideId, identifier: "vip_*", limit: 100, duration: 60_000 });

    await unkey.ratelimit.setOverride({ namespace: "overrides", identifier: "vip_*", limit: 0, duration: 60_000 });
    expect((await unkey.ratelimit.limit(ask("overrides", "vip_1"))).data).toMatchObject({ success: false, limit: 0 });

    await unkey.ratelimit.deleteOverride({ namespace: "overrides", identifier: "vip_*" });
    expect((await unkey.ratelimit.limit(ask("overrides", "vip_1"))).data).toMatchObject({ success: true, limit: 3 });
    const gone = await unkey.ratelimit
      .getOverride({ namespace: "overrides", identifier: "vip_1" })
      .catch((caught: unknown) => caught);
    expect(gone).toBeInstanceOf(NotFoundErrorResponse);
  });

  test("the page iterator walks every override of the namespace once", async () => {
    await unkey.ratelimit.limit(ask("paged", "warm"));
    const set = [];
    for (let index = 0; index < 7; index += 1) {
      const answer = await unkey.ratelimit.setOverride({
        namespace: "paged",
        identifier: `user_${index}`,
        limit: index,
        duration: 1000,
      });
      set.push(answer.data.overrideId);
    }
    const seen: string[] = [];
    let pages = 0;
    for await (const page of await unkey.ratelimit.listOverrides({ namespace: "paged", limit: 3 })) {
      pages += 1;
      seen.push(...page.result.data.map((override) => override.overrideId));
    }
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(set.sort());
  });
});

describe("analytics.getRatelimits", () => {
  test("the demo namespace's 30 days of decisions answer on the first start, by day and by identifier", async () => {
    const namespaceId = (
      await server.admin(["namespaces", "list"]).then((listed) => /^api\.requests +(rlns_\w+)/m.exec(listed))
    )?.[1];
    expect(namespaceId).toBeDefined();
    const byDay = await unkey.analytics.getRatelimits({
      query: `SELECT time, sum(passed) AS passed, sum(total) - sum(passed) AS blocked FROM ratelimits_per_day_v1 WHERE namespace_id = '${namespaceId ?? ""}' AND time >= toStartOfDay(now() - INTERVAL 30 DAY) GROUP BY time ORDER BY time`,
    });
    const days = byDay.data;
    expect(days.length).toBeGreaterThanOrEqual(28);
    const total = days.reduce((sum, day) => sum + Number(day.passed) + Number(day.blocked), 0);
    expect(total).toBe(DEMO_RATELIMIT_DECISIONS);
    expect(days.some((day) => Number(day.blocked) > 0)).toBe(true);
    const banned = await unkey.analytics.getRatelimits({
      query: "SELECT countIf(passed) AS passed, count() AS total FROM ratelimits_v1 WHERE identifier = 'banned_bot'",
    });
    expect(banned.data).toEqual([{ passed: 0, total: expect.any(Number) as unknown }]);
  });

  test("a limit's decision is in the next query; a query of another family's table is the typed 400", async () => {
    const count = async () =>
      (
        await unkey.analytics.getRatelimits({
          query:
            "SELECT identifier, countIf(passed) AS passed, count(*) AS total FROM ratelimits_v1 WHERE identifier = 'analytics_u1' GROUP BY identifier",
        })
      ).data;
    for (let index = 0; index < 3; index += 1) await unkey.ratelimit.limit(ask("client-analytics", "analytics_u1", 2));
    expect(await count()).toEqual([{ identifier: "analytics_u1", passed: 2, total: 3 }]);
    await unkey.ratelimit.limit(ask("client-analytics", "analytics_u1", 2));
    expect(await count()).toEqual([{ identifier: "analytics_u1", passed: 2, total: 4 }]);

    const wrongTable = await unkey.analytics
      .getRatelimits({ query: "SELECT count(*) FROM key_verifications_v1" })
      .catch((caught: unknown) => caught);
    expect(wrongTable).toBeInstanceOf(BadRequestErrorResponse);
    expect((wrongTable as BadRequestErrorResponse).data$.error.type).toContain("invalid_analytics_table");
  });
});

describe("typed errors", () => {
  test("a missing namespace, a deleted one, a missing permission and a bad body come as the client's typed errors", async () => {
    const missing = await unkey.ratelimit
      .setOverride({ namespace: "nowhere", identifier: "a", limit: 1, duration: 1000 })
      .catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(NotFoundErrorResponse);

    const id = await server.admin(["namespaces", "create", "--name", "deleted"]);
    await server.admin(["namespaces", "delete", id]);
    const gone = await unkey.ratelimit.limit(ask("deleted", "a")).catch((caught: unknown) => caught);
    expect(gone).toBeInstanceOf(GoneErrorResponse);
    expect((gone as GoneErrorResponse).data$.error.title).toBe("Resource Gone");

    const reader = clientWith(
      await server.admin(["root-key", "create", "--name", "reader", "--permissions", "ratelimit.*.read_override"]),
    );
    const refused = await reader.ratelimit.limit(ask("client", "a")).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ForbiddenErrorResponse);

    const bad = await fetch(`${server.url}/v2/ratelimit.limit`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.rootKey ?? ""}`, "content-type": "application/json" },
      body: JSON.stringify({ ...ask("client", "a"), limit: 0 }),
    });
    expect(bad.status).toBe(400);
    const typed = await unkey.ratelimit.multiLimit([]).catch((caught: unknown) => caught);
    expect(typed).toBeInstanceOf(BadRequestErrorResponse);
  });
});
