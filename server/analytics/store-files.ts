import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/**
 * Where the analytics engine keeps its data: beside the SQLite file, in files only the process holding the store's
 * lock writes. A second engine on the same data directory (another server process, or a second engine in this one)
 * keeps a private copy in a temporary directory instead, removed when it closes.
 */

export const STORE_FILE = "analytics.duckdb";
export const SUMS_FILE = "analytics-sums.sqlite";

export interface StoreLocation {
  /** The directory holding the store's files. */
  dir: string;
  /** A temporary directory of this engine's own (rebuilt at each start, removed at close). */
  private: boolean;
}

// DuckDB's file lock is a POSIX record lock, which a process holds for all its threads: two engines of one process
// would both get it. This process's own claims are kept here.
const claimed = new Set<string>();

/** The location of the engine over the SQLite file `sqlitePath`, claimed for this process until `release`. */
export function claimStore(sqlitePath: string): StoreLocation {
  const dir = resolve(dirname(sqlitePath));
  if (claimed.has(dir)) return privateStore();
  claimed.add(dir);
  return { dir, private: false };
}

/** A temporary directory for an engine that cannot use the data directory's store. */
export function privateStore(): StoreLocation {
  return { dir: mkdtempSync(join(tmpdir(), "keyscope-analytics-")), private: true };
}

export function releaseStore(location: StoreLocation): void {
  if (location.private) rmSync(location.dir, { recursive: true, force: true });
  else claimed.delete(location.dir);
}

/** Whether DuckDB refused to open a database file because another process holds it. */
export function isLockConflict(error: unknown): boolean {
  return error instanceof Error && /Could not set lock on file/i.test(error.message);
}
