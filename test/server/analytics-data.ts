import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { createWorkspace } from "../../server/db/workspaces";
import { openDatabase } from "../../server/db/open";

export const OUTCOMES = ["VALID", "RATE_LIMITED", "USAGE_EXCEEDED", "DISABLED"] as const;

export interface SeedOptions {
  workspaceId: string;
  count: number;
  /** The newest row's time; each row is a minute older than the one before. */
  now?: number;
  keys?: number;
  /** Prefix of the request ids, unique per call. */
  prefix: string;
  /** The rows' key space (an API id here); `ks_<workspaceId>` unless given. */
  keySpaceId?: string;
}

/** Writes verifications straight into SQLite, as keys.verifyKey would: one a minute, cycling keys and outcomes. */
export function seedVerifications(db: Database, options: SeedOptions): void {
  const { workspaceId, count, now = Date.now(), keys = 7, prefix, keySpaceId = `ks_${workspaceId}` } = options;
  const insert = db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const outcome = OUTCOMES[i % OUTCOMES.length] ?? "VALID";
      const tags = i % 2 === 0 ? ["path=/api/users", `region=${i % 3}`] : [];
      insert.run(
        `req_${prefix}${i}`,
        now - i * 60_000,
        workspaceId,
        keySpaceId,
        `key_${workspaceId}_${i % keys}`,
        i % 5 === 0 ? "user_1" : "",
        outcome,
        "local",
        JSON.stringify(tags),
        outcome === "VALID" ? 1 : 0,
      );
    }
  })();
}

/**
 * A fresh data directory's database with two workspaces, "Own" and "Other", each holding `count` seeded
 * verifications, the newest at `now`: their keys are named alike but for the workspace id, so only the workspace
 * filter keeps them apart.
 */
export function seedTwoWorkspaces(
  name: string,
  count: number,
  now = Date.now(),
): { db: Database; own: string; other: string } {
  const db = openDatabase(mkdtempSync(join(tmpdir(), `keyscope-${name}-`)));
  const own = createWorkspace(db, "Own");
  const other = createWorkspace(db, "Other");
  seedVerifications(db, { workspaceId: own, count, now, prefix: "own" });
  seedVerifications(db, { workspaceId: other, count, now, prefix: "other" });
  return { db, own, other };
}
