import { hash } from "node:crypto";
import { secretBase58 } from "../db/ids";

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

/** The random bytes of a key when neither the request nor its API says how many, as on the real service. */
export const DEFAULT_KEY_BYTE_LENGTH = 16;

/** An API's key-space defaults (the real service's `default_prefix` and `default_bytes`); null where it has none. */
export interface KeySpaceDefaults {
  defaultPrefix: string | null;
  defaultBytes: number | null;
}

/** keys.createKey's secret: the request's prefix and byte length, else the API's defaults, else no prefix and 16 bytes. */
export function createdSecret(request: { prefix?: string; byteLength?: number }, keySpace: KeySpaceDefaults): string {
  return newKeySecret(
    request.prefix ?? keySpace.defaultPrefix ?? undefined,
    request.byteLength ?? keySpace.defaultBytes ?? DEFAULT_KEY_BYTE_LENGTH,
  );
}

/**
 * A rerolled key's secret, as the real service makes it: the old key's prefix, which is what its `start` holds before
 * the first `_` (so `sk_live_…` becomes `sk_…`), else the API's default prefix; the API's default byte length, else 16.
 */
export function rerolledSecret(oldStart: string, keySpace: KeySpaceDefaults): string {
  const end = oldStart.indexOf("_");
  const prefix = end > 0 ? oldStart.slice(0, end) : (keySpace.defaultPrefix ?? undefined);
  return newKeySecret(prefix, keySpace.defaultBytes ?? DEFAULT_KEY_BYTE_LENGTH);
}
