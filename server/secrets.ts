import { hash } from "node:crypto";
import { secretBase58 } from "./ids";

export const ROOT_KEY_PREFIX = "ks_root_";
export const ROOT_KEY_RANDOM_LENGTH = 28;
export const API_KEY_RANDOM_LENGTH = 24;
export type ApiKeyEnvironment = "live" | "test";

/** Characters of the random part kept in `start`, beside the prefix: enough to tell keys apart, far too few to guess one. */
const START_RANDOM_CHARS = 4;

export function newRootKeySecret(): string {
  return ROOT_KEY_PREFIX + secretBase58(ROOT_KEY_RANDOM_LENGTH);
}

export function newApiKeySecret(environment: ApiKeyEnvironment): string {
  return `sk_${environment}_` + secretBase58(API_KEY_RANDOM_LENGTH);
}

/** The only form in which a secret is stored. One-shot `hash`: a third of createHash's cost, twice per verification. */
export function hashSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

/** The displayable beginning of a secret, e.g. `sk_live_3hQa`. */
export function secretStart(secret: string): string {
  const prefixEnd = secret.lastIndexOf("_") + 1;
  return secret.slice(0, prefixEnd + START_RANDOM_CHARS);
}

/** Base58 characters that carry as many random bits as `byteLength` random bytes. */
function base58LengthOf(byteLength: number): number {
  return Math.ceil((byteLength * 8) / Math.log2(58));
}

/** A key made by keys.createKey or rerollKey: `<prefix>_` (when there is a prefix) and `byteLength` bytes of randomness. */
export function newKeySecret(prefix: string | undefined, byteLength: number): string {
  const random = secretBase58(base58LengthOf(byteLength));
  return prefix === undefined || prefix === "" ? random : `${prefix}_${random}`;
}

/** The random bytes of a rerolled key, as the real service makes them for an API without its own default. */
const REROLL_BYTE_LENGTH = 16;

/** A rerolled key's secret keeps the old one's prefix: what its `start` holds before the last `_`. */
export function rerolledSecret(oldStart: string): string {
  const end = oldStart.lastIndexOf("_");
  return newKeySecret(end <= 0 ? undefined : oldStart.slice(0, end), REROLL_BYTE_LENGTH);
}
