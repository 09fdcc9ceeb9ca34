/**
 * The API contract Keyscope speaks (docs/api.md), as data and types.
 * This is the only module that `src/` and `server/` share: it holds no behaviour
 * beyond pure conversions, and imports nothing.
 */

export const LIST_KEYS_PATH = "/v2/keys.listKeys";
/** The real service's list operation (docs/api.md#how-the-real-service-differs); it requires `apiId`. */
export const REAL_SERVICE_LIST_KEYS_PATH = "/v2/apis.listKeys";
/** The list operations to try, in order, for a request with or without an `apiId`. */
export function listKeysPaths(apiId: string | undefined): readonly string[] {
  return apiId === undefined ? [LIST_KEYS_PATH] : [REAL_SERVICE_LIST_KEYS_PATH, LIST_KEYS_PATH];
}

export const LIVENESS_PATH = "/v2/liveness";
export const GET_KEY_PATH = "/v2/keys.getKey";
export const WHOAMI_PATH = "/v2/keys.whoami";
export const GET_VERIFICATIONS_PATH = "/v2/analytics.getVerifications";
/** The most bytes of SQL (UTF-8) `analytics.getVerifications` takes in `query`, as the real service (a dashboard's are a few hundred). */
export const MAX_ANALYTICS_QUERY_LENGTH = 16 * 1024;

/** The key-changing operations (docs/api.md#operations), as the real service names them. */
export const CREATE_KEY_PATH = "/v2/keys.createKey";
export const UPDATE_KEY_PATH = "/v2/keys.updateKey";
export const UPDATE_CREDITS_PATH = "/v2/keys.updateCredits";
export const REROLL_KEY_PATH = "/v2/keys.rerollKey";
export const DELETE_KEY_PATH = "/v2/keys.deleteKey";
export const ADD_PERMISSIONS_PATH = "/v2/keys.addPermissions";
export const REMOVE_PERMISSIONS_PATH = "/v2/keys.removePermissions";
export const SET_PERMISSIONS_PATH = "/v2/keys.setPermissions";
export const ADD_ROLES_PATH = "/v2/keys.addRoles";
export const REMOVE_ROLES_PATH = "/v2/keys.removeRoles";
export const SET_ROLES_PATH = "/v2/keys.setRoles";
export const LIST_PERMISSIONS_PATH = "/v2/permissions.listPermissions";
export const LIST_ROLES_PATH = "/v2/permissions.listRoles";
/** The catalogue's and the identities' changes, and importing keys by their hashes (docs/api.md#operations). */
export const CREATE_PERMISSION_PATH = "/v2/permissions.createPermission";
export const GET_PERMISSION_PATH = "/v2/permissions.getPermission";
export const DELETE_PERMISSION_PATH = "/v2/permissions.deletePermission";
export const CREATE_ROLE_PATH = "/v2/permissions.createRole";
export const GET_ROLE_PATH = "/v2/permissions.getRole";
export const DELETE_ROLE_PATH = "/v2/permissions.deleteRole";
export const SET_ROLE_PERMISSIONS_PATH = "/v2/permissions.setRolePermissions";
export const CREATE_IDENTITY_PATH = "/v2/identities.createIdentity";
export const UPDATE_IDENTITY_PATH = "/v2/identities.updateIdentity";
export const DELETE_IDENTITY_PATH = "/v2/identities.deleteIdentity";
export const MIGRATE_KEYS_PATH = "/v2/keys.migrateKeys";
export const VERIFY_KEY_PATH = "/v2/keys.verifyKey";
export const CREATE_API_PATH = "/v2/apis.createApi";
export const GET_API_PATH = "/v2/apis.getApi";
export const DELETE_API_PATH = "/v2/apis.deleteApi";
export const LIST_IDENTITIES_PATH = "/v2/identities.listIdentities";
export const GET_IDENTITY_PATH = "/v2/identities.getIdentity";
/** The rate-limit operations (docs/api.md#rate-limits). */
export const RATELIMIT_LIMIT_PATH = "/v2/ratelimit.limit";
export const RATELIMIT_MULTI_LIMIT_PATH = "/v2/ratelimit.multiLimit";
export const SET_OVERRIDE_PATH = "/v2/ratelimit.setOverride";
export const GET_OVERRIDE_PATH = "/v2/ratelimit.getOverride";
export const LIST_OVERRIDES_PATH = "/v2/ratelimit.listOverrides";
export const DELETE_OVERRIDE_PATH = "/v2/ratelimit.deleteOverride";
export const GET_RATELIMITS_PATH = "/v2/analytics.getRatelimits";

