import type { AnalyticsOutcome } from "../../lib/verification-outcomes";
import { formatCount } from "../../lib/format-number";
import { formatPastTime, formatRelativeTime, formatUtcDay } from "../../lib/format-time";
import type { KeyFacts } from "../../lib/key-facts";
import {
  dominantRefusal,
  fieldRefusals,
  FIELD_REFUSAL_OUTCOMES,
  type FieldRefusal,
  type OutcomeCounts,
} from "../../lib/key-refusal";
import { appliedRateLimits, describeReset, formatRateLimit, nextRefill, windowReset } from "../../lib/key-limits";

export type VerdictTone = "ok" | "refused" | "warning" | "quiet";

export interface Verdict {
  tone: VerdictTone;
  text: string;
}

/** "3 days ago (Nov 20)": when something happened. */
function when(time: number, now: number): string {
  return `${formatPastTime(time, now)} (${formatUtcDay(time)})`;
}

function times(count: number): string {
  return count === 1 ? "once" : `${formatCount(count)} times`;
}

/** What refuses the key now (lib/key-refusal.ts decides), said, each with the outcome it produces: the first is recorded. */
function fieldReasons(key: KeyFacts, now: number): { outcome: AnalyticsOutcome; reason: string }[] {
  return fieldRefusals(key, now).map((refusal) => ({
    outcome: FIELD_REFUSAL_OUTCOMES[refusal],
    reason: fieldReason(refusal, key, now),
  }));
}

function fieldReason(refusal: FieldRefusal, key: KeyFacts, now: number): string {
  switch (refusal) {
    case "disabled":
      return "it is disabled";
    case "expired":
      return `it expired ${when(key.expires ?? now, now)}`;
    case "no-credits": {
      const refill = nextRefill(key.credits, now);
      return refill === null
        ? "it is out of credits and none are refilled"
        : `it is out of credits until they refill ${formatRelativeTime(refill, now)} (${formatUtcDay(refill)})`;
    }
  }
}

/** When the newest verification refused with an outcome was, when the page has read it. */
export type LatestRefusal = (outcome: AnalyticsOutcome) => number | undefined;

/** What a refusal outcome says about the key, for when its fields do not explain it. */
function outcomeReason(outcome: AnalyticsOutcome, key: KeyFacts): string {
  switch (outcome) {
    case "RATE_LIMITED": {
      const limits = appliedRateLimits(key);
      const only = limits.length === 1 ? limits[0] : undefined;
      if (only === undefined) return "callers went over a rate limit";
      const named = `rate limit “${only.limit.name}” (${formatRateLimit(only.limit)})`;
      return only.sharedBy === undefined
        ? `callers went over its ${named}`
        : `callers went over its identity's ${named}, one counter shared by every key of ${only.sharedBy}`;
    }
    case "USAGE_EXCEEDED":
      return "it ran out of credits";
    case "EXPIRED":
      return "it had expired";
    case "DISABLED":
      return "it was disabled";
    case "INSUFFICIENT_PERMISSIONS":
      return "callers asked for permissions it does not have";
    case "FORBIDDEN":
      // The real service's only FORBIDDEN, and the reference server's: an API's IP whitelist.
      return "callers came from an address its API's IP whitelist does not list";
    case "INVALID":
    case "VALID":
      return "its verifications were invalid";
  }
}

/** When the window of the key's one rate limit that refused last resets, if that is known. */
function refusingWindowReset(key: KeyFacts, latest: LatestRefusal | undefined): number | undefined {
  const limits = appliedRateLimits(key);
  const refusedAt = latest?.("RATE_LIMITED");
  if (limits.length !== 1 || limits[0] === undefined || refusedAt === undefined) return undefined;
  return windowReset(refusedAt, limits[0].limit.duration);
}

/** The next instant after `now` at which the verdict changes by itself: the key expires, or the refusing window resets. */
export function verdictTurnsAt(key: KeyFacts, now: number, latest?: LatestRefusal): number | undefined {
  const instants = [key.expires, refusingWindowReset(key, latest)].filter(
    (instant): instant is number => instant !== undefined && instant > now,
  );
  return instants.length === 0 ? undefined : Math.min(...instants);
}

