/**
 * "12,345": a whole number with its thousands grouped, as `toLocaleString("en")` writes it. Written out rather
 * than through Intl because the first Intl call of a page loads ICU's data (about 15 ms here), and the keys page
 * would pay that before its first row for a comma.
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value) || !Number.isInteger(value)) return String(value);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return value < 0 ? `-${digits}` : digits;
}

/** "1 key", "12,345 keys": a count and its noun, which takes an s for any count but one. */
export function formatCountOf(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? "" : "s"}`;
}
