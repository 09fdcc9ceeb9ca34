import type { Key } from "../../lib/contract";

/**
 * The Key object's fields beyond the seed (CONTRACT.md §4) that the table reads. Every one is optional: an API
 * that does not send a field leaves its column empty, never broken.
 */
export interface KeyCredits {
  remaining: number | null;
  refill?: { interval: "daily" | "monthly"; amount: number; refillDay?: number };
}

export interface KeyIdentity {
  id: string;
  externalId: string;
}

export type ListedKey = Key & {
  lastUsedAt?: number;
  updatedAt?: number;
  credits?: KeyCredits;
  identity?: KeyIdentity;
};
