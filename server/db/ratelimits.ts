import type { Database, Statement } from "better-sqlite3";
import { newId } from "./ids";

/**
 * Rate-limit namespaces, their overrides and their decisions: finding a namespace by name or id, creating and deleting
 * one, setting, finding, listing and deleting overrides, recording decisions, and the counters of what each window
 * spent. The request path's statements are prepared once per connection.
 */

export interface NamespaceRow {
  id: string;
  workspaceId: string;
  name: string;
  createdAt: number;
  /** Set when deleted: limiting in it is 410, the other operations find nothing. */
  deletedAt: number | null;
}

export interface OverrideRow {
  id: string;
  namespaceId: string;
  /** The identifier, or a pattern in which `*` stands for any run of characters. */
  identifier: string;
  limit: number;
  durationMs: number;
  createdAt: number;
}

/** One limit decision, as ratelimit.limit records it (the analytics table ratelimits_v1's row). */
export interface DecisionRecord {
  requestId: string;
  time: number;
  workspaceId: string;
  namespaceId: string;
  identifier: string;
  passed: boolean;
  latency: number;
  overrideId: string;
  limit: number;
  remaining: number;
  resetAt: number;
  tokens: number;
}

/** An identifier's counter in a namespace for windows of `durationMs`. */
export interface CounterId {
  namespaceId: string;
  identifier: string;
  durationMs: number;
}

interface RawNamespace {
  id: string;
  workspace_id: string;
  name: string;
  created_at: number;
  deleted_at: number | null;
}

interface RawOverride {
  id: string;
  namespace_id: string;
  identifier: string;
  limit: number;
  duration_ms: number;
  created_at: number;
}

const OVERRIDE_COLUMNS = `id, namespace_id, identifier, "limit", duration_ms, created_at`;
const LIVE_WILDCARDS = "namespace_id = ? AND deleted_at IS NULL AND instr(identifier, '*') > 0";

interface Statements {
  namespace: Statement<[string, string, string, string], RawNamespace>;
  override: Statement<[string, string], RawOverride>;
  wildcards: Statement<[string], RawOverride>;
  insertNamespace: Statement<[string, string, string, number]>;
  insertDecision: Statement<
    [string, number, string, string, string, number, number, string, number, number, number, number]
  >;
  spend: Statement<[string, string, number, number, number, number]>;
  spent: Statement<
    [{ namespaceId: string; identifier: string; durationMs: number; sequence: number }],
    { current: number; previous: number }
  >;
  expired: Statement<[number, number]>;
}

