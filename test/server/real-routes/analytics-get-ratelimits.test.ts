import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../../server/db/ids";
import { recordDecision } from "../../../server/db/ratelimits";
import { setAnalyticsQueriesPerHour } from "../../../server/db/workspaces";
import { seedRatelimitDecisions } from "../analytics-data";
import { startInProcessWithAnalytics } from "../in-process";
import { callApi } from "../http";
import { errorOf, realHarness, type RealHarness } from "./real-harness";
import { ratelimitHarness, type RatelimitHarness } from "./ratelimit-harness";

/**
 * The real service's route tests of analytics.getRatelimits (svc/api/routes/v2_analytics_get_ratelimits), replayed
 * over HTTP, each named as its real test. Where the real test buffers a decision into ClickHouse
 * (`h.RatelimitEvents.Buffer`), this one records it as ratelimit.limit does, in SQLite, which the analytics store
 * copies before the query answers. Served differently on purpose: docs/real-route-tests.md.
 */

let server: Awaited<ReturnType<typeof startInProcessWithAnalytics>>;
let h: RealHarness;
let rl: RatelimitHarness;
let analyst: string;

const Rows = v.object({ data: v.array(v.record(v.string(), v.unknown())) });

beforeAll(async () => {
  server = await startInProcessWithAnalytics();
  h = realHarness(server);
  rl = ratelimitHarness(server);
  analyst = h.rootKey(["ratelimit.*.read_analytics"]);
});

afterAll(async () => {
  await server.closeAll();
});

/** A decision as the real tests buffer one: passed, a limit of 10, now. */
function event(workspaceId: string, namespaceId: string, identifier: string): void {
  const now = Date.now();
  recordDecision(server.admin.db, {
    requestId: newId("req"),
    time: now,
    workspaceId,
    namespaceId,
    identifier,
    passed: true,
    latency: 0.3,
    overrideId: "",
    limit: 10,
    remaining: 9,
    resetAt: now + 60_000,
    tokens: 1,
  });
}

/** A workspace of its own (as each real test's harness makes), its analytics root key, and a namespace in it. */
function workspace(): { id: string; key: (permissions?: string[]) => string; namespace: () => string } {
  const id = h.workspace();
  return {
    id,
    key: (permissions = ["ratelimit.*.read_analytics"]) => h.rootKey(permissions, id),
    namespace: () => rl.namespace({ workspaceId: id }).id,
  };
}

const query = (sql: string, key = analyst) => h.call("analytics.getRatelimits", { query: sql }, { key });

async function rows(sql: string, key = analyst): Promise<Record<string, unknown>[]> {
  const answer = await query(sql, key);
  expect(answer.status, answer.text).toBe(200);
  return v.parse(Rows, answer.json).data;
}

