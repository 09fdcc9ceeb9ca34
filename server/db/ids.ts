import { randomBytes, randomFillSync } from "node:crypto";

/** Bitcoin's base58 alphabet: no 0, O, I or l. Its characters are in ASCII order, so ids sort alike in JS and SQLite. */
export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
export const BASE58_PATTERN = "[1-9A-HJ-NP-Za-km-z]";

/** 22 base58 characters carry about 128 bits. */
export const ID_LENGTH = 22;

// The largest multiple of 58 below 256: bytes at or above it are skipped so every character is equally likely.
const UNBIASED_LIMIT = 58 * 4;

function base58From(nextByte: () => number, length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = nextByte();
    if (byte < UNBIASED_LIMIT) out += BASE58_ALPHABET[byte % 58];
  }
  return out;
}

// Request ids are made per request: drawing them from a pool refilled 4 KiB at a time saves a syscall each.
const pool = Buffer.allocUnsafe(4096);
let poolOffset = pool.length;

function pooledByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] ?? 0;
}

export type IdPrefix = "key" | "api" | "ws" | "req" | "id" | "rl" | "role" | "perm" | "mig" | "rlns" | "rlor";

/** `<prefix>_` + 22 random base58 characters, e.g. `req_6FvQ2…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base58From(pooledByte, ID_LENGTH)}`;
}

/** Random base58 for secrets: fresh bytes, never the shared pool, so no secret material lingers in it. */
export function secretBase58(length: number): string {
  const bytes = randomBytes(length * 2);
  let index = 0;
  return base58From(() => {
    if (index === bytes.length) {
      randomFillSync(bytes);
      index = 0;
    }
    return bytes[index++] ?? 0;
  }, length);
}