export const LIST_KEYS_LIMIT_MAX = 100;
export const LIST_KEYS_LIMIT_DEFAULT = 100;
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The bounds of the fields keys.createKey and keys.updateKey take, as the real service's OpenAPI description states
 * them (its whole numbers are int64; a client reads JSON numbers exactly only up to 2^53 - 1, the reference server's
 * bound).
 */
export const KEY_FIELD_BOUNDS = {
  /** The latest expiry, Unix milliseconds: 2100-01-01 00:00 UTC. */
  expiresMax: 4_102_444_800_000,
  wholeNumberMax: Number.MAX_SAFE_INTEGER,
  nameMaxLength: 255,
  prefix: { maxLength: 16, pattern: /^[a-zA-Z0-9_]+$/ },
  externalId: { maxLength: 255, pattern: /^[a-zA-Z0-9_.-]+$/ },
  permission: { maxLength: 128, pattern: /^[a-zA-Z0-9_:\-.*]+$/ },
  roleMaxLength: 128,
  ratelimitName: { minLength: 3, maxLength: 128 },
  /** A rate limit's shortest window, milliseconds. */
  ratelimitDurationMin: 1000,
  refillDay: { min: 1, max: 31 },
} as const;

/** The `Authorization` header's value that carries a key. */
export function bearer(apiKey: string): string {
  return `Bearer ${apiKey}`;
}

/** The header as guides write it, the key left as a placeholder. */
export const AUTHORIZATION_HEADER_EXAMPLE = `Authorization: ${bearer("<API_KEY>")}`;

/** The root-key permissions that list and read the keys of every API, and that query analytics. */
export const READ_KEYS_PERMISSION = apiPermission("read_key");
export const READ_ANALYTICS_PERMISSION = apiPermission("read_analytics");
/** With READ_KEYS_PERMISSION, what the real service's `apis.listKeys` asks (the seed's `keys.listKeys` asks read_key alone). */
export const READ_APIS_PERMISSION = apiPermission("read_api");
/** The root-key permissions that change (enable, disable, edit) and delete the keys of every API. */
export const UPDATE_KEY_PERMISSION = apiPermission("update_key");
export const DELETE_KEY_PERMISSION = apiPermission("delete_key");

/**
 * Root-key permissions, as the real service names them (its pkg/rbac): `<resource>.<id or *>.<action>`, where `*`
 * grants the action on every resource of its kind and an id on that one alone (docs/api.md#root-key-permissions).
 */
export const API_ACTIONS = [
  "read_api",
  "create_api",
  "delete_api",
  "update_api",
  "create_key",
  "read_key",
  "update_key",
  "delete_key",
  "verify_key",
  "encrypt_key",
  "decrypt_key",
  "read_analytics",
] as const;
export type ApiAction = (typeof API_ACTIONS)[number];

export const RBAC_ACTIONS = [
  "create_permission",
  "read_permission",
  "update_permission",
  "delete_permission",
  "create_role",
  "read_role",
  "update_role",
  "delete_role",
  "add_permission_to_key",
  "remove_permission_from_key",
  "add_role_to_key",
  "remove_role_from_key",
  "add_permission_to_role",
  "remove_permission_from_role",
] as const;
export type RbacAction = (typeof RBAC_ACTIONS)[number];

export const IDENTITY_ACTIONS = ["create_identity", "read_identity", "update_identity", "delete_identity"] as const;
export type IdentityAction = (typeof IDENTITY_ACTIONS)[number];

export const RATELIMIT_ACTIONS = [
  "limit",
  "create_namespace",
  "read_namespace",
  "update_namespace",
  "delete_namespace",
  "set_override",
  "read_override",
  "delete_override",
  "list_overrides",
  "read_analytics",
] as const;
export type RatelimitAction = (typeof RATELIMIT_ACTIONS)[number];

/** `api.<apiId>.<action>`, or `api.*.<action>` for every API. */
export function apiPermission(action: ApiAction, apiId = "*"): string {
  return `api.${apiId}.${action}`;
}

/** `rbac.*.<action>`: the workspace's permissions and roles have no ids of their own in a permission. */
export function rbacPermission(action: RbacAction): string {
  return `rbac.*.${action}`;
}

/** `identity.<identityId>.<action>`, or `identity.*.<action>` for every identity. */
export function identityPermission(action: IdentityAction, identityId = "*"): string {
  return `identity.${identityId}.${action}`;
}

