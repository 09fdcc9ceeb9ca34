import * as v from "valibot";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startInProcess, type InProcessServer } from "../in-process";
import { call, createKey, dataOf } from "./support";

/** Every new operation answers bad input with the 400 envelope and its errors[], never a 5xx, whatever the body. */

const OPERATIONS = [
  "keys.createKey",
  "keys.updateKey",
  "keys.updateCredits",
  "keys.rerollKey",
  "keys.deleteKey",
  "keys.addPermissions",
  "keys.removePermissions",
  "keys.setPermissions",
  "keys.addRoles",
  "keys.removeRoles",
  "keys.setRoles",
  "apis.createApi",
  "apis.getApi",
  "apis.deleteApi",
  "permissions.listPermissions",
  "permissions.listRoles",
  "identities.listIdentities",
  "identities.getIdentity",
] as const;

const BadRequest = v.object({
  error: v.object({
    status: v.literal(400),
    errors: v.pipe(v.array(v.object({ location: v.string(), message: v.string() })), v.minLength(1)),
  }),
});

let server: InProcessServer;
let rootKey: string;
let keyId: string;
let apiId: string;

beforeAll(async () => {
  server = startInProcess();
  rootKey = server.admin.createRootKey({
    permissions: [
      "api.*.create_key",
      "api.*.read_key",
      "api.*.update_key",
      "api.*.delete_key",
      "api.*.create_api",
      "api.*.read_api",
      "api.*.delete_api",
      "rbac.*.add_permission_to_key",
      "rbac.*.remove_permission_from_key",
      "rbac.*.add_role_to_key",
      "rbac.*.create_permission",
      "rbac.*.read_permission",
      "rbac.*.read_role",
      "identity.*.read_identity",
    ],
  }).secret;
  apiId = server.admin.createApi("bad input");
  keyId = (await createKey(server, rootKey, { apiId })).keyId;
});

afterAll(() => server.close());

test("bodies that are not an object of the operation's fields", async () => {
  const bodies = ["not json", "[]", "null", '"text"', "42", '{"unknownField": 1}', "{".repeat(5000)];
  for (const operation of OPERATIONS) {
    for (const body of bodies) {
      const answer = await call(server, operation, rootKey, body);
      expect(answer.status, `${operation} ${body.slice(0, 20)}: ${answer.text}`).toBe(400);
      expect(v.safeParse(BadRequest, answer.json).success, `${operation} ${body.slice(0, 20)}: ${answer.text}`).toBe(
        true,
      );
    }
  }
});

test("fields of the wrong type, out of bounds, or too large for a number", async () => {
  const huge = 1e300;
  const cases: [string, Record<string, unknown>][] = [
    ["keys.createKey", { apiId, credits: { remaining: huge } }],
    ["keys.createKey", { apiId, expires: huge }],
    ["keys.createKey", { apiId, ratelimits: [{ name: "requests", limit: huge, duration: 1000, autoApply: true }] }],
    ["keys.createKey", { apiId, meta: "text" }],
    ["keys.createKey", { apiId, roles: [null] }],
    ["keys.createKey", { apiId, credits: { remaining: 1, refill: { interval: "monthly", amount: 1, refillDay: 32 } } }],
    ["keys.updateKey", { keyId, expires: "tomorrow" }],
    [
      "keys.updateKey",
      {
        keyId,
        ratelimits: [
          { name: "requests", limit: 1, duration: 1000, autoApply: true },
          { name: "requests", limit: 2, duration: 1000, autoApply: true },
        ],
      },
    ],
    [
      "keys.updateKey",
      { keyId, meta: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, index])) },
    ],
    ["keys.updateCredits", { keyId, operation: "set", value: huge }],
    ["keys.rerollKey", { keyId, expiration: huge }],
    ["keys.setPermissions", { keyId, permissions: ["x".repeat(129)] }],
    ["keys.setRoles", { keyId, roles: Array.from({ length: 101 }, (_, index) => `r${index}`) }],
    ["apis.createApi", { name: "x".repeat(257) }],
    ["permissions.listPermissions", { limit: 1.5 }],
    ["identities.listIdentities", { search: "x".repeat(257) }],
  ];
  for (const [operation, body] of cases) {
    const answer = await call(server, operation, rootKey, body);
    expect(answer.status, `${operation} ${JSON.stringify(body).slice(0, 80)}: ${answer.text}`).toBe(400);
    expect(v.safeParse(BadRequest, answer.json).success, answer.text).toBe(true);
  }
  expect(server.output()).not.toContain("Unexpected error");
});

test("a meta nested deeper than the server can write back is refused with 400, on create and on update", async () => {
  // Sent as text: a nesting this deep is valid JSON that JSON.parse reads but JSON.stringify overflows on.
  const deepMeta = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
  for (const [operation, body] of [
    ["keys.createKey", `{"apiId":"${apiId}","meta":${deepMeta}}`],
    ["keys.updateKey", `{"keyId":"${keyId}","meta":${deepMeta}}`],
  ] as const) {
    const answer = await call(server, operation, rootKey, body);
    expect(answer.status, `${operation}: ${answer.text}`).toBe(400);
    expect(v.safeParse(BadRequest, answer.json).success, answer.text).toBe(true);
    expect(answer.text).toContain("body.meta");
  }
  // A thousand levels, far past any real meta, are stored and read back as sent.
  const deepest = `${'{"a":'.repeat(1000)}1${"}".repeat(1000)}`;
  const updated = await call(server, "keys.updateKey", rootKey, `{"keyId":"${keyId}","meta":${deepest}}`);
  expect(updated.status, updated.text).toBe(200);
  const read = v.parse(v.object({ meta: v.unknown() }), dataOf(await call(server, "keys.getKey", rootKey, { keyId })));
  expect(JSON.stringify(read.meta)).toBe(deepest);
  expect(server.output()).not.toContain("Unexpected error");
});
