import type { KeyCredits } from "../../../lib/contract";
import type { RatelimitInput } from "../../../lib/api/key-changes";

/** The form's text, read into the request fields; each problem is said by field so the form can point at it. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Meta is checked as it is typed: empty is none, else a JSON object. */
export function parseMeta(text: string): Parsed<Record<string, unknown> | undefined> {
  if (text.trim() === "") return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not JSON: ${error instanceof Error ? error.message : "cannot be read"}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, error: 'Meta must be a JSON object, like {"plan": "pro"}' };
  return { ok: true, value: { ...value } };
}

/** A `datetime-local` value (the user's time zone) as Unix milliseconds; empty is no expiry. It must be in the future. */
export function parseExpires(text: string, now: number): Parsed<number | undefined> {
  if (text.trim() === "") return { ok: true, value: undefined };
  const at = new Date(text).getTime();
  if (!Number.isFinite(at)) return { ok: false, error: "Not a date and time" };
  if (at <= now) return { ok: false, error: "Pick a time in the future" };
  return { ok: true, value: at };
}

/** A whole number of at least `min`, or empty for none. */
export function parseWhole(text: string, min: number): Parsed<number | undefined> {
  if (text.trim() === "") return { ok: true, value: undefined };
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) return { ok: false, error: `A whole number of at least ${min}` };
  return { ok: true, value };
}

export type RefillChoice = "none" | "daily" | "monthly";

/** Credits: empty is unlimited; a refill needs an amount, and a monthly one its day of the month (the service requires it). */
export function parseCredits(remaining: string, refill: RefillChoice, amount: string, refillDay = ""): Parsed<KeyCredits | undefined> {
  const count = parseWhole(remaining, 0);
  if (!count.ok) return count;
  if (count.value === undefined) return refill === "none" ? { ok: true, value: undefined } : { ok: false, error: "A refill needs a number of credits to start with" };
  if (refill === "none") return { ok: true, value: { remaining: count.value } };
  const refillAmount = parseWhole(amount, 1);
  if (!refillAmount.ok) return refillAmount;
  if (refillAmount.value === undefined) return { ok: false, error: "Say how many credits each refill gives" };
  if (refill === "daily") return { ok: true, value: { remaining: count.value, refill: { interval: refill, amount: refillAmount.value } } };
  const day = parseWhole(refillDay, 1);
  if (!day.ok || day.value === undefined || day.value > 31) return { ok: false, error: "A monthly refill needs its day of the month, 1 to 31" };
  return { ok: true, value: { remaining: count.value, refill: { interval: refill, amount: refillAmount.value, refillDay: day.value } } };
}

export interface RatelimitRow {
  name: string;
  limit: string;
  /** Seconds, as typed. */
  seconds: string;
}

export function parseRatelimits(rows: readonly RatelimitRow[]): Parsed<RatelimitInput[]> {
  const limits: RatelimitInput[] = [];
  for (const row of rows) {
    if (row.name.trim() === "" && row.limit.trim() === "" && row.seconds.trim() === "") continue;
    if (row.name.trim() === "") return { ok: false, error: "Each rate limit needs a name" };
    const limit = parseWhole(row.limit, 1);
    const seconds = parseWhole(row.seconds, 1);
    if (!limit.ok || limit.value === undefined) return { ok: false, error: `Rate limit ${row.name}: requests must be a whole number of at least 1` };
    if (!seconds.ok || seconds.value === undefined) return { ok: false, error: `Rate limit ${row.name}: the window must be a whole number of seconds` };
    limits.push({ name: row.name.trim(), limit: limit.value, duration: seconds.value * 1000 });
  }
  return { ok: true, value: limits };
}

/** `a, b c` → ["a", "b", "c"], without repeats. */
export function splitNames(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((name) => name !== ""))];
}