/** `ratelimit.<namespaceId>.<action>`, or `ratelimit.*.<action>` for every namespace. */
export function ratelimitPermission(action: RatelimitAction, namespaceId = "*"): string {
  return `ratelimit.${namespaceId}.${action}`;
}

/**
 * The grant rule for an API's keys: the permissions that each allow `action` there, every API's first
 * (`api.*.<action>`), then that API's own (`api.<apiId>.<action>`); without an id, every API's alone.
 */
export function apiGrants(action: ApiAction, apiId?: string): string[] {
  return apiId === undefined ? [apiPermission(action)] : [apiPermission(action), apiPermission(action, apiId)];
}

/**
 * The grant rule for a rate-limit namespace, in the real handlers' order: that namespace's own
 * (`ratelimit.<namespaceId>.<action>`), then every namespace's (`ratelimit.*.<action>`); without an id, every one's alone.
 */
export function ratelimitGrants(action: RatelimitAction, namespaceId?: string): string[] {
  return namespaceId === undefined
    ? [ratelimitPermission(action)]
    : [ratelimitPermission(action, namespaceId), ratelimitPermission(action)];
}

/**
 * An override's identifier as a pattern, as the real service matches them (its pkg/match): `*` stands for any run of
 * characters (a line break aside, as Go's regexp reads `.`), everything else for itself, the whole identifier matched.
 */
export function overridePattern(overrideIdentifier: string): RegExp {
  const parts = overrideIdentifier.split("*").map((part) => part.replace(/[.^$+?{}[\]()|\\/-]/g, "\\$&"));
  return new RegExp(`^${parts.join("[^\\n]*")}$`);
}

/** Whether an override set for `overrideIdentifier` (which may hold `*` wildcards) applies to `identifier`. */
export function overrideMatches(identifier: string, overrideIdentifier: string): boolean {
  return overrideIdentifier.includes("*")
    ? overridePattern(overrideIdentifier).test(identifier)
    : identifier === overrideIdentifier;
}

/**
 * Which override applies where several match: one set for exactly the identifier first; else the pattern with the most
 * characters besides `*` (the reference server; the real service takes whichever its database lists first, and the
 * reference server then the oldest, which the API does not tell).
 */
export function overrideSpecificity(overrideIdentifier: string): number {
  return overrideIdentifier.includes("*") ? overrideIdentifier.replaceAll("*", "").length : Number.POSITIVE_INFINITY;
}

/**
 * The same grants in the real service's URN form, `unkey:v1:<workspaceId>:<resource path>#<action>` (its pkg/urn):
 * an API is its key space here, `*` stands for any one segment, and a granted path ending in `**` covers all below.
 */
export const URN_PREFIX = "unkey:v1:";

/** The resource paths the operations check URN permissions on. */
export const URN_RESOURCES = {
  /** One key of an API. */
  key: (apiId: string, keyId: string) => ["keyspaces", apiId, "keys", keyId],
  /** Every key of an API (`*` for every API's). */
  anyKeyOf: (apiId: string) => ["keyspaces", apiId, "keys", "*"],
  /** An API's key space itself. */
  keySpace: (apiId: string) => ["keyspaces", apiId],
  /** Any permission of the workspace's catalogue. */
  anyPermission: () => ["rbac", "permissions", "*"],
  /** Any identity of any project. */
  anyIdentity: () => ["projects", "*", "identities", "*"],
  /** One override of a rate-limit namespace. */
  override: (namespaceId: string, overrideId: string) => [
    "ratelimits",
    "namespaces",
    namespaceId,
    "overrides",
    overrideId,
  ],
} as const satisfies Record<string, (...ids: string[]) => string[]>;

export function urnPermission(workspaceId: string, path: readonly string[], action: string): string {
  return `${URN_PREFIX}${workspaceId}:${path.join("/")}#${action}`;
}

/** A 403's detail for a root key that has none of `wanted`, worded as the real service's current one. */
export function missingPermissionsDetail(wanted: readonly string[]): string {
  return `Missing one of these permissions: ${wanted.join(" or ")}`;
}

/** A 403's detail where the real service asks one permission alone (not one of several), in its words. */
export function missingPermissionDetail(wanted: string): string {
  return `Missing permission: '${wanted}'`;
}

/**
 * The reference server's admin command that creates a root key and prints its secret. The permissions are
 * quoted: a shell would expand the `*` of `api.*.read_key` against the files of the current folder.
 */
