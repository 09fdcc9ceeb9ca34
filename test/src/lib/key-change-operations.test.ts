import { afterEach, expect, test, vi } from "vitest";
import { createKey } from "@/lib/api/create-key";
import { deleteKey } from "@/lib/api/delete-key";
import { changeKeyPermissions } from "@/lib/api/key-permissions";
import { changeKeyRoles } from "@/lib/api/key-roles";
import { listPermissions } from "@/lib/api/list-permissions";
import { listRoles } from "@/lib/api/list-roles";
import { rerollKey } from "@/lib/api/reroll-key";
import type { Connection } from "@/lib/api/transport";
import { updateCredits } from "@/lib/api/update-credits";
import { updateKey } from "@/lib/api/update-key";
import { ApiError, UnexpectedResponseError } from "@/lib/api-errors";
import { clearJournal, journalEntries } from "@/lib/request-journal";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };
const NEW_SECRET = "sk_NewSecretThatIsShownOnce123456";

afterEach(() => clearJournal());

function answering(body: unknown, status = 200) {
  const calls: { url: string; body: unknown }[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: input instanceof Request ? input.url : input.toString(),
      body: JSON.parse(typeof init?.body === "string" ? init.body : "null"),
    });
    return Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
    );
  });
  return { fetch, calls };
}

test("keys.createKey sends the fields as given and answers the key id and the secret, which the journal never holds", async () => {
  const { fetch, calls } = answering({ meta: { requestId: "req_1" }, data: { keyId: "key_9", key: NEW_SECRET } });
  const request = {
    apiId: "api_1",
    name: "worker",
    prefix: "sk",
    credits: { remaining: 10, refill: { interval: "daily" as const, amount: 10 } },
    enabled: true,
  };
  const answer = await createKey(connection, request, { fetch });
  expect(calls).toEqual([{ url: "https://api.example.com/v2/keys.createKey", body: request }]);
  expect(answer).toEqual({ keyId: "key_9", secret: NEW_SECRET, requestId: "req_1" });
  const journal = JSON.stringify(journalEntries());
  expect(journal).not.toContain(NEW_SECRET);
  expect(journal).toContain("key_9");
});

test("keys.rerollKey sends the grace period in milliseconds; its new secret is kept out of the journal too", async () => {
  const { fetch, calls } = answering({ meta: { requestId: "req_2" }, data: { keyId: "key_10", key: NEW_SECRET } });
  const answer = await rerollKey(connection, "key_9", 3_600_000, { fetch });
  expect(calls).toEqual([
    { url: "https://api.example.com/v2/keys.rerollKey", body: { keyId: "key_9", expiration: 3_600_000 } },
  ]);
  expect(answer).toEqual({ keyId: "key_10", secret: NEW_SECRET, requestId: "req_2" });
  expect(JSON.stringify(journalEntries())).not.toContain(NEW_SECRET);
});

test("an answer without the secret is not taken for a created key", async () => {
  const { fetch } = answering({ meta: { requestId: "req_1" }, data: { keyId: "key_9" } });
  await expect(createKey(connection, { apiId: "api_1" }, { fetch })).rejects.toBeInstanceOf(UnexpectedResponseError);
});

test("keys.updateKey sends keyId with the changes, null clearing a field", async () => {
  const { fetch, calls } = answering({ meta: { requestId: "req_3" }, data: {} });
  await expect(updateKey(connection, "key_1", { enabled: false, expires: null }, { fetch })).resolves.toEqual({
    requestId: "req_3",
  });
  expect(calls[0]).toEqual({
    url: "https://api.example.com/v2/keys.updateKey",
    body: { keyId: "key_1", enabled: false, expires: null },
  });
});

