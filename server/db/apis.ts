import type { Database } from "better-sqlite3";
import type { KeySpaceDefaults } from "../keys/secrets";
import { newId } from "./ids";

/** APIs (each its own key space here): creating, changing, listing and deleting them, and their key-space defaults. */

export interface ApiSummary {
  id: string;
  name: string;
  keyCount: number;
  createdAt: number;
  defaultPrefix: string | null;
  defaultBytes: number | null;
  deleteProtection: boolean;
  /** Comma-separated, as stored. */
  ipWhitelist: string | null;
}

/**
 * An API's settings, as on the real service (set from its dashboard, not by apis.createApi): the prefix and byte
 * length keys.createKey uses when a request leaves them out, the protection apis.deleteApi refuses, and the
 * addresses verifications may come from. `null` clears one.
 */
export interface ApiSettings {
  defaultPrefix?: string | null;
  defaultBytes?: number | null;
  deleteProtection?: boolean;
  /** The addresses keys.verifyKey accepts calls from (all when null), as the real service's `ip_whitelist`. */
  ipWhitelist?: readonly string[] | null;
}

export function createApi(
  db: Database,
  workspaceId: string,
  name: string,
  createdAt = Date.now(),
  settings: ApiSettings = {},
): string {
  const id = newId("api");
  db.prepare("INSERT INTO apis (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)").run(
    id,
    workspaceId,
    name,
    createdAt,
  );
  updateApi(db, id, settings);
  return id;
}

/** Changes what `settings` gives of an API's key-space settings. */
export function updateApi(db: Database, apiId: string, settings: ApiSettings): void {
  const columns: Record<string, string | number | null> = {};
  if (settings.defaultPrefix !== undefined) columns.default_prefix = settings.defaultPrefix;
  if (settings.defaultBytes !== undefined) columns.default_bytes = settings.defaultBytes;
  if (settings.deleteProtection !== undefined) columns.delete_protection = settings.deleteProtection ? 1 : 0;
  if (settings.ipWhitelist !== undefined)
    columns.ip_whitelist = settings.ipWhitelist === null ? null : settings.ipWhitelist.join(",");
  const names = Object.keys(columns);
  if (names.length === 0) return;
  db.prepare(`UPDATE apis SET ${names.map((name) => `${name} = @${name}`).join(", ")} WHERE id = @id`).run({
    ...columns,
    id: apiId,
  });
}

/** The API's key-space defaults (none for an API this workspace does not have). */
export function keySpaceDefaults(db: Database, apiId: string): KeySpaceDefaults {
  return (
    db
      .prepare<[string], KeySpaceDefaults>(
        "SELECT default_prefix AS defaultPrefix, default_bytes AS defaultBytes FROM apis WHERE id = ?",
      )
      .get(apiId) ?? { defaultPrefix: null, defaultBytes: null }
  );
}

export function listApis(db: Database, workspaceId: string): ApiSummary[] {
  const rows = db
    .prepare<[string], Omit<ApiSummary, "deleteProtection"> & { deleteProtection: number }>(
      `SELECT a.id, a.name, a.created_at AS createdAt, a.default_prefix AS defaultPrefix, a.default_bytes AS defaultBytes,
              a.delete_protection AS deleteProtection, a.ip_whitelist AS ipWhitelist,
              (SELECT count(*) FROM keys k WHERE k.api_id = a.id AND k.deleted_at IS NULL) AS keyCount
         FROM apis a WHERE a.workspace_id = ? AND a.deleted_at IS NULL ORDER BY a.created_at, a.id`,
    )
    .all(workspaceId);
  return rows.map((row) => ({ ...row, deleteProtection: row.deleteProtection === 1 }));
}

/** The api with this id in the workspace, or the workspace's first api when no id is given. */
export function findApi(db: Database, workspaceId: string, apiId?: string): { id: string } | undefined {
  if (apiId !== undefined) {
    return db
      .prepare<[string, string], { id: string }>(
        "SELECT id FROM apis WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL",
      )
      .get(apiId, workspaceId);
  }
  return db
    .prepare<[string], { id: string }>(
      "SELECT id FROM apis WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY created_at, id LIMIT 1",
    )
    .get(workspaceId);
}

/** apis.deleteApi: the API and its keys are deleted (soft: kept, found by nothing). */
export function deleteApi(db: Database, apiId: string, now: number): void {
  db.prepare("UPDATE apis SET deleted_at = ? WHERE id = ?").run(now, apiId);
  db.prepare("UPDATE keys SET deleted_at = coalesce(deleted_at, ?) WHERE api_id = ?").run(now, apiId);
}
