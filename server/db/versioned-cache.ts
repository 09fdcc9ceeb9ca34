export interface VersionedCache<V> {
  /** The value remembered for `key` at the current version, or `compute()`'s, remembered from now on. */
  get(key: string, compute: () => V): V;
}

/**
 * Remembers computed values until `currentVersion()` changes, then forgets them all; holds at most
 * `maxEntries`, dropping the least recently used.
 */
export function createVersionedCache<V>(currentVersion: () => number, maxEntries: number): VersionedCache<V> {
  const entries = new Map<string, V>();
  let version = currentVersion();
  return {
    get(key, compute) {
      const now = currentVersion();
      if (now !== version) {
        entries.clear();
        version = now;
      }
      const cached = entries.get(key);
      if (cached !== undefined) {
        // Re-inserting moves the key to the end: Map order is the recency order.
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const value = compute();
      entries.set(key, value);
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      return value;
    },
  };
}
