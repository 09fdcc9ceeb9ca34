import { useSyncExternalStore } from "react";

/**
 * The current time, advancing once a minute, for "3 days ago" and the Expired badge.
 * One shared clock: every subscriber reads the same instant, so a render never mixes two.
 */
const TICK_MS = 60_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

/** Whether this task already read the stopped clock: every component of one render reads the same instant. */
let readInThisTask = false;

function tick(): void {
  now = Date.now();
  timer = setTimeout(tick, TICK_MS);
  for (const notify of listeners) notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    // Not re-read here: an instant that moved between a page's first render and its subscription would render
    // the whole page twice before anyone sees it.
    timer = setTimeout(tick, Math.max(0, now + TICK_MS - Date.now()));
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
}

function getSnapshot(): number {
  // While no page holds the clock it does not tick: a render reads the time of now, once for all its components.
  if (timer === undefined && !readInThisTask) {
    now = Date.now();
    readInThisTask = true;
    queueMicrotask(() => {
      readInThisTask = false;
    });
  }
  return now;
}

export function useNow(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
