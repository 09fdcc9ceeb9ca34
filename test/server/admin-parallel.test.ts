import Database from "better-sqlite3";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { DATABASE_FILE_NAME } from "../../server/db/open";
import { REPO_ROOT, type CliRun } from "./cli";

const PROCESSES = 6;
const KEYS_EACH = 30;

/** `admin-repeat.ts`: one admin command line run `times` times in a process of its own. */
function repeatAdmin(times: number, args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const argv = ["--import", "tsx", "test/support/admin-repeat.ts", String(times), ...args];
    const child = execFile(process.execPath, argv, { cwd: REPO_ROOT }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : child.exitCode, stdout, stderr });
    });
  });
}

// Before every write transaction began IMMEDIATE, `keys create` read in a deferred one and then wrote: when another
// process committed in between, SQLite answered SQLITE_BUSY_SNAPSHOT at once instead of waiting (most of the six
// processes failed so here, every run).
test(
  "keys create in six processes at once on a fresh data directory: every key is created, none is refused as locked",
  { timeout: 120_000 },
  async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "keyscope-admin-parallel-")), "data");
    const runs = await Promise.all(
      Array.from({ length: PROCESSES }, (_, process) =>
        repeatAdmin(KEYS_EACH, ["keys", "create", "--name", `parallel ${process}`, "--data-dir", dataDir]),
      ),
    );
    for (const run of runs) expect(run.stderr.replace(/^Created the demo workspace .*\n/m, ""), "stderr").toBe("");
    expect(runs.map((run) => run.code)).toEqual(runs.map(() => 0));
    const printedIds = runs.flatMap((run) =>
      run.stdout
        .trim()
        .split("\n")
        .map((line) => line.split(" ")[0]),
    );
    expect(new Set(printedIds).size).toBe(PROCESSES * KEYS_EACH);

    const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
    try {
      const stored = db.prepare<[], string>("SELECT id FROM keys WHERE name LIKE 'parallel %'").pluck().all();
      expect(new Set(stored)).toEqual(new Set(printedIds));
    } finally {
      db.close();
    }
  },
);
