/**
 * What may be shown of a key: its first characters (the `ks_root_` kind prefix), never enough to use it.
 * Short keys show less, so that at least two thirds of any key stay hidden.
 */
export function maskKey(key: string): string {
  const visible = Math.min(8, Math.floor(key.length / 3));
  return `${key.slice(0, visible)}…`;
}
