import type { KeyCredits } from "@/lib/contract";
import type { CreditsUpdate, RatelimitInput } from "@/lib/api/key-changes";

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
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, error: 'Meta must be a JSON object, like {"plan": "pro"}' };
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

/** The credits fields as typed. */
export interface CreditsDraft {
  /** Empty: unlimited. */
  remaining: string;
  refill: RefillChoice;
  amount: string;
  /** A monthly refill's day of the month. */
  refillDay: string;
}

/** A key's credits as the form shows them; a new monthly refill starts on today's day (UTC, as the service counts). */
export function creditsDraft(credits: KeyCredits | undefined, now: number): CreditsDraft {
  const refill = credits?.remaining === null ? undefined : credits?.refill;
  return {
    remaining: credits?.remaining === undefined || credits.remaining === null ? "" : String(credits.remaining),
    refill: refill?.interval ?? "none",
    amount: refill === undefined ? "" : String(refill.amount),
    refillDay: String(refill?.refillDay ?? (new Date(now).getUTCDate() || 1)),
  };
}

/** Credits: empty is unlimited; a refill needs an amount, and a monthly one its day of the month (the service requires it). */
export function parseCredits(draft: CreditsDraft): Parsed<KeyCredits | undefined> {
  const count = parseWhole(draft.remaining, 0);
  if (!count.ok) return count;
  if (count.value === undefined)
    return draft.refill === "none"
      ? { ok: true, value: undefined }
      : { ok: false, error: "A refill needs a number of credits to start with" };
  if (draft.refill === "none") return { ok: true, value: { remaining: count.value } };
  const refillAmount = parseWhole(draft.amount, 1);
  if (!refillAmount.ok) return refillAmount;
  if (refillAmount.value === undefined) return { ok: false, error: "Say how many credits each refill gives" };
  if (draft.refill === "daily")
    return { ok: true, value: { remaining: count.value, refill: { interval: "daily", amount: refillAmount.value } } };
  const day = parseWhole(draft.refillDay, 1);
  if (!day.ok || day.value === undefined || day.value > 31)
    return { ok: false, error: "A monthly refill needs its day of the month, 1 to 31" };
  return {
    ok: true,
    value: {
      remaining: count.value,
      refill: { interval: "monthly", amount: refillAmount.value, refillDay: day.value },
    },
  };
}

/**
 * What keys.updateKey needs to go from credits `before` to `after` (undefined: unlimited), sending only the part that
 * changed: the remaining count alone, the refill alone, both, or `null` for unlimited. Undefined when nothing changed.
 */
export function creditsUpdate(
  before: KeyCredits | undefined,
  after: KeyCredits | undefined,
): CreditsUpdate | null | undefined {
  const limitedBefore = before !== undefined && before.remaining !== null;
  if (after === undefined) return limitedBefore ? null : undefined;
  const update: CreditsUpdate = {};
  if (!limitedBefore || before.remaining !== after.remaining) update.remaining = after.remaining;
  const refillBefore = limitedBefore ? before.refill : undefined;
  if (JSON.stringify(refillBefore ?? null) !== JSON.stringify(after.refill ?? null))
    update.refill = after.refill ?? null;
  return Object.keys(update).length === 0 ? undefined : update;
}

export interface RatelimitRow {
  name: string;
  limit: string;
  /** Seconds, as typed. */
  seconds: string;
  /** Checked against every verification, not only those that name it. */
  autoApply: boolean;
}

export const EMPTY_RATELIMIT: RatelimitRow = { name: "", limit: "", seconds: "", autoApply: true };

/** A key's rate limits as the form shows them. */
export function ratelimitRows(limits: readonly RatelimitInput[] | undefined): RatelimitRow[] {
  return (limits ?? []).map((limit) => ({
    name: limit.name,
    limit: String(limit.limit),
    seconds: String(limit.duration / 1000),
    autoApply: limit.autoApply ?? false,
  }));
}

/** Seconds to milliseconds: at least 1 second (the service's shortest window), to the millisecond. */
function parseSeconds(text: string): number | undefined {
  const seconds = Number(text);
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds < 1) return undefined;
  const ms = Math.round(seconds * 1000);
  return Math.abs(ms - seconds * 1000) < 1e-6 ? ms : undefined;
}

export function parseRatelimits(rows: readonly RatelimitRow[]): Parsed<RatelimitInput[]> {
  const limits: RatelimitInput[] = [];
  for (const row of rows) {
    if (row.name.trim() === "" && row.limit.trim() === "" && row.seconds.trim() === "") continue;
    if (row.name.trim() === "") return { ok: false, error: "Each rate limit needs a name" };
    const limit = parseWhole(row.limit, 1);
    const duration = parseSeconds(row.seconds);
    if (!limit.ok || limit.value === undefined)
      return { ok: false, error: `Rate limit ${row.name}: requests must be a whole number of at least 1` };
    if (duration === undefined)
      return { ok: false, error: `Rate limit ${row.name}: the window must be at least 1 second (to the millisecond)` };
    if (limits.some((other) => other.name === row.name.trim()))
      return { ok: false, error: `Rate limit ${row.name} is there twice: each needs its own name` };
    limits.push({ name: row.name.trim(), limit: limit.value, duration, autoApply: row.autoApply });
  }
  return { ok: true, value: limits };
}

/** `a, b c` → ["a", "b", "c"], without repeats. */
export function splitNames(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((name) => name !== ""))];
}
