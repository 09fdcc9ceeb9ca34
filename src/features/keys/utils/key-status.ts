import type { Key } from "@/lib/contract";
import { fieldRefusals, type FieldRefusal } from "@/lib/key-refusal";

/**
 * A key's status as badges: what its fields say (disabled, expired, expiring, credits) and what its recent
 * verifications say (rate limited, many refusals). Pure, so every threshold is tested without a browser.
 */
export type FieldStatus = FieldRefusal | "expiring" | "low-credits";
export type UsageStatus = "rate-limited" | "many-refusals";
export type KeyStatusKind = FieldStatus | UsageStatus;
/** The status filter's choices: the field statuses, and "ok" for a key with none of them. */
export type StatusFacet = FieldStatus | "ok";

export const EXPIRING_WITHIN_MS = 24 * 60 * 60 * 1000;
/** Without a refill to compare with, this many credits left is "low". */
export const LOW_CREDITS = 10;
/** With a refill, less than this share of one refill left is "low". */
export const LOW_CREDITS_SHARE = 0.1;
/** "Many refusals": at least this many, and at least this share of the window's verifications. */
export const MANY_REFUSALS_MIN = 5;
export const MANY_REFUSALS_SHARE = 0.2;

export const STATUS_LABELS: Record<KeyStatusKind | "ok", string> = {
  disabled: "Disabled",
  expired: "Expired",
  expiring: "Expires within 24 h",
  "no-credits": "Out of credits",
  "low-credits": "Low on credits",
  "rate-limited": "Rate limited",
  "many-refusals": "Many refusals",
  ok: "No problem",
};

/** A key with status fields and nothing wrong. */
export const ACTIVE_LABEL = "Active";

export type KeyStatusTone = "danger" | "warn" | "muted" | "ok";

export const STATUS_TONES: Record<KeyStatusKind, Exclude<KeyStatusTone, "ok">> = {
  disabled: "muted",
  expired: "danger",
  expiring: "warn",
  "no-credits": "danger",
  "low-credits": "warn",
  "rate-limited": "warn",
  "many-refusals": "warn",
};

/**
 * The statuses a key's own fields give it, most severe first: what refuses it (lib/key-refusal.ts decides), and the
 * warnings of what soon will. An expired key is not also "expiring", nor one out of credits "low".
 */
export function fieldStatuses(key: Key, now: number): FieldStatus[] {
  const refused = fieldRefusals(key, now);
  const statuses: FieldStatus[] = [];
  if (refused.includes("disabled")) statuses.push("disabled");
  if (refused.includes("expired")) statuses.push("expired");
  else if (key.expires !== undefined && key.expires - now <= EXPIRING_WITHIN_MS) statuses.push("expiring");
  const remaining = key.credits?.remaining;
  if (refused.includes("no-credits")) statuses.push("no-credits");
  else if (typeof remaining === "number" && remaining <= lowCreditsThreshold(key)) statuses.push("low-credits");
  return statuses;
}

function lowCreditsThreshold(key: Key): number {
  const refill = key.credits?.refill?.amount;
  return refill !== undefined && refill > 0 ? refill * LOW_CREDITS_SHARE : LOW_CREDITS;
}

/** The status filter's values for a key: its field statuses, or "ok". */
export function statusFacets(key: Key, now: number): StatusFacet[] {
  const statuses = fieldStatuses(key, now);
  return statuses.length === 0 ? ["ok"] : statuses;
}

/** The status filter's choices, in its order. */
export const STATUS_FILTER_FACETS: readonly StatusFacet[] = [
  "expired",
  "disabled",
  "no-credits",
  "expiring",
  "low-credits",
  "ok",
];

/** How many of the keys have each status. */
export function countStatuses(keys: readonly Key[], now: number): ReadonlyMap<StatusFacet, number> {
  const counts = new Map<StatusFacet, number>();
  for (const key of keys) for (const facet of statusFacets(key, now)) counts.set(facet, (counts.get(facet) ?? 0) + 1);
  return counts;
}

/**
 * The choices the status filter offers: those some key has, and those chosen. None when there is nothing to
 * choose between (every key is fine, or the API sends no field a status comes from).
 */
export function offeredFacets(
  counts: ReadonlyMap<StatusFacet, number>,
  selected: readonly StatusFacet[],
): StatusFacet[] {
  const offered = STATUS_FILTER_FACETS.filter((facet) => (counts.get(facet) ?? 0) > 0 || selected.includes(facet));
  return offered.length <= 1 && selected.length === 0 ? [] : offered;
}

/** Verifications in the usage window, counted by outcome. */
export interface UsageTotals {
  valid: number;
  rateLimited: number;
  /** Every outcome but VALID, rate limiting included. */
  refused: number;
}

export function usageStatuses(totals: UsageTotals | undefined): UsageStatus[] {
  if (totals === undefined) return [];
  const statuses: UsageStatus[] = [];
  if (totals.rateLimited > 0) statuses.push("rate-limited");
  const all = totals.valid + totals.refused;
  const otherRefusals = totals.refused - totals.rateLimited;
  if (otherRefusals >= MANY_REFUSALS_MIN && otherRefusals >= all * MANY_REFUSALS_SHARE) statuses.push("many-refusals");
  return statuses;
}

export function keyStatuses(key: Key, now: number, usage?: UsageTotals): KeyStatusKind[] {
  return [...fieldStatuses(key, now), ...usageStatuses(usage)];
}

/** Whether the API sent any field a status is judged by; without one, a key's status is unknown, not "Active". */
export function hasStatusFields(key: Key): boolean {
  return key.enabled !== undefined || key.expires !== undefined || key.credits !== undefined;
}

/** What the Status column shows for a key, worst first: its statuses, "Active" when nothing is wrong, none when unknown. */
export function statusLabels(key: Key, now: number, usage?: UsageTotals): { label: string; tone: KeyStatusTone }[] {
  const statuses = keyStatuses(key, now, usage);
  if (statuses.length === 0) return hasStatusFields(key) ? [{ label: ACTIVE_LABEL, tone: "ok" }] : [];
  return statuses.map((status) => ({ label: STATUS_LABELS[status], tone: STATUS_TONES[status] }));
}
