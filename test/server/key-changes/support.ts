import * as v from "valibot";
import { expect } from "vitest";
import { AnsweredKey, asError, callApi, type ApiAnswer } from "../http";
import type { InProcessServer } from "../in-process";

/** Calls of the key-changing operations against the app in this process, and what a test reads back. */

export const ALL_KEY_PERMISSIONS = [
  "api.*.create_key",
  "api.*.read_key",
  "api.*.read_api",
  "api.*.update_key",
  "api.*.delete_key",
  "api.*.verify_key",
] as const;

export async function call(
  server: InProcessServer,
  operation: string,
  key: string | undefined,
  body: unknown,
): Promise<ApiAnswer> {
  return callApi(server, { path: `/v2/${operation}`, ...(key !== undefined && { key }), body });
}

const DataOf = v.object({ data: v.unknown() });

/** The answer's `data`, after checking the status is 200. */
export function dataOf(answer: ApiAnswer): unknown {
  expect(answer.status, answer.text).toBe(200);
  return v.parse(DataOf, answer.json).data;
}

const Created = v.object({ keyId: v.string(), key: v.string() });

export async function createKey(
  server: InProcessServer,
  rootKey: string,
  body: Record<string, unknown>,
): Promise<{ keyId: string; key: string }> {
  return v.parse(Created, dataOf(await call(server, "keys.createKey", rootKey, body)));
}

export async function getKey(
  server: InProcessServer,
  rootKey: string,
  keyId: string,
): Promise<v.InferOutput<typeof AnsweredKey>> {
  return v.parse(AnsweredKey, dataOf(await call(server, "keys.getKey", rootKey, { keyId })));
}

const Verified = v.object({
  valid: v.boolean(),
  code: v.string(),
  credits: v.optional(v.number()),
  permissions: v.optional(v.array(v.string())),
});

export async function verify(
  server: InProcessServer,
  rootKey: string,
  key: string,
  extra: Record<string, unknown> = {},
) {
  return v.parse(Verified, dataOf(await call(server, "keys.verifyKey", rootKey, { key, ...extra })));
}

/** The error's status and code (`err:<system>:<category>:<kind>` read from its type) and detail. */
export function errorOf(answer: ApiAnswer): { status: number; code: string; detail: string; locations: string[] } {
  const { error } = asError(answer);
  const code = `err:${error.type.split("/errors/")[1]?.replaceAll("/", ":") ?? ""}`;
  return {
    status: answer.status,
    code,
    detail: error.detail,
    locations: (error.errors ?? []).map((entry) => entry.location),
  };
}

const KeyPage = v.object({
  data: v.array(v.object({ keyId: v.string() })),
  pagination: v.object({ hasMore: v.boolean(), cursor: v.optional(v.string()) }),
});

/** Every key id apis.listKeys gives for the API, page after page. */
export async function listedKeyIds(server: InProcessServer, rootKey: string, apiId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call(server, "apis.listKeys", rootKey, {
      apiId,
      limit: 100,
      ...(cursor !== undefined && { cursor }),
    });
    expect(answer.status, answer.text).toBe(200);
    const page = v.parse(KeyPage, answer.json);
    ids.push(...page.data.map((key) => key.keyId));
    cursor = page.pagination.hasMore ? page.pagination.cursor : undefined;
  } while (cursor !== undefined);
  return ids;
}
