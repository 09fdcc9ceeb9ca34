import * as v from "valibot";
import type { NewRateLimit } from "../../db/rate-limits";
import { invalidInput } from "../../http/api-refusal";
import { FIELD_FIXES, type ratelimitListField, repeatedRateLimitName } from "../keys/key-fields";

/** What identities.createIdentity, updateIdentity and deleteIdentity share: their fields and the rate limits' rule. */

export const identityField = v.pipe(
  v.string("identity is required and must be a string"),
  v.minLength(1, "identity must not be empty"),
);

export const IDENTITY_FIXES = {
  identity: "Pass the identity's id (id_…) or its external id.",
  meta: FIELD_FIXES.meta,
  ratelimits:
    'Pass [{"name": "requests", "limit": 100, "duration": 60000, "autoApply": true}]: shared by all the identity\'s keys; duration in ms, at least 1000.',
} as const;

/**
 * The identity's rate limits as stored, each name once: the real service's words for a name given twice (a 400 its
 * updateIdentity checks after the permission, before anything is read).
 */
export function identityRateLimits(limits: v.InferOutput<typeof ratelimitListField>): NewRateLimit[] {
  const repeated = repeatedRateLimitName(limits);
  if (repeated !== undefined) {
    throw invalidInput("body.ratelimits", `Ratelimit with name '${repeated}' is already defined in the request`);
  }
  return limits.map(({ name, limit, duration, autoApply }) => ({ name, limit, durationMs: duration, autoApply }));
}
