/**
 * Migration 10: rate-limit namespaces, their overrides, and every limit decision (ratelimit.limit, multiLimit). A
 * `Migration` (../migrations.ts checks it there: importing the type here would make an import circle).
 */
export const RATELIMITS_MIGRATION = {
  version: 10,
  name: "rate-limit namespaces, their overrides, and every limit decision",
  sql: `
    -- A namespace is found by its id or its name in the workspace; a deleted one keeps its row and its name (limiting
    -- in it is 410, as on the real service).
    CREATE TABLE ratelimit_namespaces (
      id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces (id),
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER,
      deleted_at INTEGER,
      UNIQUE (workspace_id, name)
    ) STRICT;

    -- One override per identifier pattern of a namespace (* matches any run of characters); a deleted one keeps its
    -- row, and setting the identifier again brings it back under the same id. A limit of 0 blocks.
    CREATE TABLE ratelimit_overrides (
      id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces (id),
      namespace_id TEXT NOT NULL REFERENCES ratelimit_namespaces (id),
      identifier TEXT NOT NULL,
      "limit" INTEGER NOT NULL CHECK ("limit" >= 0),
      duration_ms INTEGER NOT NULL CHECK (duration_ms >= 1000),
      created_at INTEGER NOT NULL,
      updated_at INTEGER,
      deleted_at INTEGER,
      UNIQUE (namespace_id, identifier)
    ) STRICT;
    -- The patterns a limit tries when no override names its identifier exactly.
    CREATE INDEX ratelimit_overrides_wildcards ON ratelimit_overrides (namespace_id)
      WHERE deleted_at IS NULL AND instr(identifier, '*') > 0;

    -- One row a limit decision: the durable source of the rate-limit analytics tables (copied by seq, as
    -- key_verifications), and of the counters: a counter this process has not seen (after a restart, even a kill -9)
    -- begins from what the decisions of its two windows spent. Only those that spent are indexed, so a flood of
    -- refused requests writes no index page. spent is tokens, or 0 when the decision did not count: refused, or passing
    -- in a multiLimit batch that another limit refused (nothing of such a batch is spent, as on the real service).
    CREATE TABLE ratelimit_decisions (
      seq INTEGER PRIMARY KEY,
      request_id TEXT NOT NULL,
      time INTEGER NOT NULL,
      workspace_id TEXT NOT NULL,
      namespace_id TEXT NOT NULL,
      identifier TEXT NOT NULL,
      passed INTEGER NOT NULL CHECK (passed IN (0, 1)),
      latency REAL NOT NULL,
      override_id TEXT NOT NULL,
      "limit" INTEGER NOT NULL,
      remaining INTEGER NOT NULL,
      reset_at INTEGER NOT NULL,
      tokens INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL,
      spent INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX ratelimit_decisions_spent ON ratelimit_decisions (namespace_id, identifier, duration_ms, time)
      WHERE spent > 0;
  `,
};
