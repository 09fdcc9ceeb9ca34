import type { Database } from "better-sqlite3";
import { newId } from "./ids";

/** Workspaces: finding and creating one, and its own analytics limits. */

/** Days of data a query may reach back unless its workspace says otherwise, as the real service's default retention. */
export const DEFAULT_RETENTION_DAYS = 30;

export interface WorkspaceRow {
  id: string;
  name: string;
}

export function findWorkspace(db: Database, workspaceId?: string): WorkspaceRow | undefined {
  if (workspaceId !== undefined) {
    return db.prepare<[string], WorkspaceRow>("SELECT id, name FROM workspaces WHERE id = ?").get(workspaceId);
  }
  return db.prepare<[], WorkspaceRow>("SELECT id, name FROM workspaces ORDER BY created_at, rowid LIMIT 1").get();
}

export function createWorkspace(db: Database, name: string, createdAt = Date.now()): string {
  const id = newId("ws");
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)").run(id, name, createdAt);
  return id;
}

/**
 * A workspace's own analytics limits, as the real service keeps them per workspace: how many days back a query may
 * reach (30 unless set), and how many queries it may run per hour (null: the server's `--analytics-quota`).
 */
export interface AnalyticsSettings {
  retentionDays: number;
  queriesPerHour: number | null;
}

export function analyticsSettings(db: Database, workspaceId: string): AnalyticsSettings {
  return (
    db
      .prepare<[string], AnalyticsSettings>(
        "SELECT analytics_retention_days AS retentionDays, analytics_queries_per_hour AS queriesPerHour FROM workspaces WHERE id = ?",
      )
      .get(workspaceId) ?? { retentionDays: DEFAULT_RETENTION_DAYS, queriesPerHour: null }
  );
}

export function setAnalyticsQueriesPerHour(db: Database, workspaceId: string, queries: number | null): void {
  db.prepare("UPDATE workspaces SET analytics_queries_per_hour = ? WHERE id = ?").run(queries, workspaceId);
}

export function setAnalyticsRetentionDays(db: Database, workspaceId: string, days: number): void {
  db.prepare("UPDATE workspaces SET analytics_retention_days = ? WHERE id = ?").run(days, workspaceId);
}
