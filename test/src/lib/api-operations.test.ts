import { describe, expect, test, vi } from "vitest";
import { deleteOverride } from "@/lib/api/delete-override";
import { getRatelimits } from "@/lib/api/get-ratelimits";
import { listOverrides } from "@/lib/api/list-overrides";
import { setOverride } from "@/lib/api/set-override";
import { deleteIdentity } from "@/lib/api/delete-identity";
import { getKey } from "@/lib/api/get-key";
import { getVerifications } from "@/lib/api/get-verifications";
import { listIdentities } from "@/lib/api/list-identities";
import { listKeys } from "@/lib/api/list-keys";
import type { Connection } from "@/lib/api/transport";
import { ApiError, UnexpectedResponseError } from "@/lib/api-errors";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };

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

/** A Key object as the real service sends it (@unkey/api's KeyResponseData), every field set. */
const WHOLE_KEY = {
  keyId: "key_1",
  start: "sk_12",
  enabled: true,
  name: "Billing worker",
  meta: { team: "billing" },
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_100_000,
  lastUsedAt: 1_700_000_200_000,
  expires: 1_800_000_000_000,
  permissions: ["documents.read"],
  roles: ["reader"],
  credits: { remaining: 40, refill: { interval: "monthly", amount: 100, refillDay: 1 } },
  identity: {
    id: "id_1",
    externalId: "user_42",
    meta: { plan: "pro" },
    ratelimits: [{ id: "rl_2", name: "per-user", limit: 100, duration: 60_000, autoApply: true }],
  },
  ratelimits: [{ id: "rl_1", name: "requests", limit: 10, duration: 1_000, autoApply: false }],
};

test("keys.getKey sends {keyId} and parses the whole Key object", async () => {
  const { fetch, calls } = answering({ meta: { requestId: "req_1" }, data: WHOLE_KEY });
  const answer = await getKey(connection, "key_1", { fetch });
  expect(calls).toEqual([{ url: "https://api.example.com/v2/keys.getKey", body: { keyId: "key_1" } }]);
  expect(answer).toStrictEqual({ key: WHOLE_KEY, requestId: "req_1" });
});

test("a Key's null or malformed optional fields are left out, unlimited credits stay null, and nothing unknown is kept", async () => {
  const { fetch } = answering({
    meta: { requestId: "req_1" },
    data: {
      keyId: "key_1",
      start: "sk_12",
      enabled: true,
      createdAt: 1_700_000_000_000,
      name: null,
      lastUsedAt: null,
      expires: "never",
      permissions: ["a", 7, "b"],
      roles: null,
      credits: { remaining: null, refill: { interval: "yearly", amount: 1 } },
      identity: { id: "id_1" },
      ratelimits: [{ id: "rl_1", name: "x", limit: 1, duration: 1, autoApply: true }, { id: "bad" }],
      plaintext: "sk_the_secret_itself",
    },
  });
  const { key } = await getKey(connection, "key_1", { fetch });
  expect(key).toStrictEqual({
    keyId: "key_1",
    start: "sk_12",
    enabled: true,
    createdAt: 1_700_000_000_000,
    permissions: ["a", "b"],
    credits: { remaining: null },
    ratelimits: [{ id: "rl_1", name: "x", limit: 1, duration: 1, autoApply: true }],
  });
});

test("an unknown key id is the API's key_not_found error", async () => {
  const { fetch } = answering(
    {
      meta: { requestId: "req_2" },
      error: {
        status: 404,
        title: "Not Found",
        detail: "The key does not exist",
        type: "https://unkey.com/docs/errors/unkey/data/key_not_found",
      },
    },
    404,
  );
  const error = await getKey(connection, "key_nope", { fetch }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 404, code: "err:unkey:data:key_not_found", requestId: "req_2" });
});

test("analytics.getVerifications sends {query} and returns the rows of `data`", async () => {
  const rows = [
    { outcome: "VALID", n: 12 },
    { outcome: "RATE_LIMITED", n: 3 },
  ];
  const { fetch, calls } = answering({ meta: { requestId: "req_3" }, data: rows });
  const query = "SELECT outcome, SUM(count) AS n FROM key_verifications_per_day_v1 GROUP BY outcome";
  await expect(getVerifications(connection, query, { fetch })).resolves.toStrictEqual({ rows, requestId: "req_3" });
  expect(calls).toEqual([{ url: "https://api.example.com/v2/analytics.getVerifications", body: { query } }]);
});

test("rows that are not objects are not the envelope", async () => {
  const { fetch } = answering({ meta: { requestId: "req_4" }, data: [1, 2] });
  const error = await getVerifications(connection, "SELECT 1", { fetch }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UnexpectedResponseError);
  expect(error).toMatchObject({ reason: "not-envelope" });
});

