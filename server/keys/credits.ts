import type { KeyRecord } from "../db/key-store";

export interface CreditState {
  /** null: unlimited. */
  remaining: number | null;
  lastRefillAt: number | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The latest refill moment at or before `now` (UTC midnight), for a daily or a monthly refill on `refillDay`. */
export function latestRefillMoment(interval: "daily" | "monthly", refillDay: number, now: number): number {
  if (interval === "daily") return Math.floor(now / DAY_MS) * DAY_MS;
  const today = new Date(now);
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  // A refill day past the month's end falls on its last day, as the real service does.
  const thisMonth = Date.UTC(year, month, Math.min(refillDay, daysInMonth(year, month)));
  if (thisMonth <= now) return thisMonth;
  const previous = new Date(Date.UTC(year, month - 1, 1));
  const previousYear = previous.getUTCFullYear();
  const previousMonth = previous.getUTCMonth();
  return Date.UTC(previousYear, previousMonth, Math.min(refillDay, daysInMonth(previousYear, previousMonth)));
}

/**
 * The key's credits at `now`, refills applied lazily: a refill due since the last one (or since the key was
 * made) sets the remaining credits to the refill amount, as the real service's refill does.
 */
export function creditsAt(key: KeyRecord, now: number): CreditState {
  const state = { remaining: key.credits_remaining, lastRefillAt: key.last_refill_at };
  if (key.refill_interval === null || key.refill_amount === null) return state;
  const due = latestRefillMoment(key.refill_interval, key.refill_day ?? 1, now);
  const last = key.last_refill_at ?? key.created_at;
  if (last >= due) return state;
  return { remaining: key.refill_amount, lastRefillAt: now };
}
