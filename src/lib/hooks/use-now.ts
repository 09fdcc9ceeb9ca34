import { useEffect, useSyncExternalStore } from "react";

/**
 * The current time, advancing once a minute, for "3 days ago" and the Expired badge.
 * One shared clock: every subscriber reads the same instant, so a render never mixes two.
 */
const TICK_MS = 60_000;
let now = Date.now();
/** Whether `now` is old: the clock is stopped (no page holds it), and the next read takes the time of now. */
let stale = true;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

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
      stale = true;
    }
  };
}

function getSnapshot(): number {
  // The first read after the clock stopped takes the time of now; every later one (the rest of that render, however
  // many tasks it spans, and React's checks at commit) reads the same instant.
  if (stale) {
    now = Date.now();
    stale = false;
  }
  return now;
}

export function useNow(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** The longest wait useTickAt schedules (setTimeout's limit is about 24 days). */
const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000;

/**
 * Advances the clock at `instant` as well (a key's expiry, a rate limit window's reset), so that what turns then
 * is said then, not up to a minute later. Nothing while no page holds the clock.
 */
export function useTickAt(instant: number | undefined): void {
  useEffect(() => {
    if (instant === undefined) return;
    const wait = instant - Date.now();
    if (wait > LONGEST_WAIT_MS) return;
    // Already past by the wall clock though ahead of the page's, which ticks once a minute: now (a key whose page
    // was open when a reroll stopped it at once). Else a millisecond after: at `instant` itself it has not passed.
    const extra = setTimeout(
      () => {
        if (timer === undefined) return;
        clearTimeout(timer);
        tick();
      },
      Math.max(0, wait) + 1,
    );
    return () => clearTimeout(extra);
  }, [instant]);
}
