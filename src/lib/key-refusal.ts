import type { KeyFacts } from "./key-facts";
import type { AnalyticsOutcome } from "./verification-outcomes";

/**
 * Whether a key is refused and why, and what would make it pass: decided here once; the keys table's statuses, the
 * key page's sentence and its fix buttons each say it in their own words. Types only beside the rules, so the keys
 * page's first screen pays nothing for the outcomes' texts.
 */

/** A reason in the key's own fields that refuses every verification now. */
export type FieldRefusal = "disabled" | "expired" | "no-credits";

/** What the server records for each (server/keys/verify-key.ts). */
export const FIELD_REFUSAL_OUTCOMES: Record<FieldRefusal, AnalyticsOutcome> = {
  disabled: "DISABLED",
  expired: "EXPIRED",
  "no-credits": "USAGE_EXCEEDED",
};

/**
 * Every reason the key's fields refuse it now, in the order the server checks them (disabled, then expired, then
 * credits): the first is the outcome it records. Out of credits: fewer left than a verification costs (1).
 */
export function fieldRefusals(key: KeyFacts, now: number): FieldRefusal[] {
  const refusals: FieldRefusal[] = [];
  if (key.enabled === false) refusals.push("disabled");
  if (key.expires !== undefined && key.expires <= now) refusals.push("expired");
  const remaining = key.credits?.remaining;
  if (typeof remaining === "number" && remaining <= 0) refusals.push("no-credits");
  return refusals;
}

/** Verifications counted by outcome. */
export type OutcomeCounts = Record<AnalyticsOutcome, number>;

/** The refusal most verifications got, or null when none was refused. */
export function dominantRefusal(counts: OutcomeCounts): AnalyticsOutcome | null {
  let best: AnalyticsOutcome | null = null;
  for (const [outcome, count] of Object.entries(counts) as [AnalyticsOutcome, number][]) {
    if (outcome === "VALID" || count === 0) continue;
    if (best === null || count > counts[best]) best = outcome;
  }
  return best;
}

/** What would let the key's verifications pass. */
export type Fix = "enable" | "add-credits" | "extend-expiry" | "remove-expiry" | "add-permission" | "raise-limit";

export interface KeyRefusal {
  /** What in the key's fields refuses it now, in the server's order (none: they let it pass). */
  fields: FieldRefusal[];
  /** The refusal most of its recent verifications got, when known. */
  recorded: AnalyticsOutcome | null;
  /** In the order they are offered. */
  fixes: Fix[];
}

/**
 * Why the key is refused, from its fields now and what its recent verifications were mostly refused as, and the
 * fixes: for each field that refuses it, and for a recorded refusal its fields cannot show (a permission asked for,
 * a rate limit); a recorded refusal its fields no longer show (disabled, since enabled) needs none.
 */
export function keyRefusal(key: KeyFacts, now: number, recorded: AnalyticsOutcome | null): KeyRefusal {
  const fields = fieldRefusals(key, now);
  const fixes: Fix[] = [];
  if (fields.includes("disabled")) fixes.push("enable");
  if (fields.includes("no-credits")) fixes.push("add-credits");
  if (fields.includes("expired")) fixes.push("extend-expiry", "remove-expiry");
  if (recorded === "INSUFFICIENT_PERMISSIONS") fixes.push("add-permission");
  if (recorded === "RATE_LIMITED") fixes.push("raise-limit");
  return { fields, recorded, fixes };
}
