import { hash } from "node:crypto";
import * as v from "valibot";
import { createApi, type ApiSettings } from "../../../server/db/apis";
import { createRootKey } from "../../../server/db/root-keys";
import { createWorkspace } from "../../../server/db/workspaces";
import { keyInserter, type NewKey } from "../../../server/db/keys";
import { newId, secretBase58 } from "../../../server/db/ids";
import { newApiKeySecret } from "../../../server/keys/secrets";
import { callApi, type ApiAnswer } from "../http";
import type { InProcessServer } from "../in-process";

/**
 * What the real service's route tests set up (its `testutil` harness and `seed` package: workspaces, APIs, root keys
 * with chosen permissions, keys with every setting), done through the admin's connection of an in-process server.
 */
export interface RealHarness {
  workspaceId: string;
  /** A root key of the workspace (or of `workspaceId`) holding exactly these permissions. */
  rootKey(permissions: readonly string[], workspaceId?: string): string;
  /** An API of the workspace (or of `workspaceId`), with key-space settings as the real seed's CreateApiRequest sets them. */
  api(workspaceId?: string, settings?: ApiSettings): string;
  /** A permission in URN form on a resource of the workspace (or of `workspaceId`): `unkey:v1:<ws>:<resource>#<action>`. */
  urn(resource: string, action: string, workspaceId?: string): string;
  workspace(): string;
  key(apiId: string, settings?: Partial<NewKey>): { keyId: string; secret: string };
  /** A named rate limit on an identity of the workspace (made when missing); returns the identity's id. */
  identityRateLimit(
    externalId: string,
    limit: { name: string; limit: number; durationMs: number; autoApply?: boolean },
  ): string;
  /** `POST /v2/<operation>` with a root key (a string), an Authorization header as given, or none. */
  call(
    operation: string,
    body: unknown,
    auth: { key: string } | { authorization: string } | "none",
  ): Promise<ApiAnswer>;
}

export function realHarness(server: InProcessServer): RealHarness {
  const db = server.admin.db;
  const workspaceId = server.admin.workspaceId;
  const insertKey = keyInserter(db);
  return {
    workspaceId,
    rootKey: (permissions, workspace = workspaceId) =>
      createRootKey(db, { workspaceId: workspace, name: "real test", permissions }).secret,
    api: (workspace = workspaceId, settings = {}) =>
      createApi(db, workspace, `api ${newId("req")}`, Date.now(), settings),
    urn: (resource, action, workspace = workspaceId) => `unkey:v1:${workspace}:${resource}#${action}`,
    workspace: () => createWorkspace(db, `workspace ${newId("req")}`),
    key(apiId, settings = {}) {
      const secret = newApiKeySecret("test");
      const workspace =
        db.prepare<[string], string>("SELECT workspace_id FROM apis WHERE id = ?").pluck().get(apiId) ?? workspaceId;
      const keyId = insertKey({
        workspaceId: workspace,
        apiId,
        name: "test key",
        secret,
        enabled: true,
        createdAt: Date.now(),
        ...settings,
      });
      return { keyId, secret };
    },
    identityRateLimit(externalId, { name, limit, durationMs, autoApply = false }) {
      db.prepare(
        "INSERT INTO identities (id, workspace_id, external_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
      ).run(newId("id"), workspaceId, externalId, Date.now());
      const identityId = db
        .prepare<[string, string], string>("SELECT id FROM identities WHERE workspace_id = ? AND external_id = ?")
        .pluck()
        .get(workspaceId, externalId);
      if (identityId === undefined) throw new Error("the identity was not made");
      db.prepare(
        `INSERT INTO identity_ratelimits (id, identity_id, name, "limit", duration_ms, auto_apply) VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(newId("rl"), identityId, name, limit, durationMs, autoApply ? 1 : 0);
      return identityId;
    },
    call(operation, body, auth) {
      return callApi(server, {
        path: `/v2/${operation}`,
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...(auth !== "none" && ("key" in auth ? { key: auth.key } : { authorization: auth.authorization })),
      });
    },
  };
}

/**
 * The Authorization headers every key route's 401 tests send (their TestXUnauthorized), with the status this server
 * answers: a malformed header is 400, an unknown root key 401. A missing header is the seed's 401, tested apart.
 */
export const AUTHORIZATION_CASES: readonly (readonly [name: string, authorization: string, status: number])[] = [
  ["empty authorization header", "", 400],
  ["malformed authorization header - no Bearer prefix", "invalid_token", 400],
  ["malformed authorization header - Bearer only", "Bearer ", 400],
  ["nonexistent root key", "Bearer ks_root_nonexistent", 401],
];

const ErrorEnvelope = v.object({ error: v.object({ status: v.number(), type: v.string(), detail: v.string() }) });
const DataEnvelope = v.object({ data: v.unknown() });

/** The error envelope's fields the real tests read. */
export function errorOf(answer: ApiAnswer): { status: number; type: string; detail: string } {
  return v.parse(ErrorEnvelope, answer.json).error;
}

/** The `data` of a success envelope. */
export function dataOf(answer: ApiAnswer): unknown {
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}: ${answer.text}`);
  return v.parse(DataEnvelope, answer.json).data;
}

/**
 * A key as the real tests' prefixedapikey.GenerateAPIKey makes it (Seam's prefixed-api-key, which a key migration of
 * that algorithm reads): `<prefix>_<shortToken>_<longToken>`, and the hex SHA-256 of the long token its system stored.
 */
export function prefixedApiKey(prefix: string): { token: string; longTokenHash: string } {
  const shortToken = secretBase58(8);
  const longToken = secretBase58(24);
  return { token: `${prefix}_${shortToken}_${longToken}`, longTokenHash: hash("sha256", longToken, "hex") };
}
