import type { Database } from "better-sqlite3";

export interface Migration {
  version: number;
  name: string;
  sql: string;
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
];

/** Applies the pending migrations in one immediate transaction, so two processes starting together don't both apply them. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const currentVersion = db.prepare<[], number>("SELECT coalesce(max(version), 0) FROM schema_migrations").pluck();
  const record = db.prepare<[number, string, number]>(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
  );
  const latest = migrations.at(-1)?.version ?? 0;

  db.transaction(() => {
    const current = currentVersion.get() ?? 0;
    if (current > latest) {
      throw new Error(`the database is at schema version ${current}, newer than this server knows (${latest})`);
    }
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    }
  }).immediate();
}
