/**
 * A short, stable, non-reversible tag for a secret, so caches can tell keys apart
 * without holding them. cyrb53: 53 bits are plenty to separate the keys one person pastes.
 * Not a security boundary — it only keeps the key itself out of query keys and devtools.
 */
export function fingerprint(secret: string, seed = 0x6b73): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < secret.length; index++) {
    const code = secret.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return hash.toString(16).padStart(14, "0");
}
