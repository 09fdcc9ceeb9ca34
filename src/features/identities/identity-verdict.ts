import type { KeyRefusals } from "@/lib/analytics-rows";
import type { KeyIdentity } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { sharedLimitRefusal } from "@/lib/identity-refusal";
import type { KeyFacts, RateLimit } from "@/lib/key-facts";
import { describeReset, formatRateLimit, windowReset } from "@/lib/key-limits";
import { dominantRefusal, type OutcomeCounts } from "@/lib/key-refusal";

export type VerdictTone = "ok" | "refused" | "warning" | "quiet";

export interface Verdict {
  tone: VerdictTone;
  text: string;
}

export interface VerdictFacts {
  identity: KeyIdentity;
  /** Its verifications of the last 24 h by outcome; null: they could not be read; "pending": on their way. */
  counts: OutcomeCounts | null | "pending";
  /** Its refusals of the last 24 h by key and outcome, when read. */
  refusals: readonly KeyRefusals[] | undefined;
  /** Its keys as found, by id. */
  keys: ReadonlyMap<string, KeyFacts>;
  now: number;
}

function named(limits: readonly RateLimit[]): string {
  const each = limits.map((limit) => `“${limit.name}” (${formatRateLimit(limit)})`);
  return each.length === 1 ? `rate limit ${each[0]}` : `rate limits ${each.join(", ")}`;
}

/** "; the window that refused last resets at …": when one shared limit refused and its last refusal is known. */
function resetOf(limits: readonly RateLimit[], refusals: readonly KeyRefusals[] | undefined, now: number): string {
  const [only] = limits;
  if (only === undefined || limits.length !== 1 || refusals === undefined) return "";
  const latest = Math.max(
    ...refusals.filter((row) => row.outcome === "RATE_LIMITED").map((row) => row.latest),
    Number.NEGATIVE_INFINITY,
  );
  if (!Number.isFinite(latest)) return "";
  const reset = describeReset(windowReset(latest, only.duration), now);
  return reset === null ? "" : `; the window that refused last ${reset}`;
}

/**
 * One sentence that answers "is this identity's traffic refused, and why?" from its last 24 hours, naming its shared
 * rate limit when that is what refuses (src/lib/identity-refusal.ts decides).
 */
export function identityVerdict({ identity, counts, refusals, keys, now }: VerdictFacts): Verdict {
  if (counts === "pending")
    return { tone: "quiet", text: "Its keys’ verifications of the last 24 h are on their way." };
  if (counts === null)
    return { tone: "quiet", text: "Its keys’ verifications could not be read (the reason is below)." };
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  if (total === 0) return { tone: "quiet", text: "None of its keys was verified in the last 24 h." };
  const outcome = dominantRefusal(counts);
  if (outcome === null)
    return {
      tone: "ok",
      text: `Its keys verified fine ${total === 1 ? "once" : `${formatCount(total)} times`} in the last 24 h.`,
    };
  const refused = total - counts.VALID;
  const mostly = refused * 2 >= total;
  const tone: VerdictTone = mostly ? "refused" : "warning";
  const share = `${formatCount(refused)} of ${formatCount(total)} verifications in the last 24 h were refused`;
  const most =
    refused === counts[outcome] ? ` as ${outcome}` : `, most (${formatCount(counts[outcome])}) as ${outcome}`;
  const how = mostly ? "mostly" : "at times";
  if (outcome === "RATE_LIMITED") {
    const refusedKeys = (refusals ?? []).filter((row) => row.outcome === "RATE_LIMITED").map((row) => row.keyId);
    const decided = sharedLimitRefusal(identity, refusedKeys, keys);
    if (decided.kind === "shared") {
      return {
        tone,
        text: `Refused ${how} because callers went over its shared ${named(decided.limits)}, one counter for every key of ${identity.externalId}: ${share}${most}${resetOf(decided.limits, refusals, now)}.`,
      };
    }
    if (decided.kind === "shared-or-own") {
      return {
        tone,
        text: `Refused ${how} because callers went over a rate limit, its shared ${named(decided.limits)} or a key’s own: ${share}${most}.`,
      };
    }
    return { tone, text: `Refused ${how} because callers went over its keys’ own rate limits: ${share}${most}.` };
  }
  return { tone, text: `Refused ${how}: ${share}${most}; the keys refused are listed below.` };
}
