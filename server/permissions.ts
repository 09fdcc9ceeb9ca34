import { parsePermissionList } from "./db/management";

/** Reading the keys of every API of the workspace. */
export const READ_ANY_API_KEYS = "api.*.read_key";

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

/** Listing all keys needs `api.*.read_key`; listing one API's keys, that or `api.<apiId>.read_key`. */
export function mayListKeys(storedPermissions: string, apiId: string | undefined): boolean {
  const granted = permissionSet(storedPermissions);
  if (granted.has(READ_ANY_API_KEYS)) return true;
  return apiId !== undefined && granted.has(readApiKeysPermission(apiId));
}

/** Querying the workspace's verifications (`analytics.getVerifications`). */
export const READ_ANALYTICS = "api.*.read_analytics";

export function mayReadAnalytics(storedPermissions: string): boolean {
  return permissionSet(storedPermissions).has(READ_ANALYTICS);
}
