import type { Database } from "better-sqlite3";
import { findOverride, wildcardOverrides, type OverrideRow } from "../db/ratelimits";

/**
 * Which override applies to an identifier, as the real service matches them (its pkg/match and the ratelimit
 * handlers): one set for exactly the identifier first; else a pattern whose `*`s stand for any run of characters
 * (a line break aside, as Go's regexp reads `.`). Where several patterns match, the real service takes whichever its
 * database lists first; here the most specific one wins (the most characters besides `*`), then the oldest, so the
 * answer never depends on storage order.
 */

const patterns = new Map<string, RegExp>();
const PATTERNS_REMEMBERED = 10_000;

function patternOf(identifier: string): RegExp {
  let pattern = patterns.get(identifier);
  if (pattern === undefined) {
    if (patterns.size >= PATTERNS_REMEMBERED) patterns.clear();
    const parts = identifier.split("*").map((part) => part.replace(/[.^$+?{}[\]()|\\/-]/g, "\\$&"));
    pattern = new RegExp(`^${parts.join("[^\\n]*")}$`);
    patterns.set(identifier, pattern);
  }
  return pattern;
}

/** Whether `identifier` matches an override's identifier, which may hold `*` wildcards. */
export function matchesOverride(identifier: string, overrideIdentifier: string): boolean {
  return overrideIdentifier.includes("*")
    ? patternOf(overrideIdentifier).test(identifier)
    : identifier === overrideIdentifier;
}

function specificity(override: OverrideRow): number {
  return override.identifier.replaceAll("*", "").length;
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
