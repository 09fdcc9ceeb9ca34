import type { Key } from "../../lib/contract";
import { appliedRateLimits, windowReset } from "../../lib/key-limits";
import type { VerificationFacts } from "../../lib/verification-outcomes";

/**
 * What is known about a refused verification, for the catalog's explanation: the key's fields, and the rate
 * limit that refused it when only one applies to every verification (its own or its identity's) (analytics records
 * neither the rate limit nor the permission asked for). The window that refused at `time` ends at its aligned reset.
 */
export function verificationFacts(outcome: string, key: Key | null, time?: number): VerificationFacts {
  const facts: VerificationFacts = { outcome };
  if (key !== null) facts.key = key;
  const applied = key === null ? [] : appliedRateLimits(key);
  const only = applied.length === 1 ? applied[0] : undefined;
  if (outcome === "RATE_LIMITED" && only !== undefined) {
    const { name, duration } = only.limit;
    facts.ratelimit = {
      name,
      ...(only.sharedBy !== undefined && { sharedBy: only.sharedBy }),
      ...(time !== undefined && { reset: windowReset(time, duration) }),
    };
  }
  return facts;
}
