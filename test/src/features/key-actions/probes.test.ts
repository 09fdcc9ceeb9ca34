import { afterEach, expect, test, vi } from "vitest";
import { probeAddRole, probeRemovePermission } from "@/features/key-actions/api/probes";
import { forgetRefusals, learnKeysApi, refusalOf } from "@/features/key-actions/refusals";
import type { Connection } from "@/lib/api/transport";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };

afterEach(() => forgetRefusals());

function answerWith(status: number, error: { detail: string; type: string }) {
  const sent: Record<string, unknown>[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>);
      const body = {
        meta: { requestId: "req_1" },
        error: { status, title: "Refused", ...error, type: `https://unkey.com/docs/errors/unkey/${error.type}` },
      };
      return Promise.resolve(
        new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
      );
    }),
  );
  return sent;
}

test("removePermissions of a name no workspace has: its 404 after the check means allowed, and nothing named was real", async () => {
  const sent = answerWith(404, { detail: "Permission 'x' was not found.", type: "data/permission_not_found" });
  expect(await probeRemovePermission(connection, { keyId: "key_1" })).toBe("allowed");
  expect(sent[0]).toMatchObject({
    keyId: "key_1",
    permissions: [expect.stringMatching(/^keyscope\.probe\.[a-z0-9]+$/) as unknown],
  });
  // Asked again: the answer is remembered, nothing is sent.
  expect(await probeRemovePermission(connection, { keyId: "key_1" })).toBe("allowed");
  expect(sent).toHaveLength(1);
});

test("addRoles of a role no workspace has: a 403 is the refusal, remembered for the key's API (here, as its list showed it)", async () => {
  answerWith(403, {
    detail: "Missing one of these permissions: rbac.*.add_role_to_key",
    type: "authorization/insufficient_permissions",
  });
  learnKeysApi({ ...connection, apiId: "api_1" }, ["key_1"], "api_1");
  expect(await probeAddRole({ ...connection, apiId: "api_1" }, { keyId: "key_1" })).toBe("refused");
  expect(refusalOf({ ...connection, apiId: "api_1" }, "add_role_to_key", { keyId: "key_1" })).toMatchObject({
    apiId: "api_1",
  });
  // Another API's key is not held back by it.
  expect(refusalOf({ ...connection, apiId: "api_2" }, "add_role_to_key", { keyId: "key_2" })).toBeUndefined();
});
