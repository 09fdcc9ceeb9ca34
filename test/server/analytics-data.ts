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

export interface DecisionSeedOptions {
  workspaceId: string;
  namespaceId: string;
  count: number;
  /** The newest decision's time; each one is `stepMs` (a minute unless given) older than the one before. */
  now?: number;
  stepMs?: number;
  /** The identifiers, cycled through. */
  identifiers?: readonly string[];
  /** Prefix of the request ids, unique per call. */
  prefix: string;
}

/**
 * Writes rate-limit decisions straight into SQLite, as ratelimit.limit records them: identifiers cycled, every fourth
 * blocked, 1 to 3 tokens, every fifth under an override.
 */
export function seedRatelimitDecisions(db: Database, options: DecisionSeedOptions): void {
  const { workspaceId, namespaceId, count, now = Date.now(), stepMs = 60_000, prefix } = options;
  const identifiers = options.identifiers ?? ["user_1", "user_2", "user_3"];
  const insert = db.prepare(
    `INSERT INTO ratelimit_decisions (request_id, time, workspace_id, namespace_id, identifier, passed, latency,
       override_id, "limit", remaining, reset_at, tokens)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const time = now - i * stepMs;
      const passed = i % 4 !== 0;
      insert.run(
        `req_${prefix}${i}`,
        time,
        workspaceId,
        namespaceId,
        identifiers[i % identifiers.length] ?? "user_1",
        passed ? 1 : 0,
        0.25 + (i % 10) / 100,
        i % 5 === 0 ? "rlor_seeded" : "",
        10,
        passed ? 9 - (i % 9) : 0,
        time + 60_000,
        1 + (i % 3),
      );
    }
  })();
}
