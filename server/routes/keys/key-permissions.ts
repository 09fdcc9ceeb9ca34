import type { Context } from "hono";
import type { Database } from "better-sqlite3";
import * as v from "valibot";
import type { ApiEnv } from "../../http/api-env";
import { authenticateRootKey, type AuthDependencies } from "../../auth/root-key";
import { ChangeRefused } from "../../http/api-refusal";
import {
  ensurePermissions,
  findPermissions,
  permissionRows,
  requireRoles,
  type PermissionRow,
  type RoleRow,
} from "../../db/rbac";
import { setKeyPermissions, setKeyRoles, type ChangedKey } from "../../db/keys";
import { permissionsFor, resources, type PermissionRule } from "../../auth/permissions";
import { applyChange, dataAnswer, requireLiveKey, requirePermissions } from "../change";
import { readValidBody, type BodySpec } from "../../http/json-body";
import { FIELD_FIXES, keyIdField, permissionsField, rolesField } from "./key-fields";

/**
 * keys.{add,remove,set}Permissions and keys.{add,remove,set}Roles: a key's own permissions and its roles. Each
 * answers what the key has directly afterwards; set replaces, and the permissions of its roles stay as they are.
 */

const KEY_NOT_FOUND = "The specified key was not found.";
const ADD_PERMISSION_TO_KEY = "rbac.*.add_permission_to_key";
const REMOVE_PERMISSION_FROM_KEY = "rbac.*.remove_permission_from_key";
const ADD_ROLE_TO_KEY = "rbac.*.add_role_to_key";
const CREATE_PERMISSION = "rbac.*.create_permission";

type Change = "add" | "remove" | "set";

function permissionsSpec(change: Change) {
  const schema = v.strictObject({ keyId: keyIdField, permissions: permissionsField(change === "set" ? 0 : 1, 1000) });
  const spec: BodySpec<typeof schema> = {
    schema,
    fixes: { keyId: FIELD_FIXES.keyId, permissions: 'Pass permission slugs (or ids) like ["documents.read"].' },
    example: '{"keyId": "key_…", "permissions": ["documents.read"]}',
  };
  return spec;
}

function rolesSpec(change: Change) {
  const schema = v.strictObject({ keyId: keyIdField, roles: rolesField(change === "set" ? 0 : 1) });
  const spec: BodySpec<typeof schema> = {
    schema,
    fixes: { keyId: FIELD_FIXES.keyId, roles: 'Pass role names (or ids) of your workspace, like ["admin"].' },
    example: '{"keyId": "key_…", "roles": ["admin"]}',
  };
  return spec;
}

/** The permissions a change of permissions needs, beside update_key on the key's API (the real service's rules). */
const PERMISSION_CHANGE_NEEDS: Record<Change, string[]> = {
  add: [ADD_PERMISSION_TO_KEY],
  remove: [REMOVE_PERMISSION_FROM_KEY],
  set: [ADD_PERMISSION_TO_KEY, REMOVE_PERMISSION_FROM_KEY],
};

/** The real service lets addRoles need add_role_to_key, while removeRoles and setRoles need update_key alone. */
const ROLE_CHANGE_NEEDS: Record<Change, string[]> = { add: [ADD_ROLE_TO_KEY], remove: [], set: [] };

/** Finds the named permissions, creating the missing ones when the root key may create permissions (else a 403). */
function permissionsToGrant(
  db: Database,
  workspaceId: string,
  rootKeyPermissions: string,
  wanted: readonly string[],
): PermissionRow[] {
  const found = findPermissions(db, workspaceId, wanted);
  const missing = wanted.filter((name) => !found.some((row) => row.slug === name || row.id === name));
  if (missing.length === 0) return found;
  requirePermissions(rootKeyPermissions, {
    oneOfEach: [[CREATE_PERMISSION]],
    resource: [resources.anyPermission(workspaceId, "create_permission")],
  });
  return [...found, ...ensurePermissions(db, workspaceId, missing, Date.now())];
}

/**
 * update_key on the key's API with the change's rbac.* permissions, or the key's `update_key` URN alone (the real
 * service's rule: the URN form needs nothing else).
 */
function changeRule(key: ChangedKey, needs: readonly string[]): PermissionRule {
  return {
    oneOfEach: [permissionsFor("update_key", key.apiId), ...needs.map((permission) => [permission])],
    resource: [resources.key(key.workspaceId, key.apiId, key.id, "update_key")],
  };
}

function sameNames(next: readonly string[], current: readonly string[]): boolean {
  const wanted = new Set(next);
  return wanted.size === new Set(current).size && current.every((name) => wanted.has(name));
}

function changePermissions(
  db: Database,
  key: ChangedKey,
  change: Change,
  wanted: readonly string[],
  rootKeyPermissions: string,
): PermissionRow[] {
  let slugs: string[];
  if (change === "remove") {
    const found = findPermissions(db, key.workspaceId, wanted);
    const unknown = wanted.find((name) => !found.some((row) => row.slug === name || row.id === name));
    if (unknown !== undefined)
      throw new ChangeRefused("err:svc:data:permission_not_found", `Permission '${unknown}' was not found.`);
    const removed = new Set(found.map((row) => row.slug));
    slugs = key.permissions.filter((slug) => !removed.has(slug));
  } else {
    const granted = permissionsToGrant(db, key.workspaceId, rootKeyPermissions, wanted).map((row) => row.slug);
    slugs = change === "add" ? [...key.permissions, ...granted] : granted;
  }
  // As the real service, which only inserts and deletes the key's links: a change to nothing writes nothing.
  if (!sameNames(slugs, key.permissions)) setKeyPermissions(db, key.id, slugs, Date.now());
  return permissionRows(db, key.workspaceId, [...new Set(slugs)]);
}

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

/** `POST /v2/keys.addPermissions`, `removePermissions` or `setPermissions`. */
export function keyPermissionsHandler(deps: AuthDependencies, change: Change) {
  const spec = permissionsSpec(change);
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, spec);
    if (!body.ok) return body.response;
    const { keyId, permissions } = body.value;

    const result = await applyChange(c, deps.store, (db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, KEY_NOT_FOUND);
      requirePermissions(rootKey.permissions, changeRule(key, PERMISSION_CHANGE_NEEDS[change]));
      return changePermissions(db, key, change, permissions, rootKey.permissions);
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, result.value);
  };
}

/** `POST /v2/keys.addRoles`, `removeRoles` or `setRoles`. */
export function keyRolesHandler(deps: AuthDependencies, change: Change) {
  const spec = rolesSpec(change);
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, spec);
    if (!body.ok) return body.response;
    const { keyId, roles } = body.value;

    const result = await applyChange(c, deps.store, (db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, KEY_NOT_FOUND);
      requirePermissions(rootKey.permissions, changeRule(key, ROLE_CHANGE_NEEDS[change]));
      return changeRoles(db, key, change, roles);
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, result.value.map(roleJson));
  };
}