export function createRootKeyCommand(
  options: { name?: string; permissions?: readonly string[]; ratelimit?: string } = {},
): string {
  const { name, permissions = [], ratelimit } = options;
  return [
    "npm run admin -- root-key create",
    ...(name === undefined ? [] : [`--name ${name}`]),
    ...(permissions.length === 0 ? [] : [`--permissions '${permissions.join(",")}'`]),
    ...(ratelimit === undefined ? [] : [`--ratelimit ${ratelimit}`]),
  ].join(" ");
}

/** Every error kind the reference server produces, by code (docs/api.md#errors-and-their-codes). */
export const ERROR_KINDS = {
  "err:svc:authentication:missing": {
    status: 401,
    title: "Unauthorized",
    detail: "Authentication credentials were not provided",
  },
  "err:svc:authentication:malformed": {
    status: 400,
    title: "Bad Request",
    detail: "You must provide a valid root key in the Authorization header in the format 'Bearer ROOT_KEY'.",
  },
  "err:svc:authentication:key_not_found": {
    status: 401,
    title: "Unauthorized",
    detail: "The provided root key is invalid. We could not find the requested key.",
  },
  "err:svc:authorization:insufficient_permissions": {
    status: 403,
    title: "Insufficient Permissions",
    detail: "The root key lacks the permission to read keys",
  },
  "err:svc:authorization:key_disabled": {
    status: 403,
    title: "Key is disabled",
    detail: "The root key is disabled",
  },
  "err:svc:application:invalid_input": {
    status: 400,
    title: "Bad Request",
    detail: "The request body is invalid",
  },
  "err:svc:data:api_not_found": {
    status: 404,
    title: "Not Found",
    detail: "The requested API does not exist or has been deleted.",
  },
  "err:svc:data:key_not_found": {
    status: 404,
    title: "Not Found",
    detail: "We could not find the requested key.",
  },
  "err:svc:data:role_not_found": {
    status: 404,
    title: "Not Found",
    detail: "The requested role does not exist",
  },
  "err:svc:data:permission_not_found": {
    status: 404,
    title: "Not Found",
    detail: "The requested permission does not exist",
  },
  "err:svc:data:identity_not_found": {
    status: 404,
    title: "Not Found",
    detail: "The requested identity does not exist",
  },
  "err:svc:data:ratelimit_namespace_not_found": {
    status: 404,
    title: "Not Found",
    detail: "This namespace does not exist.",
  },
  "err:svc:data:ratelimit_override_not_found": {
    status: 404,
    title: "Not Found",
    detail: "This override does not exist.",
  },
  "err:svc:data:ratelimit_namespace_gone": {
    status: 410,
    title: "Resource Gone",
    detail: "This namespace has been deleted. Contact support to restore.",
  },
  "err:user:bad_request:request_body_too_large": {
    status: 413,
    title: "Request Entity Too Large",
    detail: "The request body is larger than 1 MiB",
  },
  "err:user:too_many_requests:rate_limited": {
    status: 429,
    title: "Too Many Requests",
    detail: "The root key has used up its rate limit; retry after the time in the Retry-After header",
  },
  "err:user:bad_request:invalid_analytics_query": {
    status: 400,
    title: "Bad Request",
    detail: "The analytics query is not valid SQL",
  },
  "err:user:bad_request:invalid_analytics_query_type": {
    status: 400,
    title: "Bad Request",
    detail: "Only SELECT queries are allowed",
  },
  "err:user:bad_request:invalid_analytics_table": {
    status: 400,
    title: "Bad Request",
    detail: "The analytics query reads a table that is not one of the public analytics tables",
  },
  "err:user:bad_request:invalid_analytics_function": {
    status: 400,
    title: "Bad Request",
    detail: "The analytics query calls a function that is not supported",
  },
  "err:user:unprocessable_entity:query_execution_timeout": {
    status: 422,
    title: "Unprocessable Entity",
    detail: "The analytics query ran longer than its time limit",
  },
  "err:user:unprocessable_entity:query_memory_limit_exceeded": {
    status: 422,
    title: "Unprocessable Entity",
    detail: "The analytics query needs more memory than its limit",
  },
  "err:user:unprocessable_entity:query_rows_limit_exceeded": {
    status: 422,
    title: "Unprocessable Entity",
    detail: "The analytics query returns more rows than its limit",
  },
  "err:user:too_many_requests:query_quota_exceeded": {
    status: 429,
    title: "Too Many Requests",
    detail: "The workspace has used up its analytics queries for this hour",
  },
  "err:svc:application:precondition_failed": {
    status: 412,
    title: "Precondition Failed",
    detail: "The request needs something this key or workspace is not set up for",
  },
  "err:svc:application:protected_resource": {
    status: 412,
    title: "Resource is protected",
    detail: "The resource has delete protection enabled",
  },
  "err:user:bad_request:permissions_query_syntax_error": {
    status: 400,
    title: "Bad Request",
    detail: "The permission query is not valid",
  },
  "err:user:bad_request:query_range_exceeds_retention": {
    status: 400,
    title: "Bad Request",
    detail: "The analytics query reads further back than the data is kept",
  },
  "err:svc:data:identity_already_exists": {
    status: 409,
    title: "Conflicting Resource",
    detail: "The workspace already has an identity with this external id",
  },
  "err:svc:data:permission_already_exists": {
    status: 409,
    title: "Conflicting Resource",
    detail: "The workspace already has a permission with this slug",
  },
  "err:svc:data:role_already_exists": {
    status: 409,
    title: "Conflicting Resource",
    detail: "The workspace already has a role with this name",
  },
  "err:svc:data:migration_not_found": {
    status: 404,
    title: "Not Found",
    detail: "The requested Migration does not exist or has been deleted.",
  },
  "err:svc:application:unexpected_error": {
    status: 500,
    title: "Internal Server Error",
    detail: "An unexpected error occurred",
  },
  "err:svc:application:service_unavailable": {
    status: 503,
    title: "Service Unavailable",
    detail: "A service the API needs cannot answer for a moment; retry after the time in the Retry-After header",
  },
} as const satisfies Record<string, { status: number; title: string; detail: string }>;

