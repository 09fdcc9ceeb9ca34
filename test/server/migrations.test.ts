import Database from "better-sqlite3";
import { expect, test } from "vitest";
import { migrate, MIGRATIONS } from "../../server/db/migrations";

test("migration 3 keeps every verification and its seq, and drops only the unique index on request_id", () => {
  const db = new Database(":memory:");
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 2),
  );
  const insert = db.prepare(
    `INSERT INTO key_verifications (seq, request_id, time, workspace_id, key_space_id, key_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'ws_1', 'api_1', 'key_1', 'VALID', 'local', '["a"]', 1)`,
  );
  insert.run(5, "req_a", 1000);
  insert.run(9, "req_b", 2000);
  const before = db.prepare("SELECT * FROM key_verifications ORDER BY seq").all();

  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 3),
  );

  expect(db.prepare("SELECT * FROM key_verifications ORDER BY seq").all()).toEqual(before);
  const indexes = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'key_verifications'")
    .pluck()
    .all();
  expect(indexes).toEqual(["key_verifications_by_key"]);
  // New rows continue after the highest seq, which the analytics copy reads by.
  insert.run(null, "req_c", 3000);
  expect(db.prepare("SELECT max(seq) FROM key_verifications").pluck().get()).toBe(10);
  expect(() =>
    db
      .prepare(
        "INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, outcome, region) VALUES ('r', 1, 'w', 'a', 'k', 'NOPE', 'x')",
      )
      .run(),
  ).toThrow(/CHECK/);
  db.close();
});

/**
 * A database at schema `version` holding one verification, migrated to the latest (or to `upTo`); its verifications
 * must be as before.
 */