const prepared = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let found = prepared.get(db);
  if (found === undefined) {
    found = {
      // By id or by name; an id that is also another namespace's name is the namespace with that id.
      namespace: db.prepare(
        `SELECT id, workspace_id, name, created_at, deleted_at FROM ratelimit_namespaces
          WHERE workspace_id = ? AND (id = ? OR name = ?) ORDER BY id = ? DESC LIMIT 1`,
      ),
      override: db.prepare(
        `SELECT ${OVERRIDE_COLUMNS} FROM ratelimit_overrides WHERE namespace_id = ? AND identifier = ? AND deleted_at IS NULL`,
      ),
      wildcards: db.prepare(`SELECT ${OVERRIDE_COLUMNS} FROM ratelimit_overrides WHERE ${LIVE_WILDCARDS}`),
      insertNamespace: db.prepare(
        "INSERT INTO ratelimit_namespaces (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)",
      ),
      insertDecision: db.prepare(
        `INSERT INTO ratelimit_decisions (request_id, time, workspace_id, namespace_id, identifier, passed, latency,
           override_id, "limit", remaining, reset_at, tokens)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      spend: db.prepare(
        `INSERT INTO ratelimit_counters (namespace_id, identifier, duration_ms, sequence, spent, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (namespace_id, identifier, duration_ms, sequence) DO UPDATE SET spent = spent + excluded.spent`,
      ),
      // The window @sequence and the one before it: two rows of the primary key at most.
      spent: db.prepare(
        `SELECT coalesce(sum(iif(sequence = @sequence, spent, 0)), 0) AS current,
                coalesce(sum(iif(sequence < @sequence, spent, 0)), 0) AS previous
           FROM ratelimit_counters
          WHERE namespace_id = @namespaceId AND identifier = @identifier AND duration_ms = @durationMs
            AND sequence BETWEEN @sequence - 1 AND @sequence`,
      ),
      expired: db.prepare(
        `DELETE FROM ratelimit_counters WHERE (namespace_id, identifier, duration_ms, sequence) IN
           (SELECT namespace_id, identifier, duration_ms, sequence FROM ratelimit_counters WHERE expires_at <= ? LIMIT ?)`,
      ),
    };
    prepared.set(db, found);
  }
  return found;
}

function toNamespace(row: RawNamespace): NamespaceRow {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    createdAt: row.created_at,
    deletedAt: row.deleted_at,
  };
}

function toOverride(row: RawOverride): OverrideRow {
  return {
    id: row.id,
    namespaceId: row.namespace_id,
    identifier: row.identifier,
    limit: row.limit,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
  };
}

/** The workspace's namespace with this id or name, deleted or not. */
export function findNamespace(db: Database, workspaceId: string, nameOrId: string): NamespaceRow | undefined {
  const row = statements(db).namespace.get(workspaceId, nameOrId, nameOrId, nameOrId);
  return row === undefined ? undefined : toNamespace(row);
}

/** A new namespace (its name must be free in the workspace, deleted namespaces' names included). */
export function createNamespace(db: Database, workspaceId: string, name: string, createdAt = Date.now()): NamespaceRow {
  const id = newId("rlns");
  statements(db).insertNamespace.run(id, workspaceId, name, createdAt);
  return { id, workspaceId, name, createdAt, deletedAt: null };
}

/** Deletes a live namespace (admin CLI); false when the workspace has none by that name or id. */
export function deleteNamespace(db: Database, workspaceId: string, nameOrId: string, now = Date.now()): boolean {
  const namespace = findNamespace(db, workspaceId, nameOrId);
  if (namespace === undefined || namespace.deletedAt !== null) return false;
  db.prepare("UPDATE ratelimit_namespaces SET deleted_at = ? WHERE id = ?").run(now, namespace.id);
  return true;
}

export interface NamespaceSummary extends NamespaceRow {
  overrideCount: number;
  decisionCount: number;
}

/** The workspace's namespaces by name, with how many live overrides and recorded decisions each has (admin CLI). */
export function listNamespaces(db: Database, workspaceId: string): NamespaceSummary[] {
  return db
    .prepare<[string], RawNamespace & { override_count: number; decision_count: number }>(
      `SELECT n.id, n.workspace_id, n.name, n.created_at, n.deleted_at,
              (SELECT count(*) FROM ratelimit_overrides o WHERE o.namespace_id = n.id AND o.deleted_at IS NULL) AS override_count,
              (SELECT count(*) FROM ratelimit_decisions d WHERE d.namespace_id = n.id) AS decision_count
         FROM ratelimit_namespaces n WHERE n.workspace_id = ? ORDER BY n.name`,
    )
    .all(workspaceId)
    .map((row) => ({ ...toNamespace(row), overrideCount: row.override_count, decisionCount: row.decision_count }));
}

/** The namespace's live override for exactly this identifier (a pattern is matched as the text it is). */
export function findOverride(db: Database, namespaceId: string, identifier: string): OverrideRow | undefined {
  const row = statements(db).override.get(namespaceId, identifier);
  return row === undefined ? undefined : toOverride(row);
}

/** The namespace's live overrides whose identifier holds a `*`. */
export function wildcardOverrides(db: Database, namespaceId: string): OverrideRow[] {
  return statements(db).wildcards.all(namespaceId).map(toOverride);
}

export interface NewOverride {
  workspaceId: string;
  namespaceId: string;
  identifier: string;
  limit: number;
  durationMs: number;
  now?: number;
}

/**
 * Sets the namespace's override for an identifier: a new one, or the one set before (deleted or not) with its id kept
 * and its limit and duration replaced. Returns its id.
 */
export function setOverride(db: Database, override: NewOverride): string {
  const now = override.now ?? Date.now();
  const row = db
    .prepare<[string, string, string, string, number, number, number], { id: string }>(
      `INSERT INTO ratelimit_overrides (id, workspace_id, namespace_id, identifier, "limit", duration_ms, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace_id, identifier) DO UPDATE SET
         "limit" = excluded."limit", duration_ms = excluded.duration_ms, updated_at = excluded.created_at, deleted_at = NULL
       RETURNING id`,
    )
    .get(
      newId("rlor"),
      override.workspaceId,
      override.namespaceId,
      override.identifier,
      override.limit,
      override.durationMs,
      now,
    );
  if (row === undefined) throw new Error("the override was not written");
  return row.id;
}

export function deleteOverride(db: Database, overrideId: string, now = Date.now()): void {
  db.prepare("UPDATE ratelimit_overrides SET deleted_at = ? WHERE id = ?").run(now, overrideId);
}

/** The namespace's live overrides by id from `from` on (inclusive, the real service's cursor), at most `count`. */
export function listOverrides(db: Database, namespaceId: string, from: string, count: number): OverrideRow[] {
  return db
    .prepare<[string, string, number], RawOverride>(
      `SELECT ${OVERRIDE_COLUMNS} FROM ratelimit_overrides
        WHERE namespace_id = ? AND deleted_at IS NULL AND id >= ? ORDER BY id LIMIT ?`,
    )
    .all(namespaceId, from, count)
    .map(toOverride);
}

export function recordDecision(db: Database, decision: DecisionRecord): void {
  statements(db).insertDecision.run(
    decision.requestId,
    decision.time,
    decision.workspaceId,
    decision.namespaceId,
    decision.identifier,
    decision.passed ? 1 : 0,
    decision.latency,
    decision.overrideId,
    decision.limit,
    decision.remaining,
    decision.resetAt,
    decision.tokens,
  );
}

/**
 * Charges `tokens` to the counter's window `sequence` (its windows are the multiples of its duration, as the limiter's).
 */
export function spendCounter(db: Database, counter: CounterId, sequence: number, tokens: number): void {
  const expiresAt = (sequence + 2) * counter.durationMs;
  statements(db).spend.run(counter.namespaceId, counter.identifier, counter.durationMs, sequence, tokens, expiresAt);
}

/** What the counter spent in its window `sequence` and in the one before it. */
export function spentTokens(db: Database, counter: CounterId, sequence: number): { current: number; previous: number } {
  return statements(db).spent.get({ ...counter, sequence }) ?? { current: 0, previous: 0 };
}

/** Deletes at most `max` counters dead at `now` (neither the current nor the previous window); returns how many. */
export function deleteExpiredCounters(db: Database, now: number, max: number): number {
  return statements(db).expired.run(now, max).changes;
}
