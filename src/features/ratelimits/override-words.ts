/**
 * Overrides in words, and which one applies to an identifier: by the contract's rule (overrideMatches,
 * overrideSpecificity), the one the server's limits use.
 */
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import { overrideMatches, overrideSpecificity } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The window units a form offers, largest first. */
export const WINDOW_UNITS = [
  { value: "day", label: "days", ms: DAY },
  { value: "hour", label: "hours", ms: HOUR },
  { value: "minute", label: "minutes", ms: MINUTE },
  { value: "second", label: "seconds", ms: SECOND },
] as const;

export type WindowUnit = (typeof WINDOW_UNITS)[number]["value"];

/** A window as a count of its largest whole unit: 60,000 ms is 1 minute, 90,000 ms is 90 seconds. */
export function windowParts(ms: number): { count: number; unit: WindowUnit } | undefined {
  const unit = WINDOW_UNITS.find((candidate) => ms > 0 && ms % candidate.ms === 0);
  return unit === undefined ? undefined : { count: ms / unit.ms, unit: unit.value };
}

/** "minute", "10 seconds", "1,500 ms": the window after "per". */
export function windowWords(ms: number): string {
  const parts = windowParts(ms);
  if (parts === undefined) return `${formatCount(ms)} ms`;
  return parts.count === 1 ? parts.unit : `${formatCount(parts.count)} ${parts.unit}s`;
}

/** "600 per minute", or "Blocked" for a limit of 0 (every request that costs anything is refused). */
export function limitWords(limit: number, duration: number): string {
  return limit === 0 ? "Blocked" : `${formatCount(limit)} per ${windowWords(duration)}`;
}

export function isPattern(identifier: string): boolean {
  return identifier.includes("*");
}

export interface AppliedOverride {
  override: RatelimitOverride;
  /** Patterns as specific as it that match too: the service picks one of them (the reference server, the oldest). */
  tiedWith: RatelimitOverride[];
}

/**
 * The override that applies to `identifier` among `overrides`: the one set for exactly it, else the most specific
 * matching pattern (undefined: none, and its requests' own limit applies).
 */
export function appliedOverride(
  identifier: string,
  overrides: readonly RatelimitOverride[],
): AppliedOverride | undefined {
  let best: RatelimitOverride[] = [];
  let bestSpecificity = -1;
  for (const override of overrides) {
    if (!overrideMatches(identifier, override.identifier)) continue;
    const specificity = overrideSpecificity(override.identifier);
    if (specificity > bestSpecificity) {
      best = [override];
      bestSpecificity = specificity;
    } else if (specificity === bestSpecificity) best.push(override);
  }
  const [override, ...tiedWith] = best;
  return override === undefined ? undefined : { override, tiedWith };
}
