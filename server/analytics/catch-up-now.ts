import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import type { Database } from "better-sqlite3";
import { DEFAULT_ANALYTICS_LIMITS } from "./limits";
import { claimStore, releaseStore } from "./store-files";
import type { CatchUpState, OnceResult, WorkerConfig } from "./worker-protocol";
import { startTypeScriptWorker } from "./worker-thread";

/** A thread that has not counted up for this long has stopped: its caller stops waiting. */
const SILENT_AT_MOST_MS = 60_000;

export type CatchUpNowResult =
  | { kind: "caught-up"; copiedSeqs: CatchUpState["copiedSeqs"] }
  /** A running server holds the store: it copies the new rows itself. */
  | { kind: "left-to-server"; reason: string };

/**
 * Brings the analytics store and the per-hour sums beside `sqlite`'s file up to date with every verification and
 * rate-limit decision committed now, as a running server's analytics thread would, and waits for it (synchronously:
 * the admin CLI's commands are). The admin CLI's `traffic` calls it, so that the next `npm start` answers analytics at once instead of copying
 * millions of rows first. Throws when the copy fails.
 */
export function catchUpAnalyticsNow(sqlite: Database, { progress }: { progress: boolean }): CatchUpNowResult {
  const location = claimStore(sqlite.name);
  if (location.private) {
    releaseStore(location);
    return { kind: "left-to-server", reason: "an analytics engine of this process holds the store" };
  }
  const signal = new SharedArrayBuffer(8);
  const state = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const config: WorkerConfig = {
    sqlitePath: sqlite.name,
    location,
    limits: DEFAULT_ANALYTICS_LIMITS,
    rollup: true,
    backgroundMs: undefined,
    progress,
    once: { reply: port2, signal },
  };
  const worker = startTypeScriptWorker(new URL("./analytics-worker.ts", import.meta.url), {
    workerData: config,
    transferList: [port2],
  });
  try {
    let beat = Atomics.load(state, 1);
    let beatAt = Date.now();
    // The thread signals when done; in between, its heartbeat says it still works.
    while (Atomics.wait(state, 0, 0, 1_000) === "timed-out") {
      const now = Atomics.load(state, 1);
      if (now !== beat) {
        beat = now;
        beatAt = Date.now();
      } else if (Date.now() - beatAt > SILENT_AT_MOST_MS) {
        throw new Error("the analytics thread stopped answering while it copied the new rows");
      }
    }
    const received = receiveMessageOnPort(port1)?.message as OnceResult | undefined;
    if (received === undefined) throw new Error("the analytics thread stopped without saying how far it got");
    if (received.kind === "held") return { kind: "left-to-server", reason: received.message };
    if (received.kind === "failed") throw new Error(`the analytics copy failed: ${received.message}`);
    return { kind: "caught-up", copiedSeqs: received.state.copiedSeqs };
  } finally {
    port1.close();
    void worker.terminate();
    releaseStore(location);
  }
}
