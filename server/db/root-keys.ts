import type { Database } from "better-sqlite3";
import { hashSecret, newRootKeySecret, secretStart } from "../keys/secrets";
import { newId } from "./ids";
import { parsePermissionList } from "./rbac";

/** Root keys: creating them (the secret is returned once), listing them, and revoking, disabling or enabling one. */

export interface RootKeySummary {
  id: string;
  name: string;
  start: string;
  permissions: string[];
  state: "enabled" | "disabled" | "revoked";
  ratelimit: { limit: number; windowMs: number } | null;
  createdAt: number;
}

export interface NewRootKey {
  workspaceId: string;
  name: string;
  permissions: readonly string[];
  ratelimit?: { limit: number; windowMs: number };
  createdAt?: number;
}

/** Creates a root key and returns its id and secret; the secret exists only in this return value. */
export function createRootKey(db: Database, rootKey: NewRootKey): { id: string; secret: string } {
  const id = newId("key");
  const secret = newRootKeySecret();
  db.prepare(
    `INSERT INTO root_keys (id, workspace_id, name, start, hash, permissions, ratelimit_limit, ratelimit_window_ms, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    rootKey.workspaceId,
    rootKey.name,
    secretStart(secret),
    hashSecret(secret),
    JSON.stringify(rootKey.permissions),
    rootKey.ratelimit?.limit ?? null,
    rootKey.ratelimit?.windowMs ?? null,
    rootKey.createdAt ?? Date.now(),
  );
  return { id, secret };
}

interface RootKeyRow {
  id: string;
  name: string;
  start: string;
  permissions: string;
  enabled: number;
  revoked_at: number | null;
  ratelimit_limit: number | null;
  ratelimit_window_ms: number | null;
  created_at: number;
}

export function listRootKeys(db: Database, workspaceId: string): RootKeySummary[] {
  const rows = db
    .prepare<[string], RootKeyRow>(
      `SELECT id, name, start, permissions, enabled, revoked_at, ratelimit_limit, ratelimit_window_ms, created_at
         FROM root_keys WHERE workspace_id = ? ORDER BY created_at, id`,
    )
    .all(workspaceId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    start: row.start,
    permissions: parsePermissionList(row.permissions),
    state: row.revoked_at !== null ? "revoked" : row.enabled === 1 ? "enabled" : "disabled",
    ratelimit:
      row.ratelimit_limit !== null && row.ratelimit_window_ms !== null
        ? { limit: row.ratelimit_limit, windowMs: row.ratelimit_window_ms }
        : null,
    createdAt: row.created_at,
  }));
}

export type RootKeyChange = "revoke" | "disable" | "enable";

/** Applies the change to a root key of the workspace; false when there is no such key (or, to enable or disable, it is revoked). */
export function changeRootKey(db: Database, workspaceId: string, rootKeyId: string, change: RootKeyChange): boolean {
  const result =
    change === "revoke"
      ? db
          .prepare("UPDATE root_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND workspace_id = ?")
          .run(Date.now(), rootKeyId, workspaceId)
      : // A revoked key stays revoked: enabling or disabling it is refused rather than silently meaningless.
        db
          .prepare("UPDATE root_keys SET enabled = ? WHERE id = ? AND workspace_id = ? AND revoked_at IS NULL")
          .run(change === "enable" ? 1 : 0, rootKeyId, workspaceId);
  return result.changes === 1;
}
