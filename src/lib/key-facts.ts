import { formatCount } from "./format-number";

/**
 * The fields of a key (docs/api.md#the-key-object) that decide whether a verification passes. Structural, so the
 * client's whole Key object fits it.
 */
export interface KeyFacts {
  enabled?: boolean | undefined;
  /** Unix ms. */
  expires?: number | undefined;
  lastUsedAt?: number | undefined;
  /** Unix ms: when the key was last changed. */
  updatedAt?: number | undefined;
  credits?: Credits | undefined;
  ratelimits?: readonly RateLimit[] | undefined;
  permissions?: readonly string[] | undefined;
  identity?: { externalId: string; ratelimits?: readonly RateLimit[] | undefined } | undefined;
}

export interface Credits {
  /** null: unlimited. */
  remaining: number | null;
  refill?: { interval: "daily" | "monthly"; amount: number; refillDay?: number | undefined } | undefined;
}

export interface RateLimit {
  id?: string | undefined;
  name: string;
  limit: number;
  /** ms */
  duration: number;
  autoApply?: boolean | undefined;
}

/**
 * "set to 20 every day", "set to 1,000 every month on day 15": a refill sets the credits to its amount, whatever
 * was left (the server's rule, and the real service's), so it is never said to add them.
 */
export function describeRefill(refill: NonNullable<Credits["refill"]>): string {
  return `set to ${formatCount(refill.amount)} ${refill.interval === "daily" ? "every day" : `every month on day ${refill.refillDay ?? 1}`}`;
}