function migrateWithOneVerification(version: number, upTo = MIGRATIONS.at(-1)?.version ?? 0): Database.Database {
  const db = new Database(":memory:");
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= version),
  );
  db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, outcome, region)
     VALUES ('req_a', 1000, 'ws_1', 'api_1', 'key_1', 'VALID', 'local')`,
  ).run();
  const before = db.prepare("SELECT * FROM key_verifications ORDER BY seq").all();
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= upTo),
  );
  expect(db.prepare("SELECT * FROM key_verifications ORDER BY seq").all()).toEqual(before);
  return db;
}

test("migration 4 keeps every verification, drops the index nothing reads, and adds roles and identities' rate limits", () => {
  const db = migrateWithOneVerification(3);
  const indexes = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'key_verifications'")
    .pluck()
    .all();
  expect(indexes).toEqual([]);
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'w', 0)").run();
  db.prepare(
    `INSERT INTO roles (id, workspace_id, name, permissions, created_at) VALUES ('role_1', 'ws_1', 'reader', '["documents.read"]', 0)`,
  ).run();
  // A role's permissions are a JSON array, and a name is unique in its workspace.
  expect(() =>
    db
      .prepare(
        `INSERT INTO roles (id, workspace_id, name, permissions, created_at) VALUES ('role_2', 'ws_1', 'x', '{}', 0)`,
      )
      .run(),
  ).toThrow(/CHECK/);
  expect(() =>
    db.prepare(`INSERT INTO roles (id, workspace_id, name, created_at) VALUES ('role_3', 'ws_1', 'reader', 0)`).run(),
  ).toThrow(/UNIQUE/);
  expect(() =>
    db
      .prepare(
        `INSERT INTO identity_ratelimits (id, identity_id, name, "limit", duration_ms) VALUES ('rl_1', 'id_1', 'requests', 0, 1000)`,
      )
      .run(),
  ).toThrow(/CHECK/);
  db.close();
});

test("migration 5 gives every role a key names a row of its own, once per workspace, granting nothing more", () => {
  const db = new Database(":memory:");
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 4),
  );
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'w', 0), ('ws_2', 'v', 0)").run();
  db.prepare(
    "INSERT INTO apis (id, workspace_id, name, created_at) VALUES ('api_1', 'ws_1', 'a', 0), ('api_2', 'ws_2', 'b', 0)",
  ).run();
  const key = db.prepare(
    "INSERT INTO keys (id, workspace_id, api_id, hash, start, name, enabled, created_at, roles) VALUES (?, ?, ?, ?, 'sk_', 'k', 1, ?, ?)",
  );
  key.run("key_1", "ws_1", "api_1", "h1", 100, JSON.stringify(["editor", "reader"]));
  key.run("key_2", "ws_1", "api_1", "h2", 50, JSON.stringify(["editor"]));
  key.run("key_3", "ws_2", "api_2", "h3", 70, JSON.stringify(["editor"]));
  // A role with a row and permissions already keeps them.
  db.prepare(
    `INSERT INTO roles (id, workspace_id, name, permissions, created_at) VALUES ('role_r', 'ws_1', 'reader', '["documents.read"]', 1)`,
  ).run();

  migrate(db);

  const roles = db
    .prepare("SELECT workspace_id, name, permissions, created_at FROM roles ORDER BY workspace_id, name")
    .all();
  expect(roles).toEqual([
    { workspace_id: "ws_1", name: "editor", permissions: "[]", created_at: 50 },
    { workspace_id: "ws_1", name: "reader", permissions: '["documents.read"]', created_at: 1 },
    { workspace_id: "ws_2", name: "editor", permissions: "[]", created_at: 70 },
  ]);
  expect(db.prepare("SELECT id FROM roles WHERE name = 'editor'").pluck().all()).toEqual([
    expect.stringMatching(/^role_/),
    expect.stringMatching(/^role_/),
  ]);
  db.close();
});

test("migration 6 adds the per-hour sums by key, empty and at seq 0, and leaves the verifications as they were", () => {
  // Migration 10 moves the sums out of this file (the next test).
  const db = migrateWithOneVerification(5, 6);
  // The server folds the verifications in (server/analytics/key-rollup.ts), from seq 0 on.
  expect(db.prepare("SELECT count(*) FROM key_verifications_per_hour").pluck().get()).toBe(0);
  expect(db.prepare("SELECT seq FROM key_verifications_per_hour_seq").pluck().all()).toEqual([0]);
  expect(() => db.prepare("INSERT INTO key_verifications_per_hour_seq VALUES (2, 0)").run()).toThrow(/CHECK/);
  db.close();
});

test("migration 7 makes a permission row of every permission a key or role names, once per workspace, and keeps every key live", () => {
  const db = new Database(":memory:");
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 6),
  );
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'w', 0), ('ws_2', 'v', 0)").run();
  db.prepare(
    "INSERT INTO apis (id, workspace_id, name, created_at) VALUES ('api_1', 'ws_1', 'a', 0), ('api_2', 'ws_2', 'b', 0)",
  ).run();
  const key = db.prepare(
    "INSERT INTO keys (id, workspace_id, api_id, hash, start, name, enabled, created_at, permissions) VALUES (?, ?, ?, ?, 'sk_', 'k', 1, ?, ?)",
  );
  key.run("key_1", "ws_1", "api_1", "h1", 100, JSON.stringify(["documents.read", "documents.write"]));
  key.run("key_2", "ws_2", "api_2", "h2", 50, JSON.stringify(["documents.read"]));
  db.prepare(
    `INSERT INTO roles (id, workspace_id, name, permissions, created_at) VALUES ('role_r', 'ws_1', 'reader', '["documents.read", "users.view"]', 10)`,
  ).run();
  const keysBefore = db.prepare("SELECT * FROM keys ORDER BY id").all();

  // To migration 7 only: a later one may add columns of its own to every key.
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 7),
  );

  const permissions = db
    .prepare("SELECT workspace_id, name, slug, created_at FROM permissions ORDER BY workspace_id, slug")
    .all();
  expect(permissions).toEqual([
    { workspace_id: "ws_1", name: "documents.read", slug: "documents.read", created_at: 10 },
    { workspace_id: "ws_1", name: "documents.write", slug: "documents.write", created_at: 100 },
    { workspace_id: "ws_1", name: "users.view", slug: "users.view", created_at: 10 },
    { workspace_id: "ws_2", name: "documents.read", slug: "documents.read", created_at: 50 },
  ]);
  expect(db.prepare("SELECT * FROM keys ORDER BY id").all()).toEqual(
    keysBefore.map((row) => ({ ...(row as object), deleted_at: null })),
  );
  db.close();
});

test("migration 8 adds APIs' key-space defaults and protection, roles' descriptions, deleted identities and a 30-day retention, keeping every row", () => {
  const db = new Database(":memory:");
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 7),
  );
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'w', 0)").run();
  db.prepare("INSERT INTO apis (id, workspace_id, name, created_at) VALUES ('api_1', 'ws_1', 'a', 0)").run();
  db.prepare("INSERT INTO roles (id, workspace_id, name, created_at) VALUES ('role_1', 'ws_1', 'reader', 0)").run();
  db.prepare(
    "INSERT INTO identities (id, workspace_id, external_id, created_at) VALUES ('id_1', 'ws_1', 'user_1', 0)",
  ).run();
  const before = ["workspaces", "apis", "roles", "identities"].map((table) =>
    db.prepare(`SELECT * FROM ${table}`).all(),
  );

  const upTo8 = MIGRATIONS.filter((migration) => migration.version <= 8);
  migrate(db, upTo8);
  // Applied once: a second start finds nothing to do.
  migrate(db, upTo8);

  const after = ["workspaces", "apis", "roles", "identities"].map((table) =>
    db.prepare(`SELECT * FROM ${table}`).all(),
  );
  const added = [
    { analytics_retention_days: 30 },
    { default_prefix: null, default_bytes: null, delete_protection: 0 },
    { description: null },
    { deleted_at: null },
  ];
  expect(after).toEqual(before.map((rows, index) => rows.map((row) => ({ ...(row as object), ...added[index] }))));
  expect(db.prepare("SELECT count(*) FROM schema_migrations WHERE version = 8").pluck().get()).toBe(1);
  for (const [sql, rule] of [
    ["UPDATE apis SET default_prefix = 'ninechars'", /CHECK/],
    ["UPDATE apis SET default_bytes = 8", /CHECK/],
    ["UPDATE apis SET delete_protection = 2", /CHECK/],
    ["UPDATE workspaces SET analytics_retention_days = 0", /CHECK/],
  ] as const) {
    expect(() => db.prepare(sql).run()).toThrow(rule);
  }
  db.close();
});

test("migration 9 adds APIs' IP whitelists and workspaces' own analytics quotas, none by default", () => {
  const db = new Database(":memory:");
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 8),
  );
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'w', 0)").run();
  db.prepare("INSERT INTO apis (id, workspace_id, name, created_at) VALUES ('api_1', 'ws_1', 'a', 0)").run();
  migrate(db);
  migrate(db);
  expect(db.prepare("SELECT ip_whitelist FROM apis").all()).toEqual([{ ip_whitelist: null }]);
  expect(
    db.prepare("SELECT analytics_queries_per_hour AS quota, analytics_retention_days AS days FROM workspaces").all(),
  ).toEqual([{ quota: null, days: 30 }]);
  expect(() => db.prepare("UPDATE workspaces SET analytics_queries_per_hour = 0").run()).toThrow(/CHECK/);
  expect(() => db.prepare("UPDATE apis SET ip_whitelist = ''").run()).toThrow(/CHECK/);
  db.close();
});

test("migration 10 moves the per-hour sums by key out of the database, gives it an id, and keeps every verification", () => {
  const db = migrateWithOneVerification(9);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
  expect(tables).not.toContain("key_verifications_per_hour");
  expect(tables).not.toContain("key_verifications_per_hour_seq");
  // One id, made once: the analytics files name the database they were made from.
  const id = db.prepare("SELECT id FROM database_id").pluck().all();
  expect(id).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  migrate(db);
  expect(db.prepare("SELECT id FROM database_id").pluck().all()).toEqual(id);
  expect(() => db.prepare("INSERT INTO database_id (only, id) VALUES (2, 'x')").run()).toThrow(/CHECK/);
  db.close();
});

test("migration 11 adds key migrations and keys waiting for one, none by default, keeping every key", () => {
  const db = new Database(":memory:");
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= 10),
  );
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'w', 0)").run();
  db.prepare("INSERT INTO apis (id, workspace_id, name, created_at) VALUES ('api_1', 'ws_1', 'a', 0)").run();
  db.prepare(
    "INSERT INTO keys (id, workspace_id, api_id, name, start, hash, created_at) VALUES ('key_1', 'ws_1', 'api_1', 'k', 's', 'h', 0)",
  ).run();
  migrate(db);
  migrate(db);
  expect(db.prepare("SELECT id, pending_migration_id AS pending FROM keys").all()).toEqual([
    { id: "key_1", pending: null },
  ]);
  db.prepare(
    "INSERT INTO key_migrations (id, workspace_id, algorithm, created_at) VALUES ('mig_1', 'ws_1', 'sha256', 0)",
  ).run();
  expect(() =>
    db
      .prepare(
        "INSERT INTO key_migrations (id, workspace_id, algorithm, created_at) VALUES ('mig_2', 'ws_1', 'bcrypt', 0)",
      )
      .run(),
  ).toThrow(/CHECK/);
  db.close();
});

test("a database made before a lower-numbered migration joined the list gets it at the next start, once", () => {
  const db = new Database(":memory:");
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  // As a database made on the rate-limit branch, whose list went from 10 to 12 before the key migrations' 11 joined.
  const gapped = MIGRATIONS.filter((migration) => migration.version !== 11);
  migrate(db, gapped);
  expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'key_migrations'").all()).toEqual([]);

  migrate(db);
  migrate(db);
  expect(db.prepare("SELECT count(*) FROM key_migrations").pluck().get()).toBe(0);
  expect(db.prepare("SELECT pending_migration_id FROM keys").all()).toEqual([]);
  expect(db.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all()).toEqual(
    MIGRATIONS.map((migration) => migration.version),
  );
  expect(db.prepare("SELECT max(version) FROM schema_migrations").pluck().get()).toBe(latest);
  db.close();
});

test("migration 12 adds rate limiting's tables and touches nothing before it", () => {
  const db = migrateWithOneVerification(11);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ratelimit%'").pluck();
  expect(tables.all().sort()).toEqual([
    "ratelimit_counters",
    "ratelimit_decisions",
    "ratelimit_namespaces",
    "ratelimit_overrides",
  ]);
  db.close();
});
