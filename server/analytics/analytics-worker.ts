import { writeSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { openStore, type OpenStore } from "./open-store";
import { isLockConflict } from "./store-files";
import { createQueryEngine } from "./query-engine";
import { requestLoadPacing } from "./pacing";
import { enforceRetention } from "./retention";
import type { CatchUpState, FromWorker, OnceResult, ToWorker, WorkerConfig } from "./worker-protocol";

/**
 * The analytics thread: DuckDB and its store, the copies of new verifications and rate-limit decisions into it,
 * SQLite's per-hour sums by key, the queries, and retention. Everything long (a copy, a fold, a query's result JSON) runs here, never on the thread
 * that answers requests (engine.ts talks to this one by messages).
 */

const port = parentPort;
if (port === null) throw new Error("analytics-worker.ts runs as a worker thread");
const config = workerData as WorkerConfig;

function send(message: FromWorker): void {
  port?.postMessage(message);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stateOf(store: OpenStore): CatchUpState {
  return {
    copiedSeqs: { verifications: store.copies.verifications.copiedSeq, ratelimits: store.copies.ratelimits.copiedSeq },
    foldedSeq: store.keyRollup?.foldedSeq(),
  };
}

/**
 * Copies and folds everything committed now: the verifications' copy first (sums far behind it are then made anew
 * from it, faster than folded), their sums, then the rate-limit decisions' copy. In the background (a server's own
 * catch-up) each paces itself, so that verification keeps most of the machine; for someone waiting (the admin CLI, a
 * test) they run at full speed.
 */
async function catchUpAll(store: OpenStore, { background }: { background: boolean }): Promise<void> {
  const { verifications, ratelimits } = store.copies;
  const newest = verifications.newestSeq();
  if (newest > verifications.copiedSeq) await verifications.catchUp(newest, { background });
  if (store.keyRollup !== undefined && newest > store.keyRollup.foldedSeq())
    await store.keyRollup.catchUp(newest, { background });
  const newestDecision = ratelimits.newestSeq();
  if (newestDecision > ratelimits.copiedSeq) await ratelimits.catchUp(newestDecision, { background });
}

/**
 * `analytics: 1,234,567 of 10,000,000 verifications copied, 1,000,000 summed by key` on a terminal's line (and the
 * rate-limit decisions' copy, when there are any).
 */
function progressReporter(store: OpenStore): () => void {
  const { verifications, ratelimits } = store.copies;
  const newest = verifications.newestSeq();
  const newestDecision = ratelimits.newestSeq();
  const say = (end: string) => {
    const folded = store.keyRollup?.foldedSeq();
    const decisions =
      newestDecision === 0
        ? ""
        : `, ${ratelimits.copiedSeq.toLocaleString("en")} of ${newestDecision.toLocaleString("en")} rate-limit decisions`;
    const line = `analytics: ${verifications.copiedSeq.toLocaleString("en")} of ${newest.toLocaleString("en")} verifications copied${folded === undefined ? "" : `, ${folded.toLocaleString("en")} summed by key`}${decisions}`;
    writeSync(2, `\r${line}${end}`);
  };
  const timer = setInterval(() => say(""), 500);
  return () => {
    clearInterval(timer);
    say("\n");
  };
}

/** The admin CLI's catch-up: everything committed now, copied and summed, then the files closed. */
async function catchUpOnce(once: NonNullable<WorkerConfig["once"]>): Promise<void> {
  const signal = new Int32Array(once.signal);
  // The CLI's thread waits without an event loop: this count tells it the thread is still at work.
  const heartbeat = setInterval(() => Atomics.add(signal, 1, 1), 1_000);
  let result: OnceResult;
  try {
    const store = await openStore({ ...config, whenHeld: "fail" });
    try {
      const done = config.progress ? progressReporter(store) : () => undefined;
      try {
        await catchUpAll(store, { background: false });
      } finally {
        done();
      }
      result = { kind: "caught-up", state: stateOf(store) };
    } finally {
      await store.close();
    }
  } catch (error) {
    result = isLockConflict(error)
      ? { kind: "held", message: errorMessage(error) }
      : { kind: "failed", message: errorMessage(error) };
  } finally {
    clearInterval(heartbeat);
  }
  once.reply.postMessage(result);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
  once.reply.close();
}

const pacing = requestLoadPacing();

async function main(): Promise<void> {
  if (config.once !== undefined) {
    await catchUpOnce(config.once);
    return;
  }
  let store: OpenStore;
  try {
    store = await openStore({ ...config, whenHeld: "private", pacing });
  } catch (error) {
    send({ type: "failed", message: errorMessage(error) });
    return;
  }
  const engine = createQueryEngine({
    instance: store.instance,
    limits: config.limits,
    copies: store.copies,
    keyRollup: store.keyRollup,
    onRunning: (count) => send({ type: "running", count }),
  });
  send({ type: "ready", location: store.location, reset: store.reset });

  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  let background: Promise<void> = Promise.resolve();
  const tick = () => {
    background = catchUpAll(store, { background: true })
      .catch(() => undefined)
      .then(() => {
        if (!closing && config.backgroundMs !== undefined) timer = setTimeout(tick, config.backgroundMs);
      });
  };
  if (config.backgroundMs !== undefined) tick();

  async function handle(message: ToWorker): Promise<void> {
    switch (message.type) {
      case "query":
        send({ type: "answer", id: message.id, outcome: await engine.query(message.request) });
        return;
      case "catch-up": {
        const done = config.progress ? progressReporter(store) : () => undefined;
        try {
          await catchUpAll(store, { background: false });
        } finally {
          done();
        }
        send({ type: "caught-up", id: message.id, state: stateOf(store) });
        return;
      }
      case "retention": {
        // Only rows both copies hold leave SQLite: first everything committed now.
        await catchUpAll(store, { background: true });
        const settledSeqs = {
          verifications: Math.min(store.copies.verifications.copiedSeq, store.keyRollup?.foldedSeq() ?? Infinity),
          ratelimits: store.copies.ratelimits.copiedSeq,
        };
        const result = await enforceRetention({ sqlite: store.sqlite, duckdb: store.admin, settledSeqs }, message.now);
        send({ type: "retained", id: message.id, result });
        return;
      }
      case "close":
        closing = true;
        clearTimeout(timer);
        await engine.close();
        // The copy and the fold stop after their current batch; what else was asked ends before the files close.
        await Promise.all([store.copies.verifications.stop(), store.copies.ratelimits.stop(), store.keyRollup?.stop()]);
        await Promise.allSettled([background, ...handling]);
        await store.close();
        send({ type: "closed", id: message.id });
        port?.close();
        return;
    }
  }

  const handling = new Set<Promise<void>>();
  port?.on("message", (message: ToWorker) => {
    if (message.type === "load") {
      pacing.setLoad(message.utilization);
      return;
    }
    const done = handle(message).catch((error: unknown) =>
      send({ type: "error", id: message.id, message: errorMessage(error) }),
    );
    if (message.type === "close") return;
    handling.add(done);
    void done.then(() => handling.delete(done));
  });
}

await main();
