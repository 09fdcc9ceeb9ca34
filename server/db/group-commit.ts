import type { Database } from "better-sqlite3";

/**
 * Group commit: the writes of every request handled in one turn of the event loop share one immediate
 * transaction, committed at the end of that turn (`setImmediate`), and each request answers only once the
 * commit is done. A commit's fixed cost (the write lock, the WAL frames of the same few pages) is paid once per
 * turn instead of once per verification, while every answer still follows its own commit: what a client was told
 * is on disk, exactly as with a transaction per request. Decisions stay atomic: each piece of work runs in its own
 * savepoint, in turn, inside the one transaction that holds the write lock, so it sees every earlier one's writes
 * and no other process can write in between.
 */
export interface GroupCommit {
  /**
   * Runs `work` now, synchronously, inside this turn's transaction (opened when none is); resolves its value once
   * that transaction has committed. A `work` that throws rolls back its own writes only and rejects.
   */
  run<T>(work: () => T): Promise<T>;
  /** Commits the open transaction now: before the database is closed. */
  flush(): void;
  /** Whether a `work` of `run` is running now: inside its own savepoint, which already makes it atomic. */
  inWork(): boolean;
}

// The value and the promise's own functions, not a closure over them: the server runs under tsx, whose transpiler
// names every function it stores in a property (Object.defineProperty), and this is made once per verification.
interface Waiter {
  value: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function createGroupCommit(db: Database, schedule: (flush: () => void) => void = setImmediate): GroupCommit {
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");
  // A nested better-sqlite3 transaction is a savepoint, rolled back alone when its function throws.
  const savepoint = db.transaction((work: () => void) => work());
  let waiters: Waiter[] | undefined;
  let working = 0;

  function inSavepoint<T>(work: () => T): T {
    let result: { value: T } | undefined;
    savepoint(() => {
      working += 1;
      try {
        result = { value: work() };
      } finally {
        working -= 1;
      }
    });
    if (result === undefined) throw new Error("the savepoint ran nothing");
    return result.value;
  }

  function flush(): void {
    const settled = waiters;
    if (settled === undefined) return;
    waiters = undefined;
    try {
      commit.run();
    } catch (error) {
      // COMMIT fails only on I/O errors (disk full): nothing of the group is kept, and every request says so.
      if (db.inTransaction) rollback.run();
      for (const waiter of settled) waiter.reject(error);
      return;
    }
    for (const waiter of settled) waiter.resolve(waiter.value);
  }

  return {
    run<T>(work: () => T): Promise<T> {
      // The executor runs at once: `work` runs now, and whatever it (or BEGIN) throws rejects.
      return new Promise<T>((resolve, reject) => {
        if (waiters === undefined) {
          // Someone else's transaction is open (a caller inside db.transaction): the work joins it, its owner commits.
          if (db.inTransaction) {
            resolve(inSavepoint(work));
            return;
          }
          begin.run();
          waiters = [];
          schedule(flush);
        }
        const value = inSavepoint(work);
        waiters.push({ value, resolve, reject });
      });
    },
    flush,
    inWork: () => working > 0,
  };
}
