import {
  apiGrants,
  apiPermission,
  missingPermissionDetail,
  missingPermissionsDetail,
  identityPermission,
  ratelimitGrants,
  rbacPermission,
  URN_PREFIX,
  URN_RESOURCES,
  urnPermission,
  type ApiAction,
  type IdentityAction,
  type RatelimitAction,
  type RbacAction,
} from "../../src/lib/contract";
import { ApiRefusal } from "../http/api-refusal";
import { parsePermissionList } from "../db/rbac";

export const VERIFY_ANY_API_KEYS = apiPermission("verify_key");

const PERMISSION = /^[a-z_]+\.(?:\*|[A-Za-z0-9_]+)\.[a-z_]+$/;

/** A root-key permission in either form: `<resource>.<id or *>.<action>`, or a resource permission URN. */
export function isPermission(value: string): boolean {
  return PERMISSION.test(value) || parseResourcePermission(value) !== undefined;
}

/**
 * A resource permission in the real service's URN form, `unkey:v1:<workspaceId>:<resource path>#<action>` (its
 * `pkg/urn` and `pkg/rbac/urn.go`). Here an API is its own key space: a key is `keyspaces/<apiId>/keys/<keyId>`.
 * A granted path may use `*` for one segment and end in `**` for everything below; `#*` (any action) only on `**`.
 */
export interface ResourcePermission {
  workspaceId: string;
  /** The path's segments; for a grant ending in `**`, without it. */
  segments: readonly string[];
  descendants: boolean;
  action: string;
}