describe("200", () => {
  test("Test200_RawEventsWildcard", async () => {
    const ws = workspace();
    const namespaceId = ws.namespace();
    event(ws.id, namespaceId, "user");
    expect(
      await rows(`SELECT namespace_id, identifier FROM ratelimits_v1 WHERE namespace_id = '${namespaceId}'`, ws.key()),
    ).toEqual([{ namespace_id: namespaceId, identifier: "user" }]);
  });

  test("Test200_QualifiedNamespacePredicate", async () => {
    const ws = workspace();
    const namespaceId = ws.namespace();
    expect(
      (
        await query(
          `SELECT count(*) AS count FROM ratelimits_v1 AS r WHERE r.namespace_id = '${namespaceId}'`,
          ws.key(),
        )
      ).status,
    ).toBe(200);
  });

  test("Test200_WildcardCanReadWorkspaceWithoutNamespacePredicate", async () => {
    const ws = workspace();
    const namespaceId = ws.namespace();
    event(ws.id, namespaceId, "user");
    expect(await rows("SELECT namespace_id FROM ratelimits_v1", ws.key())).toEqual([{ namespace_id: namespaceId }]);
  });

  test("Test200_WildcardUnionReadsWorkspaceBranch", async () => {
    const ws = workspace();
    const [allowed, other] = [ws.namespace(), ws.namespace()];
    for (const id of [allowed, other]) event(ws.id, id, id);
    const data = await rows(
      `SELECT namespace_id FROM ratelimits_v1 WHERE namespace_id = '${allowed}' UNION ALL SELECT namespace_id FROM ratelimits_v1`,
      ws.key(),
    );
    expect(data).toContainEqual({ namespace_id: other });
  });

  test("Test200_ScopedPermissionCannotEscapeWithOr", async () => {
    const ws = workspace();
    const [allowed, other] = [ws.namespace(), ws.namespace()];
    const key = ws.key([`ratelimit.${allowed}.read_analytics`]);
    for (const id of [allowed, other]) event(ws.id, id, id);
    expect(await rows(`SELECT namespace_id FROM ratelimits_v1 WHERE namespace_id = '${allowed}' OR 1=1`, key)).toEqual([
      { namespace_id: allowed },
    ]);
  });

  test("Test200_ScopedPermissionInjectsNamespaceFilter", async () => {
    const ws = workspace();
    const [allowed, other] = [ws.namespace(), ws.namespace()];
    const key = ws.key([`ratelimit.${allowed}.read_analytics`]);
    for (const id of [allowed, other]) event(ws.id, id, id);
    expect(await rows("SELECT namespace_id FROM ratelimits_v1", key)).toEqual([{ namespace_id: allowed }]);
    for (const namespaceId of [other, newId("rlns")]) {
      expect(await rows(`SELECT namespace_id FROM ratelimits_v1 WHERE namespace_id = '${namespaceId}'`, key)).toEqual(
        [],
      );
    }
    expect(await rows(`SELECT namespace_id FROM ratelimits_v1 WHERE namespace_id != '${allowed}'`, key)).toEqual([]);
  });

  test("Test200_ExactPermissionsForMultipleNamespaces", async () => {
    const ws = workspace();
    const [first, second] = [ws.namespace(), ws.namespace()];
    const key = ws.key([`ratelimit.${first}.read_analytics`, `ratelimit.${second}.read_analytics`]);
    expect(
      (await query(`SELECT count(*) AS count FROM ratelimits_v1 WHERE namespace_id IN ('${first}','${second}')`, key))
        .status,
    ).toBe(200);
  });

  test("Test200_SoftDeletedNamespace", async () => {
    const ws = workspace();
    const id = ws.namespace();
    rl.deleteNamespace(id);
    expect((await query(`SELECT count(*) FROM ratelimits_v1 WHERE namespace_id = '${id}'`, ws.key())).status).toBe(200);
  });

  test("Test200_WildcardUnknownAndForeignNamespaces", async () => {
    const ws = workspace();
    const foreignWorkspace = workspace();
    const foreign = foreignWorkspace.namespace();
    event(foreignWorkspace.id, foreign, "foreign");
    expect(
      await rows(`SELECT namespace_id FROM ratelimits_v1 WHERE namespace_id = '${foreign}'`, foreignWorkspace.key()),
    ).toHaveLength(1);
    for (const namespaceId of [newId("rlns"), foreign]) {
      expect(await rows(`SELECT * FROM ratelimits_v1 WHERE namespace_id = '${namespaceId}'`, ws.key())).toEqual([]);
    }
  });
});

describe("200: this server's own checks", () => {
  test("a decision of ratelimit.limit is in the next query, raw and in every rollup", async () => {
    const ws = workspace();
    const key = h.rootKey(["ratelimit.*.limit", "ratelimit.*.create_namespace", "ratelimit.*.read_analytics"], ws.id);
    const limit = (identifier: string) =>
      h.call("ratelimit.limit", { namespace: "checkout", identifier, limit: 2, duration: 60_000 }, { key });
    for (let call = 0; call < 3; call += 1) expect((await limit("user_1")).status).toBe(200);
    expect(
      await rows("SELECT identifier, passed, limit, remaining, tokens FROM ratelimits_v1 ORDER BY time", key),
    ).toEqual([
      { identifier: "user_1", passed: true, limit: 2, remaining: 1, tokens: 1 },
      { identifier: "user_1", passed: true, limit: 2, remaining: 0, tokens: 1 },
      { identifier: "user_1", passed: false, limit: 2, remaining: 0, tokens: 1 },
    ]);
    for (const unit of ["minute", "hour", "day", "month"]) {
      expect(
        await rows(
          `SELECT sum(passed) AS passed, sum(total) AS total, sum(passed_tokens) AS passed_tokens FROM ratelimits_per_${unit}_v1`,
          key,
        ),
      ).toEqual([{ passed: 2, total: 3, passed_tokens: 2 }]);
    }
  });

  test("the verifications' tables are an invalid table here, and the decisions' there", async () => {
    const error = errorOf(await query("SELECT count(*) FROM key_verifications_v1"));
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_analytics_table");
    const other = errorOf(
      await h.call(
        "analytics.getVerifications",
        { query: "SELECT count(*) FROM ratelimits_v1" },
        { key: h.rootKey(["api.*.read_analytics"]) },
      ),
    );
    expect(other.type).toContain("invalid_analytics_table");
  });

  test("URN-form permissions read no analytics, not even the admin grant (the real handler reads none)", async () => {
    const ws = workspace();
    expect(errorOf(await query("SELECT 1 AS n", h.rootKey([h.urn("**", "*", ws.id)], ws.id))).status).toBe(403);
  });

  test("one quota for both analytics operations: the workspace's queries of either count against it", async () => {
    const ws = workspace();
    setAnalyticsQueriesPerHour(server.admin.db, ws.id, 2);
    const key = h.rootKey(["ratelimit.*.read_analytics", "api.*.read_analytics"], ws.id);
    expect((await query("SELECT count(*) FROM ratelimits_v1", key)).status).toBe(200);
    expect(
      (await h.call("analytics.getVerifications", { query: "SELECT count(*) FROM key_verifications_v1" }, { key }))
        .status,
    ).toBe(200);
    const refused = await query("SELECT count(*) FROM ratelimits_v1", key);
    expect(errorOf(refused)).toMatchObject({ status: 429 });
    expect(errorOf(refused).type).toContain("query_quota_exceeded");
  });
});