test("keys.updateCredits sends the operation and answers the credits now, unlimited as null", async () => {
  const { fetch, calls } = answering({
    meta: { requestId: "req_4" },
    data: { remaining: 15, refill: { interval: "monthly", amount: 100, refillDay: 1 } },
  });
  const answer = await updateCredits(connection, "key_1", { operation: "increment", value: 5 }, { fetch });
  expect(calls[0]?.body).toEqual({ keyId: "key_1", operation: "increment", value: 5 });
  expect(answer.credits).toEqual({ remaining: 15, refill: { interval: "monthly", amount: 100, refillDay: 1 } });

  const unlimited = answering({ meta: { requestId: "req_5" }, data: { remaining: null } });
  await expect(
    updateCredits(connection, "key_1", { operation: "set", value: null }, { fetch: unlimited.fetch }),
  ).resolves.toEqual({
    credits: { remaining: null },
    requestId: "req_5",
  });
});

test("keys.deleteKey sends permanent only when asked", async () => {
  const { fetch, calls } = answering({ meta: { requestId: "req_6" }, data: {} });
  await deleteKey(connection, "key_1", { fetch });
  await deleteKey(connection, "key_2", { fetch, permanent: true });
  expect(calls.map((call) => call.body)).toEqual([{ keyId: "key_1" }, { keyId: "key_2", permanent: true }]);
  expect(calls[0]?.url).toBe("https://api.example.com/v2/keys.deleteKey");
});

test("the permission and role changes go to their own operation and answer what the key has afterwards", async () => {
  const permissions = answering({
    meta: { requestId: "req_7" },
    data: [{ id: "perm_1", name: "documents.read", slug: "documents.read" }],
  });
  for (const change of ["add", "remove", "set"] as const) {
    await changeKeyPermissions(connection, "key_1", change, ["documents.read"], { fetch: permissions.fetch });
  }
  expect(permissions.calls.map((call) => call.url)).toEqual([
    "https://api.example.com/v2/keys.addPermissions",
    "https://api.example.com/v2/keys.removePermissions",
    "https://api.example.com/v2/keys.setPermissions",
  ]);
  expect(permissions.calls[0]?.body).toEqual({ keyId: "key_1", permissions: ["documents.read"] });

  const roles = answering({ meta: { requestId: "req_8" }, data: [{ id: "role_1", name: "reader" }] });
  const answer = await changeKeyRoles(connection, "key_1", "set", ["reader"], { fetch: roles.fetch });
  expect(roles.calls[0]).toEqual({
    url: "https://api.example.com/v2/keys.setRoles",
    body: { keyId: "key_1", roles: ["reader"] },
  });
  expect(answer.roles).toEqual([{ id: "role_1", name: "reader" }]);
});

test("the workspace's permissions and roles are listed a page at a time", async () => {
  const permissions = answering({
    meta: { requestId: "req_9" },
    data: [{ id: "perm_1", name: "documents.read", slug: "documents.read" }],
    pagination: { cursor: "perm_1", hasMore: true },
  });
  await expect(listPermissions(connection, {}, { fetch: permissions.fetch })).resolves.toEqual({
    permissions: [{ id: "perm_1", name: "documents.read", slug: "documents.read" }],
    cursor: "perm_1",
    requestId: "req_9",
  });
  const roles = answering({
    meta: { requestId: "req_10" },
    data: [{ id: "role_1", name: "reader", permissions: [{ id: "perm_1", name: "documents.read" }] }],
    pagination: { hasMore: false },
  });
  const answer = await listRoles(connection, { cursor: "role_0" }, { fetch: roles.fetch });
  expect(roles.calls[0]).toEqual({
    url: "https://api.example.com/v2/permissions.listRoles",
    body: { cursor: "role_0" },
  });
  expect(answer.cursor).toBeUndefined();
  expect(answer.roles[0]?.permissions).toEqual([{ id: "perm_1", name: "documents.read" }]);
});

test("a refusal is an ApiError with the service's words", async () => {
  const { fetch } = answering(
    {
      meta: { requestId: "req_11" },
      error: {
        status: 403,
        title: "Insufficient Permissions",
        detail: "Missing one of these permissions: api.*.update_key",
        type: "https://unkey.com/docs/errors/unkey/authorization/insufficient_permissions",
      },
    },
    403,
  );
  const error = await updateKey(connection, "key_1", { enabled: true }, { fetch }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error instanceof ApiError && error.detail).toBe("Missing one of these permissions: api.*.update_key");
});
