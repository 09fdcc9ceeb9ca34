import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { migrate } from "./migrations";

export const DATABASE_FILE_NAME = "keyscope.sqlite";
/** At most about 40 MB of WAL (4 KiB pages) before a checkpoint. */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** A data directory that cannot be used, said in one line that names it and the fix. */
export class DataDirError extends Error {}

export interface OpenOptions {
  /** false: a missing database is an error instead of a new one (commands that only read). */
  create?: boolean;
}

const NOT_A_DIRECTORY = new Set(["EEXIST", "ENOTDIR"]);
const NOT_WRITABLE = new Set([
  "EACCES",
  "EPERM",
  "EROFS",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_READONLY_DIRECTORY",
]);

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** The one-line reason for a file-system or SQLite failure on the data directory, or the error itself. */
function explain(error: unknown, dataDir: string): unknown {
  const code = codeOf(error) ?? "";
  const path = resolve(dataDir);
  if (NOT_A_DIRECTORY.has(code)) {
    return new DataDirError(
      `the data directory ${path} is a file (or lies under one): pass a directory with --data-dir`,
    );
  }
  if (NOT_WRITABLE.has(code) || code.startsWith("SQLITE_READONLY")) {
    return new DataDirError(
      `cannot write in the data directory ${path} (${code}): make it writable for this user, or pass another with --data-dir`,
    );
  }
  return error;
}

/** Opens (creating if needed) `<dataDir>/keyscope.sqlite`, ready for the server and the admin CLI to share. */
export function openDatabase(dataDir: string, { create = true }: OpenOptions = {}): Database.Database {
  const file = join(dataDir, DATABASE_FILE_NAME);
  if (!create && !existsSync(file)) {
    throw new DataDirError(
      `there is no Keyscope database at ${resolve(file)}: check --data-dir (the directory the server was started with)`,
    );
  }
  let db: Database.Database;
  try {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(file);
  } catch (error) {
    throw explain(error, dataDir);
  }
  try {
    // busy_timeout first: switching to WAL itself waits for a lock when another process has the file open.
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    // WAL with synchronous=NORMAL: a commit appends to the WAL without an fsync, so a crash of the process (or of
    // the server, or kill -9) loses nothing committed; only a power cut or an OS crash may lose the last commits.
    // The WAL is fsynced at each checkpoint, which is what this mode is for (sqlite.org/wal.html#performance).
    db.pragma("synchronous = NORMAL");
    // Checkpoints (copying the WAL back with two fsyncs) block whoever commits: one every 10,000 pages instead of
    // SQLite's 1,000 pays for that a tenth as often, and copies each hot page (a key's row, the table's tail) once.
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma("foreign_keys = ON");
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw explain(error, dataDir);
  }
}
