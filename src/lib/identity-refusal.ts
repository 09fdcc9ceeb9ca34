import type { KeyFacts, RateLimit } from "./key-facts";

/**
 * Whether an identity's shared rate limit is what refuses its keys' verifications as RATE_LIMITED: decided here, said
 * by the identity's page. A key's own rate limit of a name takes the place of its identity's (the services' rule,
 * src/lib/key-limits.ts), so a key refused as RATE_LIMITED was refused by its identity's counter when it has no limit
 * of its own; with one, either may have.
 */
export type SharedLimitRefusal =
  /** The identity's limits are the only ones its refused keys are checked against. */
  | { kind: "shared"; limits: readonly RateLimit[] }
  /** A refused key has limits of its own too (or is not among the keys found): its own or the shared one. */
  | { kind: "shared-or-own"; limits: readonly RateLimit[] }
  /** The identity has no rate limits: its keys' own refused them. */
  | { kind: "none" };

/**
 * `refusedKeyIds`: the keys whose verifications were refused as RATE_LIMITED; `keys`: the identity's keys as found
 * (those not among them count as unknown). The limits named are the identity's automatic ones when it has any (every
 * verification is checked against them), else all of its limits (checked when a verification names them).
 */
export function sharedLimitRefusal(
  identity: { ratelimits?: readonly RateLimit[] | undefined },
  refusedKeyIds: readonly string[],
  keys: ReadonlyMap<string, KeyFacts>,
): SharedLimitRefusal {
  const all = identity.ratelimits ?? [];
  if (all.length === 0) return { kind: "none" };
  const automatic = all.filter((limit) => limit.autoApply !== false);
  const limits = automatic.length > 0 ? automatic : all;
  const onlyShared = refusedKeyIds.every((keyId) => {
    const key = keys.get(keyId);
    return key !== undefined && (key.ratelimits ?? []).length === 0;
  });
  return { kind: onlyShared ? "shared" : "shared-or-own", limits };
}
