import { randomUUID } from "node:crypto";
import type { Database } from "better-sqlite3";
import { newId } from "./ids";
import { RATELIMITS_MIGRATION } from "./migrations/012-ratelimits";

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** What plain SQL cannot do (ids are made in JavaScript), run after `sql` in the same transaction. */
  data?: (db: Database) => void;
}

/** Numbered, append-only: a released migration is never edited, a change is a new one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "workspaces, apis, keys, root keys",
    sql: `
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE apis (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id),
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX apis_by_workspace ON apis (workspace_id, created_at);

      -- workspace_id repeats the api's workspace so a workspace-wide page is one index range scan.
      CREATE TABLE keys (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id),
        api_id TEXT NOT NULL REFERENCES apis (id),
        name TEXT NOT NULL,
        start TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        created_at INTEGER NOT NULL,
        expires INTEGER,
        meta TEXT CHECK (meta IS NULL OR json_type(meta) = 'object'),
        external_id TEXT
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX keys_by_workspace ON keys (workspace_id, id);
      CREATE INDEX keys_by_api ON keys (api_id, id);
      CREATE INDEX keys_by_external_id ON keys (workspace_id, external_id, id) WHERE external_id IS NOT NULL;

      CREATE TABLE root_keys (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id),
        name TEXT NOT NULL,
        start TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        permissions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(permissions)),
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        revoked_at INTEGER,
        ratelimit_limit INTEGER CHECK (ratelimit_limit > 0),
        ratelimit_window_ms INTEGER CHECK (ratelimit_window_ms > 0),
        created_at INTEGER NOT NULL,
        CHECK ((ratelimit_limit IS NULL) = (ratelimit_window_ms IS NULL))
      ) STRICT;
      CREATE INDEX root_keys_by_workspace ON root_keys (workspace_id, created_at);
    `,
  },
  {
    version: 2,
    name: "the whole Key object: credits, refill, rate limits, identity, permissions, roles, usage times",
    sql: `
      ALTER TABLE keys ADD COLUMN updated_at INTEGER;
      ALTER TABLE keys ADD COLUMN last_used_at INTEGER;
      -- NULL: unlimited. refill_* NULL: never refilled.
      ALTER TABLE keys ADD COLUMN credits_remaining INTEGER CHECK (credits_remaining IS NULL OR credits_remaining >= 0);
      ALTER TABLE keys ADD COLUMN refill_interval TEXT CHECK (refill_interval IS NULL OR refill_interval IN ('daily', 'monthly'));
      ALTER TABLE keys ADD COLUMN refill_amount INTEGER CHECK (refill_amount IS NULL OR refill_amount > 0);
      ALTER TABLE keys ADD COLUMN refill_day INTEGER CHECK (refill_day IS NULL OR refill_day BETWEEN 1 AND 31);
      ALTER TABLE keys ADD COLUMN last_refill_at INTEGER;
      ALTER TABLE keys ADD COLUMN permissions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(permissions));
      ALTER TABLE keys ADD COLUMN roles TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(roles));

      -- An identity groups keys by the caller's own id (external_id) and may carry meta and rate limits.
      CREATE TABLE identities (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id),
        external_id TEXT NOT NULL,
        meta TEXT CHECK (meta IS NULL OR json_type(meta) = 'object'),
        created_at INTEGER NOT NULL,
        UNIQUE (workspace_id, external_id)
      ) STRICT;

      -- A key's named rate limits; auto_apply ones are checked on every verification.
      CREATE TABLE key_ratelimits (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL REFERENCES keys (id),
        name TEXT NOT NULL,
        "limit" INTEGER NOT NULL CHECK ("limit" > 0),
        duration_ms INTEGER NOT NULL CHECK (duration_ms > 0),
        auto_apply INTEGER NOT NULL DEFAULT 1 CHECK (auto_apply IN (0, 1)),
        UNIQUE (key_id, name)
      ) STRICT;

      -- One row a verification of an existing key: the durable source of the analytics tables.
      -- seq orders the rows for the analytics engine's incremental copy (rows written by any process).
      CREATE TABLE key_verifications (
        seq INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL UNIQUE,
        time INTEGER NOT NULL,
        workspace_id TEXT NOT NULL,
        key_space_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        external_id TEXT NOT NULL DEFAULT '',
        outcome TEXT NOT NULL CHECK (outcome IN ('VALID', 'RATE_LIMITED', 'INVALID', 'EXPIRED', 'DISABLED',
          'INSUFFICIENT_PERMISSIONS', 'FORBIDDEN', 'USAGE_EXCEEDED')),
        region TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
        spent_credits INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX key_verifications_by_key ON key_verifications (key_id, time);
    `,
  },
  {
    version: 3,
    name: "key_verifications without the unique index on request_id, which made every verification twice as slow",
    sql: `
      -- Request ids are random, so their unique index took a write at a random page in every verification's
      -- commit (measured: the insert's cost doubled). They are 128-bit random ids made by this server, so
      -- they stay unique by construction; seq and every other column are kept as they are.
      CREATE TABLE key_verifications_v3 (
        seq INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL,
        time INTEGER NOT NULL,
        workspace_id TEXT NOT NULL,
        key_space_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        external_id TEXT NOT NULL DEFAULT '',
        outcome TEXT NOT NULL CHECK (outcome IN ('VALID', 'RATE_LIMITED', 'INVALID', 'EXPIRED', 'DISABLED',
          'INSUFFICIENT_PERMISSIONS', 'FORBIDDEN', 'USAGE_EXCEEDED')),
        region TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
        spent_credits INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      INSERT INTO key_verifications_v3
             (seq, request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits)
      SELECT seq, request_id, time, workspace_id, key_space_id, key_id, external_id, outcome, region, tags, spent_credits
        FROM key_verifications;
      DROP TABLE key_verifications;
      ALTER TABLE key_verifications_v3 RENAME TO key_verifications;
      CREATE INDEX key_verifications_by_key ON key_verifications (key_id, time);
    `,
  },
  {
    version: 4,
    name: "roles that carry permissions, identities' rate limits, and no index on key_verifications by key",
    sql: `
      -- A role carries permissions, as on the real service: a key's permissions are its own and its roles'. Keys
      -- keep naming their roles (keys.roles); a role is found by that name in the key's workspace, and a name
      -- without a row here grants nothing (as every role did before this migration).
      CREATE TABLE roles (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id),
        name TEXT NOT NULL,
        permissions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(permissions) AND json_type(permissions) = 'array'),
        created_at INTEGER NOT NULL,
        UNIQUE (workspace_id, name)
      ) STRICT;

      -- An identity's named rate limits, shared by all its keys: one counter per limit whichever key is verified.
      CREATE TABLE identity_ratelimits (
        id TEXT PRIMARY KEY,
        identity_id TEXT NOT NULL REFERENCES identities (id),
        name TEXT NOT NULL,
        "limit" INTEGER NOT NULL CHECK ("limit" > 0),
        duration_ms INTEGER NOT NULL CHECK (duration_ms > 0),
        auto_apply INTEGER NOT NULL DEFAULT 1 CHECK (auto_apply IN (0, 1)),
        UNIQUE (identity_id, name)
      ) STRICT;

      -- Nothing reads key_verifications by key in SQLite (analytics reads the engine's copy, caught up by seq),
      -- while this index's inserts, at a random place per key, were half of each verification's write (measured).
      DROP INDEX key_verifications_by_key;
    `,
  },
  {
    version: 5,
    name: "a role row for every role a key names, so that keys made before roles had rows list and grant alike",
    sql: "",
    data(db) {
      // Keys made before migration 4 name roles that have no row: such a role granted nothing and stays so
      // (no permissions), but `roles list` and `roles grant` now see it as keys made since do.
      const missing = db
        .prepare<[], { workspace_id: string; name: string; created_at: number }>(
          `SELECT k.workspace_id, r.value AS name, min(k.created_at) AS created_at
             FROM keys k, json_each(k.roles) r
            WHERE NOT EXISTS (SELECT 1 FROM roles WHERE roles.workspace_id = k.workspace_id AND roles.name = r.value)
            GROUP BY k.workspace_id, r.value`,
        )
        .all();
      const insert = db.prepare<[string, string, string, number]>(
        "INSERT INTO roles (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)",
      );
      for (const role of missing) insert.run(newId("role"), role.workspace_id, role.name, role.created_at);
    },
  },
  {
    version: 6,
    name: "key_verifications summed per key and hour, for the analytics questions about a few keys",
    sql: `
      -- The per-hour sums of key_verifications by key, as SQLite's index reads them: the usage of a page of keys is
      -- a range per key here, where the analytics engine pays about 4 ms to plan and run any query at all
      -- (server/analytics/key-rollup.ts answers the queries it can answer exactly from this table). A row is one
      -- key, hour (Unix ms of its start), outcome, key space and external id.
      CREATE TABLE key_verifications_per_hour (
        workspace_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        time INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        key_space_id TEXT NOT NULL,
        external_id TEXT NOT NULL,
        count INTEGER NOT NULL,
        spent_credits INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, key_id, time, outcome, key_space_id, external_id)
      ) STRICT, WITHOUT ROWID;

      -- The sums hold the verifications up to this seq; the server folds in the newer ones, in batches, before it
      -- reads them. Not a trigger: a verification's write would then touch its key's page at a random place (measured
      -- about four times the cost of the write itself with 10,000 keys), where a batch sorted by key touches each page once.
      CREATE TABLE key_verifications_per_hour_seq (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seq INTEGER NOT NULL
      ) STRICT;
      INSERT INTO key_verifications_per_hour_seq VALUES (1, 0);
    `,
  },
  {
    version: 7,
    name: "deleted keys and APIs, and the workspace's permissions as rows",
    sql: `
      -- keys.deleteKey without permanent, keys.rerollKey's old key and apis.deleteApi keep the row, as the real
      -- service does: a deleted key or API is found by no operation, while its verifications keep their key id.
      ALTER TABLE keys ADD COLUMN deleted_at INTEGER;
      ALTER TABLE apis ADD COLUMN deleted_at INTEGER;

      -- The permissions a workspace has defined (permissions.listPermissions); keys and roles keep naming theirs by
      -- slug, as before. keys.addPermissions and its kin create a missing one here, as the real service does.
      CREATE TABLE permissions (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id),
        name TEXT NOT NULL,
        slug TEXT NOT NULL,
        description TEXT,
        created_at INTEGER NOT NULL,
        UNIQUE (workspace_id, slug)
      ) STRICT;
    `,
    data(db) {
      // Every permission a key or a role names already is one of its workspace's.
      const named = db
        .prepare<[], { workspace_id: string; slug: string; created_at: number }>(
          `SELECT workspace_id, slug, min(created_at) AS created_at FROM (
             SELECT k.workspace_id, p.value AS slug, k.created_at FROM keys k, json_each(k.permissions) p
             UNION ALL
             SELECT r.workspace_id, p.value, r.created_at FROM roles r, json_each(r.permissions) p)
           GROUP BY workspace_id, slug`,
        )
        .all();
      const insert = db.prepare<[string, string, string, string, number]>(
        "INSERT INTO permissions (id, workspace_id, name, slug, created_at) VALUES (?, ?, ?, ?, ?)",
      );
      for (const row of named) insert.run(newId("perm"), row.workspace_id, row.slug, row.slug, row.created_at);
    },
  },
  {
    version: 8,
    name: "APIs' key-space defaults and delete protection, roles' descriptions, deleted identities, workspaces' analytics retention",
    sql: `
      -- As the real service's key space: the prefix and byte length keys.createKey uses when a request leaves them out
      -- (NULL: none, and 16 bytes), and the protection that makes apis.deleteApi refuse (412).
      ALTER TABLE apis ADD COLUMN default_prefix TEXT CHECK (default_prefix IS NULL OR length(default_prefix) BETWEEN 1 AND 8);
      ALTER TABLE apis ADD COLUMN default_bytes INTEGER CHECK (default_bytes IS NULL OR default_bytes BETWEEN 16 AND 255);
      ALTER TABLE apis ADD COLUMN delete_protection INTEGER NOT NULL DEFAULT 0 CHECK (delete_protection IN (0, 1));

      ALTER TABLE roles ADD COLUMN description TEXT;

      -- A deleted identity keeps its row, found by no operation (its keys lose their identity), as on the real service.
      ALTER TABLE identities ADD COLUMN deleted_at INTEGER;

      -- How many days back an analytics query may reach (the real service's per-workspace limit, 30 by default).
      ALTER TABLE workspaces ADD COLUMN analytics_retention_days INTEGER NOT NULL DEFAULT 30
        CHECK (analytics_retention_days BETWEEN 1 AND 65535);
    `,
  },
  {
    version: 9,
    name: "APIs' IP whitelists and workspaces' own analytics quotas",
    sql: `
      -- As the real service's apis.ip_whitelist: comma-separated addresses; a verification from another is FORBIDDEN.
      ALTER TABLE apis ADD COLUMN ip_whitelist TEXT CHECK (ip_whitelist IS NULL OR length(ip_whitelist) BETWEEN 1 AND 512);

      -- Analytics queries the workspace may run per hour (the real service's per-workspace max_queries_per_window);
      -- NULL: the server's --analytics-quota.
      ALTER TABLE workspaces ADD COLUMN analytics_queries_per_hour INTEGER CHECK (analytics_queries_per_hour IS NULL OR analytics_queries_per_hour > 0);
    `,
  },
  {
    version: 10,
    name: "the per-hour sums by key move to the analytics engine's own files, and the database gets an id they name",
    sql: `
      -- The analytics engine keeps its data in files of its own beside this one (analytics.duckdb, and the per-hour
      -- sums by key in analytics-sums.sqlite), written off the request path; they are rebuilt from key_verifications.
      -- Folding the sums here took this file's write lock from the verifications.
      DROP TABLE key_verifications_per_hour;
      DROP TABLE key_verifications_per_hour_seq;

      -- Which database the analytics files were made from: a data directory whose SQLite file was replaced keeps
      -- old analytics files, which this id tells apart (they are then rebuilt).
      CREATE TABLE database_id (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        id TEXT NOT NULL
      ) STRICT;
    `,
    data(db) {
      db.prepare("INSERT INTO database_id (only, id) VALUES (1, ?)").run(randomUUID());
    },
  },
  {
    version: 11,
    name: "key migrations, and keys imported by keys.migrateKeys waiting for their first verification",
    sql: `
      -- As the real service's key_migrations: how a workspace's imported keys were hashed. An id is the caller's word
      -- for it (keys.migrateKeys' and keys.verifyKey's migrationId), unique across workspaces as there.
      CREATE TABLE key_migrations (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id),
        algorithm TEXT NOT NULL CHECK (algorithm IN ('sha256', 'github.com/seamapi/prefixed-api-key')),
        created_at INTEGER NOT NULL
      ) STRICT;

      -- An imported key whose hash is its old system's until a verification naming the migration re-hashes it.
      ALTER TABLE keys ADD COLUMN pending_migration_id TEXT;
    `,
  },
  // From here on, one numbered file each in migrations/.
  RATELIMITS_MIGRATION,
];

/**
 * Applies the pending migrations in one immediate transaction, so two processes starting together don't both apply them.
 * Pending is every one not recorded, not only those above the highest recorded: a database made while a lower number
 * was not yet in the list (numbers are given out to branches ahead of their merge) still gets it.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const appliedVersions = db.prepare<[], number>("SELECT version FROM schema_migrations").pluck();
  const record = db.prepare<[number, string, number]>(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
  );
  const latest = migrations.at(-1)?.version ?? 0;

  db.transaction(() => {
    const applied = new Set(appliedVersions.all());
    const current = Math.max(0, ...applied);
    if (current > latest) {
      throw new Error(`the database is at schema version ${current}, newer than this server knows (${latest})`);
    }
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      migration.data?.(db);
      record.run(migration.version, migration.name, Date.now());
    }
  }).immediate();
}