export type ErrorCode = keyof typeof ERROR_KINDS;

/** An error code split into its parts: `err:<system>:<category>:<kind>`. */
export interface ErrorCodeParts {
  system: string;
  category: string;
  kind: string;
}

const SEGMENT = /^[a-z0-9_]+$/i;

export function parseErrorCode(code: string): ErrorCodeParts | null {
  const parts = code.split(":");
  if (parts.length !== 4 || parts[0] !== "err") return null;
  const [, system = "", category = "", kind = ""] = parts;
  if (![system, category, kind].every((segment) => SEGMENT.test(segment))) return null;
  return { system, category, kind };
}

/** `{docs_url}/errors/<system>/<category>/<kind>` for a code. */
export function errorTypeUrl(docsUrl: string, code: string): string {
  const parts = parseErrorCode(code);
  if (!parts) throw new Error(`not an error code: ${code}`);
  return `${docsUrl.replace(/\/+$/, "")}/errors/${parts.system}/${parts.category}/${parts.kind}`;
}

/**
 * The code an `error.type` address names, whatever its host and `<system>`:
 * `…/errors/<system>/<category>/<kind>` ⇒ `err:<system>:<category>:<kind>`.
 */
export function errorCodeFromType(type: string): string | null {
  const match = /\/errors\/([a-z0-9_]+)\/([a-z0-9_]+)\/([a-z0-9_]+)\/?(?:[?#].*)?$/i.exec(type);
  if (!match) return null;
  const [, system, category, kind] = match;
  return `err:${system}:${category}:${kind}`;
}

export interface ErrorDetailEntry {
  location: string;
  message: string;
  fix?: string;
}

export interface ErrorBody {
  detail: string;
  status: number;
  title: string;
  type: string;
  errors?: ErrorDetailEntry[];
}

/** A rate limit configured on a key or its identity; `duration` in milliseconds. */
export interface KeyRatelimit {
  id: string;
  name: string;
  limit: number;
  duration: number;
  autoApply: boolean;
}

export interface KeyCredits {
  /** null: unlimited. */
  remaining: number | null;
  refill?: { interval: "daily" | "monthly"; amount: number; refillDay?: number };
}

export interface KeyIdentity {
  id: string;
  externalId: string;
  meta?: Record<string, unknown>;
  ratelimits?: KeyRatelimit[];
}

/**
 * The Key object (docs/api.md#the-key-object). Only `keyId` is relied on: the seed's answers and hostile servers may
 * leave out the rest, so every other field is optional here. Times are Unix milliseconds. Never the secret.
 */
export interface Key {
  keyId: string;
  name?: string;
  start?: string;
  enabled?: boolean;
  createdAt?: number;
  updatedAt?: number;
  lastUsedAt?: number;
  expires?: number;
  meta?: Record<string, unknown>;
  permissions?: string[];
  roles?: string[];
  credits?: KeyCredits;
  identity?: KeyIdentity;
  ratelimits?: KeyRatelimit[];
}

export interface Pagination {
  cursor?: string;
  hasMore: boolean;
}

export interface ListKeysRequest {
  apiId?: string;
  limit?: number;
  cursor?: string;
  externalId?: string;
}
