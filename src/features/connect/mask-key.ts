/**
 * What may be shown of a key: its first 8 characters (the `ks_root_` kind prefix), never enough to use it.
 * A short key shows less, so that at least half of any key stays hidden.
 */
export function maskKey(key: string): string {
  const visible = Math.min(8, Math.floor(key.length / 2));
  return `${key.slice(0, visible)}…`;
}
