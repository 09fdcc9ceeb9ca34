import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import Database from "better-sqlite3";
import { CLICKHOUSE_MACROS } from "./dialect";
import { attachSums, createKeyRollup, type KeyRollup } from "./key-rollup";
import type { AnalyticsLimits } from "./limits";
import { FAMILIES, prepareStore, type FamilyName } from "./store-schema";
import { isLockConflict, privateStore, STORE_FILE, SUMS_FILE, type StoreLocation } from "./store-files";
import { createStoreSync, createTurns, type StoreSync } from "./store-sync";
import { refillSums } from "./sums-refill";
import type { Pacing } from "./pacing";

/** The analytics thread's databases: its SQLite connection, DuckDB with the store attached, and the copies' state. */
export interface OpenStore {
  /** The verifications' database as `main` (read; written only by retention), the sums' as `sums`. */
  sqlite: Database.Database;
  instance: DuckDBInstance;
  /** The connection the copies and retention write through. */
  admin: DuckDBConnection;
  /** The copy of each family's rows (verifications, rate-limit decisions) into the store. */
  copies: Record<FamilyName, StoreSync>;
  keyRollup: KeyRollup | undefined;
  /** Where the store is: the data directory's, or a private one when another process holds that. */
  location: StoreLocation;
  /** Why the store was emptied at opening (to be copied anew), if it was. */
  reset: string | undefined;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  sqlitePath: string;
  location: StoreLocation;
  limits: AnalyticsLimits;
  /** Whether SQLite's per-hour sums by key are kept and answer the queries they can. */
  rollup: boolean;
  /** When another process holds the data directory's store: keep a private one (a server), or fail (the admin CLI). */
  whenHeld: "private" | "fail";
  /** How background work paces itself (full speed unless given). */
  pacing?: Pacing;
}

/** The WAL beyond which DuckDB folds it into the file: what a restart replays at most. */
const CHECKPOINT_THRESHOLD = "32MB";

async function attachStore(
  admin: DuckDBConnection,
  location: StoreLocation,
  whenHeld: OpenStoreOptions["whenHeld"],
): Promise<StoreLocation> {
  try {
    await admin.run(`ATTACH '${join(location.dir, STORE_FILE).replaceAll("'", "''")}' AS store`);
    return location;
  } catch (error) {
    if (location.private || whenHeld === "fail" || !isLockConflict(error)) throw error;
    // Another server process holds the data directory's store: this one keeps a private copy.
    const own = privateStore();
    await admin.run(`ATTACH '${join(own.dir, STORE_FILE).replaceAll("'", "''")}' AS store`);
    return own;
  }
}

export async function openStore(options: OpenStoreOptions): Promise<OpenStore> {
  const { limits } = options;
  const sqlite = new Database(options.sqlitePath);
  // This thread may wait for the write lock (retention's deletes); verification never waits for it long.
  sqlite.pragma("busy_timeout = 10000");
  const sourceId = sqlite.prepare<[], string>("SELECT id FROM database_id").pluck().get();
  if (sourceId === undefined) throw new Error("the database has no id (it is older than this server: start it once)");
  const maxSeq = (table: string) =>
    sqlite.prepare<[], number | null>(`SELECT max(seq) FROM ${table}`).pluck().get() ?? 0;
  const sourceMaxSeqs = {
    verifications: maxSeq(FAMILIES.verifications.source),
    ratelimits: maxSeq(FAMILIES.ratelimits.source),
  };

  const instance = await DuckDBInstance.create(":memory:", {
    threads: String(limits.threads),
    memory_limit: `${Math.floor(limits.memoryLimitBytes / 1024 ** 2)}MB`,
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
  });
  const admin = await instance.connect();
  try {
    const location = await attachStore(admin, options.location, options.whenHeld);
    const state = await prepareStore(admin, sourceId, sourceMaxSeqs);
    for (const macro of CLICKHOUSE_MACROS) await admin.run(`CREATE MACRO ${macro}`);
    // GLOBAL: every connection's (a plain SET is the admin connection's own; the pooled ones would take the host's zone
    // and their now() would be local time).
    await admin.run("SET GLOBAL TimeZone = 'UTC'");
    await admin.run(`SET GLOBAL checkpoint_threshold = '${CHECKPOINT_THRESHOLD}'`);
    // Never spill a query to disk: the memory limit is the limit (the store's own pages are read from its file).
    await admin.run("SET temp_directory = ''");
    // No files, no network, no extensions from here on; and no query may change that.
    await admin.run("SET enable_external_access = false");
    await admin.run("SET lock_configuration = true");

    attachSums(sqlite, join(location.dir, SUMS_FILE), sourceId);
    // One connection for both copies, which take turns by batch (its staging tables and transaction are the
    // connection's); each commits its own mark, so either may stop anywhere.
    const turns = createTurns();
    const copyOf = (name: FamilyName) =>
      createStoreSync(sqlite, admin, state.copiedSeqs[name], options.pacing, FAMILIES[name], turns);
    const copies = { verifications: copyOf("verifications"), ratelimits: copyOf("ratelimits") };
    const keyRollup = options.rollup
      ? createKeyRollup(
          sqlite,
          Date.now,
          {
            copiedSeq: () => copies.verifications.copiedSeq,
            refill: (pacing) => refillSums(sqlite, instance, pacing),
          },
          options.pacing,
        )
      : undefined;
    return {
      sqlite,
      instance,
      admin,
      copies,
      keyRollup,
      location,
      reset: state.reset,
      async close() {
        await Promise.all([copies.verifications.stop(), copies.ratelimits.stop(), keyRollup?.stop()]);
        admin.closeSync();
        instance.closeSync();
        sqlite.close();
      },
    };
  } catch (error) {
    admin.closeSync();
    instance.closeSync();
    sqlite.close();
    throw error;
  }
}
