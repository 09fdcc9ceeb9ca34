import { apiGrants } from "../../../src/lib/contract";
import { resources, type PermissionRule } from "../../auth/permissions";
import type { ChangedKey } from "../../db/keys";

/** What keys.{add,remove,set}Permissions and keys.{add,remove,set}Roles share. */

export type Change = "add" | "remove" | "set";

/**
 * update_key on the key's API with the change's rbac.* permissions, or the key's `update_key` URN alone (the real
 * service's rule: the URN form needs nothing else).
 */
export function changeRule(key: ChangedKey, needs: readonly string[]): PermissionRule {
  return {
    oneOfEach: [apiGrants("update_key", key.apiId), ...needs.map((permission) => [permission])],
    resource: [resources.key(key.workspaceId, key.apiId, key.id, "update_key")],
  };
}

/** Whether two lists name the same things, in any order: a change to the same set writes nothing. */
export function sameNames(next: readonly string[], current: readonly string[]): boolean {
  const wanted = new Set(next);
  return wanted.size === new Set(current).size && current.every((name) => wanted.has(name));
}