test("listKeys reads the whole Key object from both list shapes", async () => {
  for (const data of [[WHOLE_KEY], { keys: [WHOLE_KEY] }]) {
    const { fetch } = answering({ meta: { requestId: "req_5" }, data, pagination: { hasMore: true, cursor: "c2" } });
    await expect(listKeys(connection, {}, { fetch })).resolves.toStrictEqual({
      keys: [WHOLE_KEY],
      cursor: "c2",
      hasMore: true,
      requestId: "req_5",
    });
  }
});

describe("the rate-limit operations", () => {
  test("ratelimit.listOverrides sends the namespace, cursor and limit given, and reads a page and its cursor", async () => {
    const override = { overrideId: "rlor_1", identifier: "team_*", limit: 0, duration: 60_000 };
    const { fetch, calls } = answering({
      meta: { requestId: "req_1" },
      data: [{ ...override, namespaceId: "ignored" }],
      pagination: { cursor: "rlor_2", hasMore: true },
    });
    const page = await listOverrides(
      connection,
      { namespace: "api.requests", cursor: "rlor_1", limit: 100 },
      { fetch },
    );
    expect(calls).toEqual([
      {
        url: "https://api.example.com/v2/ratelimit.listOverrides",
        body: { namespace: "api.requests", cursor: "rlor_1", limit: 100 },
      },
    ]);
    expect(page).toStrictEqual({ overrides: [override], cursor: "rlor_2", requestId: "req_1" });
  });

  test("an override whose limit is not a whole number of at least 0 is not an override", async () => {
    const { fetch } = answering({
      meta: { requestId: "req_1" },
      data: [{ overrideId: "rlor_1", identifier: "a", limit: -1, duration: 1000 }],
      pagination: { hasMore: false },
    });
    await expect(listOverrides(connection, { namespace: "n" }, { fetch })).rejects.toBeInstanceOf(
      UnexpectedResponseError,
    );
  });

  test("ratelimit.setOverride and deleteOverride send exactly their fields", async () => {
    const set = answering({ meta: { requestId: "req_1" }, data: { overrideId: "rlor_9" } });
    expect(
      await setOverride(
        connection,
        { namespace: "api.requests", identifier: "team_*", limit: 0, duration: 60_000 },
        { fetch: set.fetch },
      ),
    ).toStrictEqual({ overrideId: "rlor_9", requestId: "req_1" });
    expect(set.calls[0]?.body).toEqual({ namespace: "api.requests", identifier: "team_*", limit: 0, duration: 60_000 });
    const remove = answering({ meta: { requestId: "req_2" }, data: {} });
    await deleteOverride(connection, { namespace: "api.requests", identifier: "team_*" }, { fetch: remove.fetch });
    expect(remove.calls).toEqual([
      {
        url: "https://api.example.com/v2/ratelimit.deleteOverride",
        body: { namespace: "api.requests", identifier: "team_*" },
      },
    ]);
  });

  test("analytics.getRatelimits sends the query and answers its rows", async () => {
    const { fetch, calls } = answering({ meta: { requestId: "req_1" }, data: [{ namespace_id: "rlns_1" }] });
    expect(await getRatelimits(connection, "SELECT namespace_id FROM ratelimits_v1", { fetch })).toStrictEqual({
      rows: [{ namespace_id: "rlns_1" }],
      requestId: "req_1",
    });
    expect(calls[0]?.url).toBe("https://api.example.com/v2/analytics.getRatelimits");
  });
});

test("identities.deleteIdentity's answer is {meta} alone, on both services: it is a success, not an answer in the wrong shape", async () => {
  const { fetch, calls } = answering({ meta: { requestId: "req_Del1" } });
  await expect(deleteIdentity(connection, "id_1", { fetch })).resolves.toEqual({ requestId: "req_Del1" });
  expect(calls).toEqual([{ url: "https://api.example.com/v2/identities.deleteIdentity", body: { identity: "id_1" } }]);
});

test("identities.listIdentities sends the search and the cursor, and hands on the next page's cursor", async () => {
  const { fetch, calls } = answering({
    meta: { requestId: "req_List1" },
    data: [{ id: "id_1", externalId: "user_1", meta: {}, ratelimits: [] }],
    pagination: { cursor: "id_1", hasMore: true },
  });
  const page = await listIdentities(connection, { search: "user", cursor: "id_0", limit: 100 }, { fetch });
  expect(calls[0]?.body).toEqual({ limit: 100, cursor: "id_0", search: "user" });
  expect(page).toEqual({
    identities: [{ id: "id_1", externalId: "user_1", meta: {}, ratelimits: [] }],
    cursor: "id_1",
    requestId: "req_List1",
  });
});
