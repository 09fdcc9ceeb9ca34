import * as v from "valibot";
import { createNamespace, setOverride } from "../../../server/db/ratelimits";
import { newId } from "../../../server/db/ids";
import type { InProcessServer } from "../in-process";
import type { ApiAnswer } from "../http";
import { dataOf } from "./real-harness";

/**
 * What the real service's rate-limit route tests set up in their database (`InsertRatelimitNamespace`,
 * `InsertRatelimitOverride`, `SoftDeleteRatelimitNamespace`), done through the admin's connection.
 */
export interface RatelimitHarness {
  /** A namespace of the workspace (or of `workspaceId`), named `name` or a fresh name. */
  namespace(options?: { name?: string; workspaceId?: string }): { id: string; name: string };
  override(namespaceId: string, identifier: string, limit: number, durationMs: number): string;
  deleteNamespace(namespaceId: string): void;
  /** Whether the workspace has a namespace of this name (deleted or not). */
  hasNamespace(name: string, workspaceId?: string): boolean;
  /** The override row as stored (deleted_at included), by id. */
  storedOverride(overrideId: string): {
    identifier: string;
    limit: number;
    duration_ms: number;
    deleted_at: number | null;
  };
  /** The decisions recorded for a namespace, oldest first. */
  decisions(namespaceId: string): { request_id: string; identifier: string; passed: number; tokens: number }[];
}

export function ratelimitHarness(server: InProcessServer): RatelimitHarness {
  const db = server.admin.db;
  const workspaceId = server.admin.workspaceId;
  return {
    namespace({ name = newId("req"), workspaceId: workspace = workspaceId } = {}) {
      const { id } = createNamespace(db, workspace, name);
      return { id, name };
    },
    override(namespaceId, identifier, limit, durationMs) {
      return setOverride(db, { workspaceId, namespaceId, identifier, limit, durationMs });
    },
    deleteNamespace(namespaceId) {
      db.prepare("UPDATE ratelimit_namespaces SET deleted_at = ? WHERE id = ?").run(Date.now(), namespaceId);
    },
    hasNamespace(name, workspace = workspaceId) {
      return (
        db
          .prepare<[string, string], number>("SELECT 1 FROM ratelimit_namespaces WHERE workspace_id = ? AND name = ?")
          .pluck()
          .get(workspace, name) === 1
      );
    },
    storedOverride(overrideId) {
      const row = db
        .prepare<[string], { identifier: string; limit: number; duration_ms: number; deleted_at: number | null }>(
          `SELECT identifier, "limit", duration_ms, deleted_at FROM ratelimit_overrides WHERE id = ?`,
        )
        .get(overrideId);
      if (row === undefined) throw new Error(`no override ${overrideId}`);
      return row;
    },
    decisions(namespaceId) {
      return db
        .prepare<[string], { request_id: string; identifier: string; passed: number; tokens: number }>(
          "SELECT request_id, identifier, passed, tokens FROM ratelimit_decisions WHERE namespace_id = ? ORDER BY seq",
        )
        .all(namespaceId);
    },
  };
}

const LimitData = v.object({
  success: v.boolean(),
  limit: v.number(),
  remaining: v.number(),
  reset: v.number(),
  overrideId: v.optional(v.string()),
});
export type LimitData = v.InferOutput<typeof LimitData>;

/** ratelimit.limit's `data`. */
export function limitOf(answer: ApiAnswer): LimitData {
  return v.parse(LimitData, dataOf(answer));
}

const MultiLimitData = v.object({
  passed: v.boolean(),
  limits: v.array(
    v.object({
      namespace: v.string(),
      identifier: v.string(),
      passed: v.boolean(),
      limit: v.number(),
      remaining: v.number(),
      reset: v.number(),
      overrideId: v.optional(v.string()),
    }),
  ),
});
export type MultiLimitData = v.InferOutput<typeof MultiLimitData>;

/** ratelimit.multiLimit's `data`. */
export function multiLimitOf(answer: ApiAnswer): MultiLimitData {
  return v.parse(MultiLimitData, dataOf(answer));
}

export const Override = v.object({
  overrideId: v.string(),
  identifier: v.string(),
  limit: v.number(),
  duration: v.number(),
});
