import * as v from "valibot";
import { FiniteNumber } from "./schemas";

/**
 * A rate-limit override as `ratelimit.listOverrides` and `getOverride` answer it (the real service's RatelimitOverride):
 * the identifier it applies to (`*` wildcards included, as set), its limit per window (0 blocks) and the window (ms).
 */
export const RatelimitOverrideSchema = v.looseObject({
  overrideId: v.string(),
  identifier: v.string(),
  limit: v.pipe(FiniteNumber, v.integer(), v.minValue(0)),
  duration: v.pipe(FiniteNumber, v.integer(), v.minValue(0)),
});

export type RatelimitOverride = Pick<
  v.InferOutput<typeof RatelimitOverrideSchema>,
  "overrideId" | "identifier" | "limit" | "duration"
>;
