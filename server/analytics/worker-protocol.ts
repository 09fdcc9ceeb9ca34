import type { AnalyticsLimits } from "./limits";
import type { QueryRequest } from "./query-engine";
import type { QueryOutcome } from "./query-outcome";
import type { RetentionResult } from "./retention";
import type { StoreLocation } from "./store-files";
import type { FamilyName } from "./store-schema";
import type { MessagePort } from "node:worker_threads";

/** The messages between the analytics thread (analytics-worker.ts) and the thread that started it. */

export interface WorkerConfig {
  sqlitePath: string;
  location: StoreLocation;
  limits: AnalyticsLimits;
  rollup: boolean;
  /** How often the thread catches up by itself (ms); undefined: only when asked. */
  backgroundMs: number | undefined;
  /** Write the copy's progress to stderr (the admin CLI on a terminal). */
  progress: boolean;
  /**
   * Catch up once and stop (the admin CLI, which waits on `signal` without an event loop): the result goes to `reply`,
   * then `signal[0]` becomes 1; `signal[1]` counts up while the thread works. A store another process holds is left
   * to it (no private copy).
   */
  once?: { reply: MessagePort; signal: SharedArrayBuffer };
}

/** What a thread started with `once` replies. */
export type OnceResult =
  { kind: "caught-up"; state: CatchUpState } | { kind: "held"; message: string } | { kind: "failed"; message: string };

export type ToWorker =
  | { type: "query"; id: number; request: QueryRequest }
  | { type: "catch-up"; id: number }
  | { type: "retention"; id: number; now: number }
  | { type: "close"; id: number }
  /** How busy the request thread has been lately (its event-loop utilization, 0 to 1): background work yields to it. */
  | { type: "load"; utilization: number };

/** What `catch-up` reports: how far the store's copy of each family and the sums by key have got. */
export interface CatchUpState {
  copiedSeqs: Record<FamilyName, number>;
  foldedSeq: number | undefined;
}

export type FromWorker =
  | { type: "ready"; location: StoreLocation; reset: string | undefined }
  | { type: "failed"; message: string }
  | { type: "answer"; id: number; outcome: QueryOutcome }
  | { type: "caught-up"; id: number; state: CatchUpState }
  | { type: "retained"; id: number; result: RetentionResult }
  | { type: "error"; id: number; message: string }
  | { type: "closed"; id: number }
  | { type: "running"; count: number };
