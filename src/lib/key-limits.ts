import { formatCount, formatCountOf } from "./format-number";
import { formatRelativeTime, formatUtcTime } from "./format-time";
import type { Credits, KeyFacts, RateLimit } from "./key-facts";

/**
 * When a key's limits give way (its credits refill, a rate limit's window resets) and which rate limits apply:
 * what a key's page and Troubleshoot explain a refusal with. Apart from key-facts.ts, which the keys table's
 * first rows need, so that they do not wait for these.
 */

const DAY_MS = 86_400_000;

/**
 * When the credits refill next: daily at the next midnight UTC; monthly on `refillDay` (1 when absent, the
 * month's last day when it is shorter). Null when the key has no refill.
 */
export function nextRefill(credits: Credits | undefined, now: number): number | null {
  const refill = credits?.refill;
  if (refill === undefined) return null;
  if (refill.interval === "daily") return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  const day = Math.min(31, Math.max(1, Math.trunc(refill.refillDay ?? 1)));
  const today = new Date(now);
  for (let months = 0; months <= 2; months++) {
    const year = today.getUTCFullYear();
    const month = today.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const at = Date.UTC(year, month, Math.min(day, lastDay));
    if (at > now) return at;
  }
  return null;
}

/**
 * The rate limits every verification of the key is checked against, as the server picks them
 * (server/keys/verify-key.ts): its identity's, then its own by the same name in their place. `sharedBy` is the
 * identity's external id when the counter is the identity's, one for all of its keys.
 */
export function appliedRateLimits(key: KeyFacts): { limit: RateLimit; sharedBy?: string }[] {
  const byName = new Map<string, { limit: RateLimit; sharedBy?: string }>();
  const identity = key.identity;
  for (const limit of identity?.ratelimits ?? [])
    byName.set(limit.name, { limit, ...(identity && { sharedBy: identity.externalId }) });
  for (const limit of key.ratelimits ?? []) byName.set(limit.name, { limit });
  return [...byName.values()].filter(({ limit }) => limit.autoApply !== false);
}

/** "100 per 1 minute", "5 per 10 seconds". */
export function formatRateLimit(limit: RateLimit): string {
  return `${formatCount(limit.limit)} per ${formatDuration(limit.duration)}`;
}

const DURATION_UNITS: [string, number][] = [
  ["day", DAY_MS],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
  ["millisecond", 1],
];

/** The largest unit that divides the duration evenly: "1 minute", "90 seconds", "250 milliseconds". */
export function formatDuration(ms: number): string {
  for (const [unit, size] of DURATION_UNITS) {
    if (ms >= size && ms % size === 0) {
      return formatCountOf(ms / size, unit);
    }
  }
  return `${ms} ms`;
}

/**
 * When the window of a rate limit that refused at `time` ends: the server's windows are fixed and aligned to
 * multiples of the duration (a 1 h limit resets at the next full hour).
 */
export function windowReset(time: number, duration: number): number {
  return time - (time % duration) + duration;
}

/** "resets at 2026-11-26 07:31:00 UTC (in 40 seconds)", or "reset at …, passed" (a reset that has passed is not a wait). */
export function describeReset(reset: number, now: number): string | null {
  const time = formatUtcTime(reset);
  if (time === null) return null;
  return reset > now ? `resets at ${time} (${formatRelativeTime(reset, now)})` : `reset at ${time}, passed`;
}
