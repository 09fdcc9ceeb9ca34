const START = 11; // "ks_root_" and three characters of the secret
const END = 4;

/**
 * What may be shown of a key: its start and its last four characters (`ks_root_3xY…9fQ2`), enough to tell two
 * keys apart, never enough to use one. However short the key, at least half of it stays hidden.
 */
export function maskKey(key: string): string {
  const visible = Math.floor(key.length / 2);
  const end = visible >= START + END ? END : Math.min(END, Math.floor(visible / 3));
  const start = Math.min(START, visible - end);
  return `${key.slice(0, start)}…${end > 0 ? key.slice(-end) : ""}`;
}
