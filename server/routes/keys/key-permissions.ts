import { rbacPermission } from "../../../src/lib/contract";
import type { Database } from "better-sqlite3";
import * as v from "valibot";
import { createPermissionRule, requirePermission } from "../../auth/permissions";
import { requireLiveKey, setKeyPermissions, SPECIFIED_KEY_NOT_FOUND, type ChangedKey } from "../../db/keys";
import { ensurePermissions, findPermissions, permissionRows, type PermissionRow } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { changeRule, sameNames, type Change } from "./key-change";
import { FIELD_FIXES, keyIdField, permissionsField } from "./key-fields";

/**
 * keys.addPermissions, keys.removePermissions and keys.setPermissions: a key's own permissions. Each answers what
 * the key has directly afterwards; set replaces them, and the permissions of its roles stay as they are.
 */

function permissionsSpec(change: Change) {
  const schema = v.strictObject({ keyId: keyIdField, permissions: permissionsField(change === "set" ? 0 : 1, 1000) });
  const spec: BodySpec<typeof schema> = {
    schema,
    fixes: { keyId: FIELD_FIXES.keyId, permissions: 'Pass permission slugs (or ids) like ["documents.read"].' },
    example: '{"keyId": "key_…", "permissions": ["documents.read"]}',
  };
  return spec;
}

/** The permissions a change of permissions needs, beside update_key on the key's API (the real service's rules). */
const PERMISSION_CHANGE_NEEDS: Record<Change, string[]> = {
  add: [rbacPermission("add_permission_to_key")],
  remove: [rbacPermission("remove_permission_from_key")],
  set: [rbacPermission("add_permission_to_key"), rbacPermission("remove_permission_from_key")],
};

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
  requirePermission(rootKeyPermissions, createPermissionRule(workspaceId));
  return [...found, ...ensurePermissions(db, workspaceId, missing, Date.now())];
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
      throw new ApiRefusal("err:svc:data:permission_not_found", { detail: `Permission '${unknown}' was not found.` });
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

/** `POST /v2/keys.addPermissions`, `removePermissions` or `setPermissions`. */
function permissionsChange(deps: ApiDependencies, change: Change) {
  return operation(deps, { body: permissionsSpec(change) }, async (c) => {
    const { keyId, permissions } = c.req.valid("json");
    const rootKey = c.get("rootKey");
    const result = await deps.store.change((db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, SPECIFIED_KEY_NOT_FOUND);
      requirePermission(rootKey.permissions, changeRule(key, PERMISSION_CHANGE_NEEDS[change]));
      return changePermissions(db, key, change, permissions, rootKey.permissions);
    });
    return dataAnswer(c, result);
  });
}

export const addPermissions = (deps: ApiDependencies) => permissionsChange(deps, "add");
export const removePermissions = (deps: ApiDependencies) => permissionsChange(deps, "remove");
export const setPermissions = (deps: ApiDependencies) => permissionsChange(deps, "set");
