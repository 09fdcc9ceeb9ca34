import Database from "better-sqlite3";
import { expect, test } from "vitest";
import { migrate, MIGRATIONS } from "../../server/db/migrations";

test("migration 3 keeps every verification and its seq, and drops only the unique index on request_id", () => {
  const db = new Database(":memory:");
  migrate(db, MIGRATIONS.filter((migration) => migration.version <= 2));
  const insert = db.prepare(
    `INSERT INTO key_verifications (seq, request_id, time, workspace_id, key_space_id, key_id, outcome, region, tags, spent_credits)
     VALUES (?, ?, ?, 'ws_1', 'api_1', 'key_1', 'VALID', 'local', '["a"]', 1)`,
  );
  insert.run(5, "req_a", 1000);
  insert.run(9, "req_b", 2000);
  const before = db.prepare("SELECT * FROM key_verifications ORDER BY seq").all();

  migrate(db, MIGRATIONS.filter((migration) => migration.version <= 3));

  expect(db.prepare("SELECT * FROM key_verifications ORDER BY seq").all()).toEqual(before);
  const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'key_verifications'").pluck().all();
  expect(indexes).toEqual(["key_verifications_by_key"]);
  // New rows continue after the highest seq, which the analytics copy reads by.
  insert.run(null, "req_c", 3000);
  expect(db.prepare("SELECT max(seq) FROM key_verifications").pluck().get()).toBe(10);
  expect(() => db.prepare("INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, outcome, region) VALUES ('r', 1, 'w', 'a', 'k', 'NOPE', 'x')").run()).toThrow(/CHECK/);
  db.close();
});

test("migration 4 keeps every verification, drops the index nothing reads, and adds roles and identities' rate limits", () => {
  const db = new Database(":memory:");
  migrate(db, MIGRATIONS.filter((migration) => migration.version <= 3));
  db.prepare(
    `INSERT INTO key_verifications (request_id, time, workspace_id, key_space_id, key_id, outcome, region)
     VALUES ('req_a', 1000, 'ws_1', 'api_1', 'key_1', 'VALID', 'local')`,
  ).run();
  const before = db.prepare("SELECT * FROM key_verifications ORDER BY seq").all();

  migrate(db);

  expect(db.prepare("SELECT * FROM key_verifications ORDER BY seq").all()).toEqual(before);
  const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'key_verifications'").pluck().all();
  expect(indexes).toEqual([]);
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws_1', 'w', 0)").run();
  db.prepare(`INSERT INTO roles (id, workspace_id, name, permissions, created_at) VALUES ('role_1', 'ws_1', 'reader', '["documents.read"]', 0)`).run();
  // A role's permissions are a JSON array, and a name is unique in its workspace.
  expect(() => db.prepare(`INSERT INTO roles (id, workspace_id, name, permissions, created_at) VALUES ('role_2', 'ws_1', 'x', '{}', 0)`).run()).toThrow(/CHECK/);
  expect(() => db.prepare(`INSERT INTO roles (id, workspace_id, name, created_at) VALUES ('role_3', 'ws_1', 'reader', 0)`).run()).toThrow(/UNIQUE/);
  expect(() =>
    db.prepare(`INSERT INTO identity_ratelimits (id, identity_id, name, "limit", duration_ms) VALUES ('rl_1', 'id_1', 'requests', 0, 1000)`).run(),
  ).toThrow(/CHECK/);
  db.close();
});