export function parseResourcePermission(value: string): ResourcePermission | undefined {
  const [urn, action, extra] = value.split("#");
  if (urn === undefined || action === undefined || extra !== undefined || !urn.startsWith(URN_PREFIX)) return undefined;
  const rest = urn.slice(URN_PREFIX.length);
  const colon = rest.indexOf(":");
  if (colon <= 0) return undefined;
  const workspaceId = rest.slice(0, colon);
  const segments = rest.slice(colon + 1).split("/");
  if (/[#/]/.test(workspaceId)) return undefined;
  for (const [index, segment] of segments.entries()) {
    if (segment === "" || /[:#]/.test(segment)) return undefined;
    if (segment === "**" && index !== segments.length - 1) return undefined;
    if (segment.includes("*") && segment !== "*" && segment !== "**") return undefined;
  }
  const descendants = segments.at(-1) === "**";
  if (action === "*") {
    // The action wildcard belongs to the workspace-wide grant alone (the admin grant, `unkey:v1:<ws>:**#*`).
    if (segments.length !== 1 || !descendants) return undefined;
  } else if (action === "" || /[:#/*]/.test(action) || action.startsWith("_") || action.endsWith("_")) {
    return undefined;
  }
  return { workspaceId, segments: descendants ? segments.slice(0, -1) : segments, descendants, action };
}

/** Whether a granted URN permission covers a required one: the same workspace, its action or `*`, its path patterns. */
function covers(granted: ResourcePermission, required: ResourcePermission): boolean {
  if (granted.workspaceId !== required.workspaceId) return false;
  if (granted.action !== "*" && granted.action !== required.action) return false;
  const target = required.segments;
  if (granted.descendants ? target.length < granted.segments.length : target.length !== granted.segments.length)
    return false;
  return granted.segments.every((segment, index) => segment === "*" || segment === target[index]);
}

function resourcePermission(workspaceId: string, segments: readonly string[], action: string): ResourcePermission {
  return { workspaceId, segments, descendants: false, action };
}

export function resourcePermissionText(permission: ResourcePermission): string {
  const path = [...permission.segments, ...(permission.descendants ? ["**"] : [])];
  return urnPermission(permission.workspaceId, path, permission.action);
}

/** The URN permissions the real service's handlers check (src/lib/contract.ts names each resource's path). */
export const resources = {
  /** One key of an API: read_key, verify_key, update_key, delete_key, decrypt_key. */
  key: (workspaceId: string, apiId: string, keyId: string, action: string) =>
    resourcePermission(workspaceId, URN_RESOURCES.key(apiId, keyId), action),
  /** Every key of an API (`*` for every API): listing them, encrypt_key and decrypt_key for the API. */
  anyKeyOf: (workspaceId: string, apiId: string, action: string) =>
    resourcePermission(workspaceId, URN_RESOURCES.anyKeyOf(apiId), action),
  /** An API's key space: create_key, read_keyspace. */
  keySpace: (workspaceId: string, apiId: string, action: string) =>
    resourcePermission(workspaceId, URN_RESOURCES.keySpace(apiId), action),
  /** Creating permissions: `rbac/permissions/*#create_permission`. */
  anyPermission: (workspaceId: string, action: string) =>
    resourcePermission(workspaceId, URN_RESOURCES.anyPermission(), action),
  /** Any identity of any project: `projects/*\/identities/*#read_identity`. */
  anyIdentity: (workspaceId: string, action: string) =>
    resourcePermission(workspaceId, URN_RESOURCES.anyIdentity(), action),
  /** One override of a namespace: `ratelimits/namespaces/<namespaceId>/overrides/<overrideId>#read_override`. */
  override: (workspaceId: string, namespaceId: string, overrideId: string, action: string) =>
    resourcePermission(workspaceId, URN_RESOURCES.override(namespaceId, overrideId), action),
};

/**
 * What an operation asks of a root key, as the real service's permission queries: one legacy tuple (matched exactly)
 * of each group of `oneOfEach`; or, where the real service takes them, all of `resource` (URN-form, matched by the
 * granted URNs' wildcards).
 */
export interface PermissionRule {
  oneOfEach: readonly (readonly string[])[];
  resource?: readonly ResourcePermission[];
  /**
   * The real service asks each group's one tuple alone (its `rbac.T`, or an `rbac.And` of them), not as one of
   * several: its 403 then names the first one lacking, "Missing permission: '<it>'".
   */
  alone?: boolean;
}

interface Granted {
  exact: ReadonlySet<string>;
  /** The granted URN-form permissions, parsed; most root keys have none. */
  resources: readonly ResourcePermission[];
}

// Root keys carry few distinct permission lists: each stored JSON text is parsed once.
const parsedLists = new Map<string, Granted>();
const PARSED_LIST_LIMIT = 10_000;

function granted(stored: string): Granted {
  let set = parsedLists.get(stored);
  if (set === undefined) {
    if (parsedLists.size >= PARSED_LIST_LIMIT) parsedLists.clear();
    const list = parsePermissionList(stored);
    const resources = list.flatMap((permission) => parseResourcePermission(permission) ?? []);
    set = { exact: new Set(list), resources };
    parsedLists.set(stored, set);
  }
  return set;
}

function holdsLegacy(held: Granted, rule: PermissionRule): boolean {
  return rule.oneOfEach.every((group) => group.some((permission) => held.exact.has(permission)));
}

function holdsResources(held: Granted, rule: PermissionRule): boolean {
  return (
    rule.resource !== undefined &&
    held.resources.length > 0 &&
    rule.resource.every((required) => held.resources.some((grant) => covers(grant, required)))
  );
}

export function isAllowed(storedPermissions: string, rule: PermissionRule): boolean {
  const held = granted(storedPermissions);
  return holdsLegacy(held, rule) || holdsResources(held, rule);
}

/**
 * What would allow `rule` to a root key refused it, each entry enough alone, for the real service's 403 ("Missing one
 * of these permissions: …"): the first group's tuples when it holds none of them, else the groups it lacks; then the
 * URN-form ones.
 */
export function missingFor(storedPermissions: string, rule: PermissionRule): string[] {
  const held = granted(storedPermissions).exact;
  const lacking = rule.oneOfEach.filter((group) => !group.some((permission) => held.has(permission)));
  const legacy =
    lacking[0] === rule.oneOfEach[0]
      ? [...(lacking[0] ?? [])]
      : [lacking.map((group) => group.join(" or ")).join(" and ")];
  return rule.resource === undefined ? legacy : [...legacy, rule.resource.map(resourcePermissionText).join(" and ")];
}

/** `action` on an API (on every API when no id is given): `api.*.<action>` or `api.<apiId>.<action>`. */
export function apiRule(action: ApiAction, apiId?: string): PermissionRule {
  return { oneOfEach: [apiGrants(action, apiId)] };
}

/**
 * The ids a root key's `<resource>.<id>.read_analytics` permissions name ("all" for `<resource>.*.read_analytics`),
 * as the real service's analytics handlers read them: whether or not they exist; undefined when none (a 403). No URN
 * form: the real handlers read none.
 */
function analyticsIds(storedPermissions: string, resource: "api" | "ratelimit"): "all" | string[] | undefined {
  const held = granted(storedPermissions).exact;
  if (held.has(`${resource}.*.read_analytics`)) return "all";
  const ids = [...held].flatMap((permission) => {
    const [kind, id, action, ...rest] = permission.split(".");
    return kind === resource && action === "read_analytics" && id !== undefined && rest.length === 0 ? [id] : [];
  });
  return ids.length === 0 ? undefined : ids;
}

/** Which APIs' verifications a root key may query (`analytics.getVerifications`): `api.<apiId or *>.read_analytics`. */
export function analyticsApis(storedPermissions: string): "all" | string[] | undefined {
  return analyticsIds(storedPermissions, "api");
}

/**
 * Which namespaces' rate-limit decisions a root key may query (`analytics.getRatelimits`):
 * `ratelimit.<namespaceId or *>.read_analytics`.
 */
export function analyticsNamespaces(storedPermissions: string): "all" | string[] | undefined {
  return analyticsIds(storedPermissions, "ratelimit");
}

/** `action` on one key: `api.*.<action>`, `api.<apiId>.<action>`, or the key's URN (`keyspaces/<apiId>/keys/<keyId>#<action>`). */
export function keyRule(action: ApiAction, key: { workspaceId: string; apiId: string; keyId: string }): PermissionRule {
  return {
    oneOfEach: [apiGrants(action, key.apiId)],
    resource: [resources.key(key.workspaceId, key.apiId, key.keyId, action)],
  };
}

/** `action` on an API's key space (create_key): the legacy tuples, or `keyspaces/<apiId>#<action>`. */
export function keySpaceRule(action: ApiAction, workspaceId: string, apiId: string): PermissionRule {
  return { oneOfEach: [apiGrants(action, apiId)], resource: [resources.keySpace(workspaceId, apiId, action)] };
}

/** `action` on every key of an API (encrypt_key, decrypt_key): the legacy tuples, or `keyspaces/<apiId>/keys/*#<action>`. */
export function anyKeyRule(action: ApiAction, workspaceId: string, apiId: string): PermissionRule {
  return { oneOfEach: [apiGrants(action, apiId)], resource: [resources.anyKeyOf(workspaceId, apiId, action)] };
}

/** `action` on a rate-limit namespace (on every one when no id is given): `ratelimit.<id>.<action>` or `ratelimit.*.<action>`. */
export function ratelimitRule(action: RatelimitAction, namespaceId?: string): PermissionRule {
  return { oneOfEach: [ratelimitGrants(action, namespaceId)] };
}

/** `action` on one override (read_override): the namespace's legacy tuples, or the override's URN. */
export function overrideRule(
  action: RatelimitAction,
  override: { workspaceId: string; namespaceId: string; overrideId: string },
): PermissionRule {
  return {
    oneOfEach: [ratelimitGrants(action, override.namespaceId)],
    resource: [resources.override(override.workspaceId, override.namespaceId, override.overrideId, action)],
  };
}

/** `action` on every identity: `identity.*.<action>`, or `projects/*\/identities/*#<action>` (the real service's rule). */
export function anyIdentityRule(action: IdentityAction, workspaceId: string): PermissionRule {
  return { oneOfEach: [[identityPermission(action)]], resource: [resources.anyIdentity(workspaceId, action)] };
}

/** `rbac.*.<action>`, as one of the permissions that would allow it (the real service's `rbac.Or` of it alone). */
export function rbacRule(action: RbacAction): PermissionRule {
  return { oneOfEach: [[rbacPermission(action)]] };
}

/** Each `rbac.*.<action>` asked alone, all of them (the real service's `rbac.T`, or `rbac.And` of several). */
export function rbacTuples(...actions: readonly RbacAction[]): PermissionRule {
  return { oneOfEach: actions.map((action) => [rbacPermission(action)]), alone: true };
}

/** Creating a permission the workspace lacks, while naming it: `rbac.*.create_permission`, or `rbac/permissions/*#create_permission`. */
export function createPermissionRule(workspaceId: string): PermissionRule {
  return {
    oneOfEach: [[rbacPermission("create_permission")]],
    resource: [resources.anyPermission(workspaceId, "create_permission")],
  };
}

/** The 403's detail for a root key refused `rule`, in the real service's words for the shape of its query. */
function refusalDetail(storedPermissions: string, rule: PermissionRule): string {
  if (rule.alone === true) {
    const held = granted(storedPermissions).exact;
    const lacking = rule.oneOfEach.find((group) => !group.some((permission) => held.has(permission)));
    if (lacking?.length === 1 && lacking[0] !== undefined) return missingPermissionDetail(lacking[0]);
  }
  return missingPermissionsDetail(missingFor(storedPermissions, rule));
}

/** A 403 unless the root key's permissions allow `rule`; the detail names what would (the real service's words). */
export function requirePermission(storedPermissions: string, rule: PermissionRule): void {
  if (!isAllowed(storedPermissions, rule)) {
    throw new ApiRefusal("err:svc:authorization:insufficient_permissions", {
      detail: refusalDetail(storedPermissions, rule),
    });
  }
}
