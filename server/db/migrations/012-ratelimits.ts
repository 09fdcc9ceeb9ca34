/**
 * Migration 12: rate-limit namespaces, their overrides, every limit decision (ratelimit.limit, multiLimit) and the
 * counters they spent. A `Migration` (../migrations.ts checks it there: importing the type here would make an import
 * circle).
 */
export const RATELIMITS_MIGRATION = {
  version: 12,
  name: "rate-limit namespaces, their overrides, every limit decision and what each window spent",
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

    -- One row a limit decision, as the real service's ratelimits_raw_v2: the durable source of the rate-limit analytics
    -- tables, copied by seq as key_verifications is. No index: nothing here reads it by identifier, and an index's
    -- insert at a place per identifier was a fifth of each decision's cost (measured).
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
      tokens INTEGER NOT NULL
    ) STRICT;

    -- What each identifier's windows spent, as the real service's ratelimit_global_counters: written in the transaction
    -- of the decisions that spent, so a counter this process has not seen (after a restart, even a kill -9) begins from
    -- exactly what was committed. sequence numbers the window, floor(time / duration_ms). A row is dead from expires_at
    -- on (the end of the window after its own: then it is neither the current window nor the previous one), and the
    -- limits after that delete it. A refused decision or batch writes nothing (none of it is spent, as on the real
    -- service).
    CREATE TABLE ratelimit_counters (
      namespace_id TEXT NOT NULL,
      identifier TEXT NOT NULL,
      duration_ms INTEGER NOT NULL,
      sequence INTEGER NOT NULL,
      spent INTEGER NOT NULL CHECK (spent >= 0),
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (namespace_id, identifier, duration_ms, sequence)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX ratelimit_counters_expiry ON ratelimit_counters (expires_at);
  `,
};
