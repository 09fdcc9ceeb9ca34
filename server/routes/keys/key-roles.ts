import { rbacPermission } from "../../../src/lib/contract";
import type { Database } from "better-sqlite3";
import * as v from "valibot";
import { requirePermission } from "../../auth/permissions";
import { requireLiveKey, setKeyRoles, SPECIFIED_KEY_NOT_FOUND, type ChangedKey } from "../../db/keys";
import { requireRoles, type RoleRow } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { changeRule, sameNames, type Change } from "./key-change";
import { FIELD_FIXES, keyIdField, rolesField } from "./key-fields";

/**
 * keys.addRoles, keys.removeRoles and keys.setRoles: a key's roles. Each answers the roles the key has afterwards,
 * with their permissions; set replaces them.
 */

function rolesSpec(change: Change) {
  const schema = v.strictObject({ keyId: keyIdField, roles: rolesField(change === "set" ? 0 : 1) });
  const spec: BodySpec<typeof schema> = {
    schema,
    fixes: { keyId: FIELD_FIXES.keyId, roles: 'Pass role names (or ids) of your workspace, like ["admin"].' },
    example: '{"keyId": "key_…", "roles": ["admin"]}',
  };
  return spec;
}

/** The real service lets addRoles need add_role_to_key, while removeRoles and setRoles need update_key alone. */
const ROLE_CHANGE_NEEDS: Record<Change, string[]> = { add: [rbacPermission("add_role_to_key")], remove: [], set: [] };

function changeRoles(db: Database, key: ChangedKey, change: Change, wanted: readonly string[]): RoleRow[] {
  const named = requireRoles(db, key.workspaceId, wanted).map((role) => role.name);
  const names =
    change === "add"
      ? [...key.roles, ...named]
      : change === "remove"
        ? key.roles.filter((name) => !named.includes(name))
        : named;
  if (!sameNames(names, key.roles)) setKeyRoles(db, key.id, names, Date.now());
  return requireRoles(db, key.workspaceId, [...new Set(names)]);
}

function roleJson(role: RoleRow): object {
  return role.permissions.length === 0 ? { id: role.id, name: role.name } : role;
}

/** `POST /v2/keys.addRoles`, `removeRoles` or `setRoles`. */
function rolesChange(deps: ApiDependencies, change: Change) {
  return operation(deps, { body: rolesSpec(change) }, async (c) => {
    const { keyId, roles } = c.req.valid("json");
    const rootKey = c.get("rootKey");
    const result = await deps.store.change((db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, SPECIFIED_KEY_NOT_FOUND);
      requirePermission(rootKey.permissions, changeRule(key, ROLE_CHANGE_NEEDS[change]));
      return changeRoles(db, key, change, roles);
    });
    return dataAnswer(c, result.map(roleJson));
  });
}

export const addRoles = (deps: ApiDependencies) => rolesChange(deps, "add");
export const removeRoles = (deps: ApiDependencies) => rolesChange(deps, "remove");
export const setRoles = (deps: ApiDependencies) => rolesChange(deps, "set");
