import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { migrate } from "./migrations";

export const DATABASE_FILE_NAME = "keyscope.sqlite";

/** Opens (creating if needed) `<dataDir>/keyscope.sqlite`, ready for the server and the admin CLI to share. */
export function openDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DATABASE_FILE_NAME));
  try {
    // busy_timeout first: switching to WAL itself waits for a lock when another process has the file open.
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
