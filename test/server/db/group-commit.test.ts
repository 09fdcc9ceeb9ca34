import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { afterEach, beforeEach, expect, test } from "vitest";
import { createGroupCommit, type GroupCommit } from "../../../server/db/group-commit";
import { openDatabase } from "../../../server/db/open";

let dataDir: string;
let db: Database;
/** Another connection, as another process (the admin CLI) would have. */
let other: Database;
let flushes: (() => void)[];
let group: GroupCommit;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "keyscope-group-commit-"));
  db = openDatabase(dataDir);
  other = openDatabase(dataDir);
  db.exec("CREATE TABLE t (n INTEGER NOT NULL CHECK (n >= 0))");
  flushes = [];
  // The test decides when the turn ends.
  group = createGroupCommit(db, (flush) => flushes.push(flush));
});

afterEach(() => {
  db.close();
  other.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const insert = (n: number) => () => db.prepare("INSERT INTO t (n) VALUES (?)").run(n).changes;
const countOther = () => other.prepare<[], number>("SELECT count(*) FROM t").pluck().get();

test("the work of one turn shares one commit, and each answer waits for it", async () => {
  const answered: number[] = [];
  const runs = [1, 2, 3].map((n) => group.run(insert(n)).then(() => answered.push(n)));
  // The work ran at once and sees its own writes, but nothing is committed, so nothing is answered yet.
  expect(db.prepare("SELECT count(*) FROM t").pluck().get()).toBe(3);
  expect(countOther()).toBe(0);
  expect(flushes).toHaveLength(1);
  await Promise.resolve();
  expect(answered).toEqual([]);

  flushes[0]?.();
  await Promise.all(runs);
  expect(answered).toEqual([1, 2, 3]);
  expect(countOther()).toBe(3);
  expect(db.inTransaction).toBe(false);
});

test("a work that throws rolls back its own writes only, and rejects", async () => {
  const first = group.run(insert(1));
  const failing = group.run(() => {
    insert(2)();
    insert(-1)();
  });
  const third = group.run(insert(3));
  await expect(failing).rejects.toThrow(/CHECK constraint failed/);
  flushes[0]?.();
  await Promise.all([first, third]);
  expect(other.prepare("SELECT n FROM t ORDER BY n").pluck().all()).toEqual([1, 3]);
});

test("flush commits an open group at once (before the database closes), and a next run opens a new one", async () => {
  const pending = group.run(insert(1));
  group.flush();
  await pending;
  expect(countOther()).toBe(1);

  // The scheduled flush of the group already committed finds nothing to do.
  flushes[0]?.();
  const next = group.run(insert(2));
  expect(flushes).toHaveLength(2);
  flushes[1]?.();
  await next;
  expect(countOther()).toBe(2);
});

test("another connection's write waits for the group's commit instead of slipping between its decisions", async () => {
  other.pragma("busy_timeout = 0");
  const pending = group.run(insert(1));
  expect(() => other.prepare("INSERT INTO t (n) VALUES (9)").run()).toThrow(/database is locked/);
  flushes[0]?.();
  await pending;
  other.prepare("INSERT INTO t (n) VALUES (9)").run();
  expect(countOther()).toBe(2);
});
