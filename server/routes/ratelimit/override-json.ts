import type { OverrideRow } from "../../db/ratelimits";

/** An override as the real service's RatelimitOverride: `{overrideId, duration, identifier, limit}`. */
export function overrideJson(override: OverrideRow) {
  return {
    overrideId: override.id,
    duration: override.durationMs,
    identifier: override.identifier,
    limit: override.limit,
  };
}
