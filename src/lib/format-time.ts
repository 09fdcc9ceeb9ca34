const UNITS: [unit: Intl.RelativeTimeFormatUnit, ms: number][] = [
  ["year", 365 * 24 * 60 * 60 * 1000],
  ["month", 30 * 24 * 60 * 60 * 1000],
  ["week", 7 * 24 * 60 * 60 * 1000],
  ["day", 24 * 60 * 60 * 1000],
  ["hour", 60 * 60 * 1000],
  ["minute", 60 * 1000],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 days ago", "in 2 months", "just now": the largest whole unit between `time` and `now`. */
export function formatRelativeTime(time: number, now: number): string {
  const difference = time - now;
  const distance = Math.abs(difference);
  for (const [unit, size] of UNITS) {
    if (distance >= size) return relative.format(Math.trunc(difference / size), unit);
  }
  return difference < 0 ? "just now" : "in under a minute";
}

/** The exact instant, for a title and a <time dateTime>; null when the number is not a date. */
export function formatIsoTime(time: number): string | null {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** "2026-11-20 10:00:00 UTC": the exact instant for reading, to the second; null when the number is not a date. */
export function formatUtcTime(time: number): string | null {
  return formatIsoTime(time)?.replace("T", " ").replace(/\.\d+Z$/, " UTC") ?? null;
}
