import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { runAdmin } from "../../server/admin/cli";
import { DATABASE_FILE_NAME } from "../../server/db/open";

/** What one run of the admin command line printed, and its exit code. */
export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin command line (`npm run admin -- …`) run in this process: the same code on the same database file
 * through its own connection, without starting node and tsx again (about half a second of CPU a run). Tests of
 * the program itself (exit codes, streams, another user, a process beside the server) start it as a process.
 */
export function runAdminInProcess(args: readonly string[]): AdminRun {
  let stdout = "";
  let stderr = "";
  const code = runAdmin(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}

/** A fresh data directory, the admin command line run in this process on it, and read-only SQL over its database. */
export function adminOnFreshDataDir(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `keyscope-${name}-`));
  return {
    dataDir,
    admin: (...args: string[]): AdminRun => runAdminInProcess([...args, "--data-dir", dataDir]),
    query<T>(this: void, sql: string, ...params: string[]): T[] {
      const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
      try {
        return db.prepare<string[], T>(sql).all(...params);
      } finally {
        db.close();
      }
    },
  };
}