/**
 * "; the window that refused last resets at …": when the key's one rate limit refused last, known from `latest`; and
 * that the key was changed after that refusal (its limit raised, say), since the limit named is the key's as it is now.
 */
function rateLimitReset(key: KeyFacts, now: number, latest: LatestRefusal | undefined): string {
  const refusedAt = latest?.("RATE_LIMITED");
  const resetAt = refusingWindowReset(key, latest);
  if (refusedAt === undefined || resetAt === undefined) return "";
  const reset = describeReset(resetAt, now);
  const changed =
    key.updatedAt !== undefined && key.updatedAt > refusedAt
      ? `; the key was changed since, ${formatPastTime(key.updatedAt, now)}`
      : "";
  return `${reset === null ? "" : `; the window that refused last ${reset}`}${changed}`;
}

/**
 * One sentence answering "why is this key refused?" from its fields and its last 24 hours of outcomes
 * (`counts`, null when analytics could not be read, "pending" while it is on its way); `latest` dates a rate limit's
 * refusal, so its reset can be said.
 */
export function refusalVerdict(
  key: KeyFacts,
  answer: OutcomeCounts | null | "pending",
  now: number,
  latest?: LatestRefusal,
): Verdict {
  const reasons = fieldReasons(key, now);
  const counts = answer === "pending" ? null : answer;
  const total = counts === null ? 0 : Object.values(counts).reduce((sum, count) => sum + count, 0);
  const refused = counts === null ? 0 : total - counts.VALID;

  const first = reasons[0];
  if (first !== undefined) {
    const because = `Refused because ${reasons.map((reason) => reason.reason).join(" and ")}`;
    if (counts === null) return { tone: "refused", text: `${because}.` };
    if (total === 0) return { tone: "refused", text: `${because}; nobody tried it in the last 24 h.` };
    if (counts[first.outcome] > 0) {
      return {
        tone: "refused",
        text: `${because}: ${formatCount(counts[first.outcome])} of ${formatCount(total)} verifications in the last 24 h were ${first.outcome}.`,
      };
    }
    const recorded = dominantRefusal(counts);
    if (recorded === null) {
      return {
        tone: "refused",
        text: `${because}, though all ${formatCount(total)} verifications in the last 24 h were VALID.`,
      };
    }
    // The fields and what the server recorded disagree (the key changed, or something it checks first refused it): both.
    return {
      tone: "refused",
      text: `${because}; yet none of the last 24 h's verifications was ${first.outcome}: ${formatCount(counts[recorded])} of ${formatCount(total)} were ${recorded}, because ${outcomeReason(recorded, key)}.`,
    };
  }

  if (answer === "pending")
    return { tone: "quiet", text: "Nothing in its fields refuses it; its recent verifications are on their way." };
  if (counts === null) {
    return {
      tone: "quiet",
      text: "Nothing in its fields refuses it; its recent verifications could not be read (the reason is below).",
    };
  }
  if (total === 0) {
    const lastUsed = key.lastUsedAt === undefined ? "" : `; last used ${when(key.lastUsedAt, now)}`;
    return { tone: "quiet", text: `Not verified in the last 24 h${lastUsed}.` };
  }
  const outcome = dominantRefusal(counts);
  if (outcome === null) return { tone: "ok", text: `Verified fine ${times(total)} in the last 24 h.` };
  const share = `${formatCount(refused)} of ${formatCount(total)} verifications in the last 24 h were refused`;
  const most =
    refused === counts[outcome] ? ` as ${outcome}` : `, most (${formatCount(counts[outcome])}) as ${outcome}`;
  return {
    tone: refused * 2 >= total ? "refused" : "warning",
    text: `Refused ${refused * 2 >= total ? "mostly" : "at times"} because ${outcomeReason(outcome, key)}: ${share}${most}${outcome === "RATE_LIMITED" ? rateLimitReset(key, now, latest) : ""}.`,
  };
}