describe("400: this server's own checks of hostile bodies and queries", () => {
  const send = (body: string) =>
    callApi(server, { path: "/v2/analytics.getRatelimits", body, key: analyst }).then(errorOf);

  test.each([
    ["query of another type", '{"query": 1}'],
    ["no query", "{}"],
    ["an unknown field", '{"query": "SELECT 1", "namespace": "x"}'],
    ["an array", '[{"query": "SELECT 1"}]'],
    ["a prototype name", '{"query": "SELECT 1", "__proto__": {"admin": true}}'],
    ["not JSON", "SELECT 1"],
  ])("%s is the real 400 invalid_input", async (_, body) => {
    const error = await send(body);
    expect(error.status).toBe(400);
    expect(error.type).toContain("invalid_input");
  });

  test.each([
    ["the decisions' physical table", "SELECT * FROM store.ratelimits", "invalid_analytics_table"],
    ["its bare physical name", "SELECT * FROM ratelimits", "invalid_analytics_table"],
    ["a rollup's physical table", "SELECT * FROM memory.store.ratelimits_per_hour", "invalid_analytics_table"],
    ["the verifications' physical table", "SELECT * FROM store.verifications", "invalid_analytics_table"],
    ["ClickHouse's physical name", "SELECT * FROM default.ratelimits_per_day_v2", "invalid_analytics_table"],
    [
      "a CTE over the physical table",
      "WITH x AS (SELECT * FROM store.ratelimits) SELECT count(*) FROM x",
      "invalid_analytics_table",
    ],
    [
      "a parametric call over a refused function",
      "SELECT quantile(0.5)(getenv('HOME')) AS x",
      "invalid_analytics_function",
    ],
    ["a refused function called parametrically", "SELECT getenv('HOME')(1) AS x", "invalid_analytics_function"],
    ["a table function called parametrically", "SELECT * FROM read_csv('/etc/passwd')(1)", "invalid_analytics_table"],
    [
      "a -State combinator",
      "SELECT quantileTDigestState(0.95)(latency) FROM ratelimits_v1",
      "invalid_analytics_function",
    ],
    ["a write", "DELETE FROM ratelimits_v1", "invalid_analytics_query_type"],
    ["an over-long query", `SELECT ${"1 + ".repeat(16 << 10)}1`, "invalid_analytics_query"],
  ])("%s is refused with its code", async (_, sql, code) => {
    const error = errorOf(await query(sql));
    expect(error.status).toBe(400);
    expect(error.type).toContain(code);
  });

  test("a narrowed key reads nothing beyond its namespaces through the text rewrites either", async () => {
    const ws = workspace();
    const [allowed, other] = [ws.namespace(), ws.namespace()];
    for (const id of [allowed, other]) event(ws.id, id, id);
    const key = ws.key([`ratelimit.${allowed}.read_analytics`]);
    expect(
      await rows(
        `SELECT namespace_id, quantile(0.5)(latency) AS p50, max(limit) AS l FROM ratelimits_v1 WHERE namespace_id = '${other}' OR limit > 0 GROUP BY namespace_id`,
        key,
      ),
    ).toEqual([{ namespace_id: allowed, p50: 0.3, l: 10 }]);
  });
});

