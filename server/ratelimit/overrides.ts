import type { Database } from "better-sqlite3";
import { overridePattern, overrideSpecificity } from "../../src/lib/contract";
import { findOverride, wildcardOverrides, type OverrideRow } from "../db/ratelimits";

/**
 * Which override applies to an identifier, by the contract's rule (overridePattern, overrideSpecificity: the dashboard
 * says it the same way): one set for exactly the identifier first; else the most specific matching pattern, then the
 * oldest, so the answer never depends on storage order (the real service takes whichever its database lists first).
 */

const patterns = new Map<string, RegExp>();
const PATTERNS_REMEMBERED = 10_000;

/** The contract's pattern of an override's identifier, made once per identifier. */
function patternOf(identifier: string): RegExp {
  let pattern = patterns.get(identifier);
  if (pattern === undefined) {
    if (patterns.size >= PATTERNS_REMEMBERED) patterns.clear();
    pattern = overridePattern(identifier);
    patterns.set(identifier, pattern);
  }
  return pattern;
}

/** Whether `identifier` matches an override's identifier, which may hold `*` wildcards (the contract's rule). */
export function matchesOverride(identifier: string, overrideIdentifier: string): boolean {
  return overrideIdentifier.includes("*")
    ? patternOf(overrideIdentifier).test(identifier)
    : identifier === overrideIdentifier;
}

function specificity(override: OverrideRow): number {
  return overrideSpecificity(override.identifier);
}

function moreSpecific(a: OverrideRow, b: OverrideRow): boolean {
  const difference = specificity(a) - specificity(b);
  if (difference !== 0) return difference > 0;
  return a.createdAt !== b.createdAt ? a.createdAt < b.createdAt : a.id < b.id;
}

/** The namespace's override that applies to `identifier`, if any. */
export function matchOverride(db: Database, namespaceId: string, identifier: string): OverrideRow | undefined {
  const exact = findOverride(db, namespaceId, identifier);
  if (exact !== undefined) return exact;
  let best: OverrideRow | undefined;
  for (const override of wildcardOverrides(db, namespaceId)) {
    if (matchesOverride(identifier, override.identifier) && (best === undefined || moreSpecific(override, best)))
      best = override;
  }
  return best;
}
