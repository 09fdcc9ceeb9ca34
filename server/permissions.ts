import { READ_ANALYTICS_PERMISSION } from "../src/lib/contract";
import { parsePermissionList } from "./db/management";

/** What a root key may do with the keys of an API: `api.*.<action>` for every API, `api.<apiId>.<action>` for one. */
export type ApiAction =
  | "read_key"
  | "verify_key"
  | "read_analytics"
  | "decrypt_key"
  | "encrypt_key"
  | "create_key"
  | "update_key"
  | "delete_key"
  | "read_api"
  | "create_api"
  | "delete_api";

export const VERIFY_ANY_API_KEYS = "api.*.verify_key";

export function readApiKeysPermission(apiId: string): string {
  return `api.${apiId}.read_key`;
}

const PERMISSION = /^[a-z_]+\.(?:\*|[A-Za-z0-9_]+)\.[a-z_]+$/;

export function isPermission(value: string): boolean {
  return PERMISSION.test(value);
}

// Root keys carry few distinct permission lists: each stored JSON text is parsed once.
const parsedLists = new Map<string, ReadonlySet<string>>();
const PARSED_LIST_LIMIT = 10_000;

function permissionSet(stored: string): ReadonlySet<string> {
  let set = parsedLists.get(stored);
  if (set === undefined) {
    if (parsedLists.size >= PARSED_LIST_LIMIT) parsedLists.clear();
    set = new Set(parsePermissionList(stored));
    parsedLists.set(stored, set);
  }
  return set;
}

/** The permissions that each allow `action` on `apiId`'s keys (on every API's when no id is given), wildcard first. */
export function permissionsFor(action: ApiAction, apiId?: string): string[] {
  return apiId === undefined ? [`api.*.${action}`] : [`api.*.${action}`, `api.${apiId}.${action}`];
}

export function hasAnyPermission(storedPermissions: string, wanted: readonly string[]): boolean {
  const granted = permissionSet(storedPermissions);
  return wanted.some((permission) => granted.has(permission));
}

/** Whether the root key may do `action` on the keys of at least one API. */
export function hasActionOnSomeApi(storedPermissions: string, action: ApiAction): boolean {
  const suffix = `.${action}`;
  for (const permission of permissionSet(storedPermissions)) {
    if (permission.startsWith("api.") && permission.endsWith(suffix)) return true;
  }
  return false;
}

/** Listing all keys needs `api.*.read_key`; listing one API's keys, that or `api.<apiId>.read_key`. */
export function mayListKeys(storedPermissions: string, apiId: string | undefined): boolean {
  return hasAnyPermission(storedPermissions, permissionsFor("read_key", apiId));
}

/** Querying the workspace's verifications (`analytics.getVerifications`). */
export function mayReadAnalytics(storedPermissions: string): boolean {
  return permissionSet(storedPermissions).has(READ_ANALYTICS_PERMISSION);
}
