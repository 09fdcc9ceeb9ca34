import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRootKey } from "../../../server/db/root-keys";
import { callApi } from "../http";
import { startInProcess, type InProcessServer } from "../in-process";
import { limitOf, ratelimitHarness } from "../real-routes/ratelimit-harness";

/**
 * Every rate-limit operation answers a hostile body (wrong types, huge arrays and strings, unknown fields, prototype
 * names) with the real service's 400 and its error shape, and changes nothing; a name that merely spells a prototype
 * property is a name like any other.
 */

let server: InProcessServer;
let key: string;
let namespace: { id: string; name: string };

const BadRequest = v.strictObject({
  meta: v.strictObject({ requestId: v.string() }),
  error: v.strictObject({
    detail: v.string(),
    status: v.literal(400),
    title: v.literal("Bad Request"),
    type: v.pipe(v.string(), v.endsWith("/errors/svc/application/invalid_input")),
    errors: v.pipe(
      v.array(v.strictObject({ location: v.string(), message: v.string(), fix: v.optional(v.string()) })),
      v.minLength(1),
    ),
  }),
});

beforeAll(() => {
  server = startInProcess();
  namespace = ratelimitHarness(server).namespace({ name: "hostile" });
  ratelimitHarness(server).override(namespace.id, "kept", 3, 60_000);
  key = createRootKey(server.admin.db, {
    workspaceId: server.admin.workspaceId,
    name: "rl",
    permissions: ["limit", "create_namespace", "set_override", "read_override", "delete_override"].map(
      (action) => `ratelimit.*.${action}`,
    ),
  }).secret;
});

afterAll(() => server.close());

function counts(): number[] {
  return ["ratelimit_namespaces", "ratelimit_overrides", "ratelimit_decisions"].map((table) =>
    Number(server.admin.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()),
  );
}

const send = (operation: string, body: string) => callApi(server, { path: `/v2/ratelimit.${operation}`, key, body });

const check = { namespace: "hostile", identifier: "u", limit: 10, duration: 60_000 };
const override = { namespace: "hostile", identifier: "u", limit: 10, duration: 60_000 };
const named = { namespace: "hostile", identifier: "u" };

/** Each operation with a valid body to spoil. */
const OPERATIONS: readonly [string, Record<string, unknown>][] = [
  ["limit", check],
  ["setOverride", override],
  ["getOverride", named],
  ["deleteOverride", named],
  ["listOverrides", { namespace: "hostile" }],
];

const SPOILERS: readonly [string, (body: Record<string, unknown>) => string][] = [
  ["a number for a text", (body) => JSON.stringify({ ...body, namespace: 42 })],
  ["an object for a text", (body) => JSON.stringify({ ...body, namespace: { $gt: "" } })],
  ["a text of 100,000 characters", (body) => JSON.stringify({ ...body, namespace: "n".repeat(100_000) })],
  ["an unknown field", (body) => JSON.stringify({ ...body, admin: true })],
  ["__proto__", (body) => `{"__proto__": {"limit": 1}, ${JSON.stringify(body).slice(1)}`],
  ["constructor", (body) => JSON.stringify({ ...body, constructor: { prototype: { polluted: true } } })],
  ["an array", () => "[1, 2, 3]"],
  ["null", () => "null"],
  ["a number", () => "12"],
];

describe.each(OPERATIONS)("ratelimit.%s", (operation, body) => {
  test.each(SPOILERS)("%s is the real 400 and changes nothing", async (_, spoil) => {
    const before = counts();
    const answer = await send(operation, spoil(body));
    expect(answer.status, answer.text).toBe(400);
    v.parse(BadRequest, answer.json);
    expect(counts()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("numbers", () => {
  test.each([
    ["limit", { ...check, limit: "10" }],
    ["limit", { ...check, limit: 0 }],
    ["limit", { ...check, limit: 1.5 }],
    ["limit", { ...check, duration: 999 }],
    ["limit", { ...check, duration: 2_592_000_001 }],
    ["limit", { ...check, cost: -1 }],
    ["limit", { ...check, cost: 1e300 }],
    ["setOverride", { ...override, limit: -1 }],
    ["setOverride", { ...override, duration: 10 }],
    ["listOverrides", { namespace: "hostile", limit: 101 }],
    ["listOverrides", { namespace: "hostile", cursor: 5 }],
  ])("ratelimit.%s with %j is the real 400 and changes nothing", async (operation, body) => {
    const before = counts();
    v.parse(BadRequest, (await send(operation, JSON.stringify(body))).json);
    expect(counts()).toEqual(before);
  });
});

describe("ratelimit.multiLimit", () => {
  test.each([
    ["an empty list", "[]"],
    ["101 checks", JSON.stringify(Array.from({ length: 101 }, () => check))],
    ["an object", JSON.stringify(check)],
    ["a check of the wrong type", JSON.stringify([check, "check"])],
    ["a check with an unknown field", JSON.stringify([check, { ...check, extra: 1 }])],
    ["a check with __proto__", `[${JSON.stringify(check)}, {"__proto__": {}, ${JSON.stringify(check).slice(1)}]`],
  ])("%s is the real 400 and changes nothing", async (_, body) => {
    const before = counts();
    const answer = await send("multiLimit", body);
    v.parse(BadRequest, answer.json);
    expect(counts()).toEqual(before);
  });

  test("a list of a million checks is refused as too large (413), before anything is read", async () => {
    const before = counts();
    const answer = await send("multiLimit", JSON.stringify(Array.from({ length: 1_000_000 }, () => 0)));
    expect(answer.status).toBe(413);
    expect(counts()).toEqual(before);
  });
});

describe("names that spell prototype properties are names", () => {
  test.each(["__proto__", "constructor", "prototype", "hasOwnProperty"])(
    "a namespace and an identifier called %s",
    async (name) => {
      const ask = { namespace: name, identifier: name, limit: 2, duration: 60_000 };
      expect(limitOf(await send("limit", JSON.stringify(ask)))).toMatchObject({ success: true, remaining: 1 });
      const set = await send("setOverride", JSON.stringify({ ...ask, limit: 1 }));
      expect(set.status).toBe(200);
      expect(limitOf(await send("limit", JSON.stringify(ask)))).toMatchObject({ success: false, limit: 1 });
      expect((await send("getOverride", JSON.stringify({ namespace: name, identifier: name }))).status).toBe(200);
    },
  );
});
