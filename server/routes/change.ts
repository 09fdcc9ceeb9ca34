import type { Context } from "hono";
import type { Database } from "better-sqlite3";
import { missingPermissionsDetail } from "../../src/lib/contract";
import type { ApiEnv } from "../http/api-env";
import type { KeyStore } from "../db/key-store";
import { ChangeRefused } from "../http/api-refusal";
import { findLiveKey, type ChangedKey } from "../db/keys";
import { errorResponse, okJson } from "../http/errors";
import { isAllowed, missingFor, type PermissionRule } from "../auth/permissions";

/** What the key-changing routes share: one transaction per change, the real service's not-found and 403 answers. */

export type ChangeResult<T> = { ok: true; value: T } | { ok: false; response: Response };

/** The 400 of a rule the schema cannot say (a field that needs another), in the real service's words. */
export class InvalidInputRefused extends ChangeRefused {
  constructor(
    readonly location: string,
    message: string,
  ) {
    super("err:svc:application:invalid_input", message);
  }
}

/**
 * Runs `work` as one change (KeyStore.change): everything or nothing is kept. A ChangeRefused thrown by it is
 * answered as its envelope; any other error is unexpected and goes on to the app's 500.
 */
export async function applyChange<T>(
  c: Context<ApiEnv>,
  store: KeyStore,
  work: (db: Database) => T,
): Promise<ChangeResult<T>> {
  try {
    return { ok: true, value: await store.change(work) };
  } catch (error) {
    return { ok: false, response: refusalResponse(c, error) };
  }
}

/** The envelope of a refusal; anything else is rethrown, to become the app's 500. */
function refusalResponse(c: Context<ApiEnv>, error: unknown): Response {
  if (error instanceof InvalidInputRefused) {
    return errorResponse(c, error.code, {
      detail: error.detail,
      errors: [{ location: error.location, message: error.detail }],
    });
  }
  if (error instanceof ChangeRefused) return errorResponse(c, error.code, { detail: error.detail });
  throw error;
}

/** Runs a read the same way: a ChangeRefused thrown by it is answered as its envelope. */
export function applyRead<T>(c: Context<ApiEnv>, store: KeyStore, work: (db: Database) => T): ChangeResult<T> {
  try {
    return { ok: true, value: store.read(work) };
  } catch (error) {
    return { ok: false, response: refusalResponse(c, error) };
  }
}

/** Throws the 404 of a key the workspace does not have (deleted or never made), in the route's own words. */
export function requireLiveKey(db: Database, workspaceId: string, keyId: string, notFoundDetail: string): ChangedKey {
  const key = findLiveKey(db, workspaceId, keyId);
  if (key === undefined) throw new ChangeRefused("err:svc:data:key_not_found", notFoundDetail);
  return key;
}

/** A 403 unless the root key's permissions allow `rule`; the detail names what would. */
export function requirePermissions(storedPermissions: string, rule: PermissionRule): void {
  if (!isAllowed(storedPermissions, rule)) {
    throw new ChangeRefused(
      "err:svc:authorization:insufficient_permissions",
      missingPermissionsDetail(missingFor(storedPermissions, rule)),
    );
  }
}

export function dataAnswer(c: Context<ApiEnv>, data: unknown): Response {
  return okJson(JSON.stringify({ meta: { requestId: c.get("requestId") }, data }));
}
