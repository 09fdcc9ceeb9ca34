/**
 * How long the analytics thread's background work (a copy, a fold, a refill that nobody waits for) pauses after each
 * slice of it, by how busy the thread that answers requests is: on an idle server a rebuild runs at full speed; under
 * traffic it takes at most about a fifth of a core, so verification and key listing keep their latency (two cores
 * here: the request thread, and DuckDB with the analytics thread).
 */
export interface Pacing {
  /** The pause after a slice of background work that took `workMs`. */
  pauseAfter(workMs: number): number;
}

/** The request thread's event loop busier than this (of its time): background work yields to it. */
const BUSY = 0.05;
/** At most this many times a slice's length in pause: a fifth of a core, or less, for the background. */
const MOST = 4;

export interface RequestLoadPacing extends Pacing {
  /** The request thread's event-loop utilization (0 to 1) over its last moments, as engine.ts reports it. */
  setLoad(utilization: number): void;
}

export function requestLoadPacing(): RequestLoadPacing {
  let load = 0;
  return {
    setLoad(utilization) {
      load = utilization;
    },
    pauseAfter(workMs) {
      if (load < BUSY) return 0;
      return workMs * Math.min(MOST, 1 + load * 10);
    },
  };
}

/** No pause: for work someone waits for (the admin CLI's copy). */
export const FULL_SPEED: Pacing = { pauseAfter: () => 0 };