describe("400", () => {
  test("Test400_NoAuthHeaderFailsValidation (served differently: the seed's 401 where the real service answers 400)", async () => {
    const answer = await h.call(
      "analytics.getRatelimits",
      { query: "SELECT * FROM ratelimits_v1 WHERE namespace_id = 'rlns_missing'" },
      "none",
    );
    expect(errorOf(answer).status).toBe(401);
  });

  test("Test400_InvalidQueries", async () => {
    const id = rl.namespace().id;
    for (const sql of ["", "SELECT FROM", `SELECT * FROM default.ratelimits_raw_v2 WHERE namespace_id = '${id}'`]) {
      expect(errorOf(await query(sql)).status, sql).toBe(400);
    }
    expect(errorOf(await query(`SELECT * FROM default.ratelimits_raw_v2`)).type).toContain("invalid_analytics_table");
  });

  test("TestAuthorizeAllowsManyUniqueNamespaces", async () => {
    const ids = Array.from({ length: 11 }, () => rl.namespace().id);
    const quoted = ids.map((id) => `'${id}'`).join(",");
    expect((await query(`SELECT count(*) FROM ratelimits_v1 WHERE namespace_id IN (${quoted})`)).status).toBe(200);
  });
});

describe("401 and 403", () => {
  test("Test401_InvalidRootKey", async () => {
    const answer = await query("SELECT * FROM ratelimits_v1 WHERE namespace_id = 'rlns_missing'", "invalid_root_key");
    expect(errorOf(answer).status).toBe(401);
  });

  test("Test403_Permissions", async () => {
    const ws = workspace();
    const key = ws.key(["ratelimit.*.read_namespace"]);
    for (const sql of [
      "SELECT * FROM ratelimits_v1",
      "SELECT * FROM ratelimits_v1 WHERE namespace_id = 'rlns_unknown'",
    ]) {
      const error = errorOf(await query(sql, key));
      expect(error.status).toBe(403);
      expect(error.detail).toContain("ratelimit.*.read_analytics");
    }
  });

  test("Test403_NoPermissionsReturnsBeforeAnalyticsLookup", async () => {
    const ws = workspace();
    expect(errorOf(await query("SELECT * FROM ratelimits_v1", ws.key(["ratelimit.*.read_namespace"]))).status).toBe(
      403,
    );
  });
});

describe("429", () => {
  test("Test429_WorkspaceQueryQuota", async () => {
    const ws = workspace();
    setAnalyticsQueriesPerHour(server.admin.db, ws.id, 1);
    const id = ws.namespace();
    const key = ws.key();
    const sql = `SELECT count(*) FROM ratelimits_v1 WHERE namespace_id = '${id}'`;
    expect((await query(sql, key)).status).toBe(200);
    expect(errorOf(await query(sql, key)).status).toBe(429);
  });
});

describe("422 and 503: what the real tests inject, met as this server meets it", () => {
  test("Test422_ClickHouseResourceLimit (here the result is over the server's result-size limit, which the real handler answers alike)", async () => {
    const small = await startInProcessWithAnalytics({ analyticsLimits: { maxResultBytes: 512 } });
    try {
      const namespaceId = ratelimitHarness(small).namespace().id;
      seedRatelimitDecisions(small.admin.db, {
        workspaceId: small.admin.workspaceId,
        namespaceId,
        count: 100,
        identifiers: Array.from({ length: 50 }, (_, index) => `customer_${index}`),
        prefix: "big",
      });
      const answer = await realHarness(small).call(
        "analytics.getRatelimits",
        {
          query: `SELECT identifier, passed, count(*) FROM ratelimits_v1 WHERE namespace_id = '${namespaceId}' GROUP BY identifier, passed`,
        },
        { key: small.admin.createRootKey({ permissions: ["ratelimit.*.read_analytics"] }).secret },
      );
      expect(answer.status).toBe(422);
      expect(answer.text).toContain("query_memory_limit_exceeded");
    } finally {
      await small.closeAll();
    }
  });

  test("Test503_ClickHouseConnectionFailure (here the analytics store cannot copy the decisions: too little memory for any batch)", async () => {
    const starved = await startInProcessWithAnalytics({ analyticsLimits: { memoryLimitBytes: 4 * 1024 ** 2 } });
    try {
      const namespaceId = ratelimitHarness(starved).namespace().id;
      seedRatelimitDecisions(starved.admin.db, {
        workspaceId: starved.admin.workspaceId,
        namespaceId,
        count: 20_000,
        prefix: "starved",
      });
      const answer = await realHarness(starved).call(
        "analytics.getRatelimits",
        { query: `SELECT count(*) FROM ratelimits_v1 WHERE namespace_id = '${namespaceId}'` },
        { key: starved.admin.createRootKey({ permissions: ["ratelimit.*.read_analytics"] }).secret },
      );
      expect(answer.status).toBe(503);
      expect(errorOf(answer).type).toContain("service_unavailable");
    } finally {
      await starved.closeAll();
    }
  });
});
