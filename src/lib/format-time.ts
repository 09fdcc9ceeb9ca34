import { formatCountOf } from "./format-number";

/** The units a relative time is said in, largest first, with their lengths. */
const RELATIVE_TIME_UNITS: readonly [unit: Intl.RelativeTimeFormatUnit, ms: number][] = [
  ["year", 365 * 24 * 60 * 60 * 1000],
  ["month", 30 * 24 * 60 * 60 * 1000],
  ["week", 7 * 24 * 60 * 60 * 1000],
  ["day", 24 * 60 * 60 * 1000],
  ["hour", 60 * 60 * 1000],
  ["minute", 60 * 1000],
];

/** What `Intl.RelativeTimeFormat("en", { numeric: "auto" })` says for one unit back or ahead. */
const ONE_BACK: Partial<Record<Intl.RelativeTimeFormatUnit, [back: string, ahead: string]>> = {
  year: ["last year", "next year"],
  month: ["last month", "next month"],
  week: ["last week", "next week"],
  day: ["yesterday", "tomorrow"],
};

/**
 * "3 days ago", "in 2 months", "yesterday", "just now": the largest whole unit between `time` and `now`, in the
 * words of `Intl.RelativeTimeFormat("en", { numeric: "auto" })`. Written out because the first Intl call of a page
 * loads ICU's data (about 15 ms here), which the keys page would pay before its first row.
 */
export function formatRelativeTime(time: number, now: number): string {
  const difference = time - now;
  const distance = Math.abs(difference);
  for (const [unit, size] of RELATIVE_TIME_UNITS) {
    if (distance < size) continue;
    const count = Math.trunc(distance / size);
    const words = ONE_BACK[unit];
    if (count === 1 && words !== undefined) return difference < 0 ? words[0] : words[1];
    const amount = formatCountOf(count, unit);
    return difference < 0 ? `${amount} ago` : `in ${amount}`;
  }
  return difference < 0 ? "just now" : "in under a minute";
}

/**
 * The relative time of something that has happened (a creation, a change, a use, a verification): "just now" when it
 * is not before `now`, never "in …": the pages' clock ticks once a minute, and a server's may run a little ahead.
 */
export function formatPastTime(time: number, now: number): string {
  return time < now ? formatRelativeTime(time, now) : "just now";
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const twoDigits = (value: number) => String(value).padStart(2, "0");

/**
 * "Nov 24" in UTC, as `Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" })` says
 * it, written out for the reason above.
 */
export function formatUtcDay(time: number): string {
  const date = new Date(time);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
}

/** "Nov 24, 17:00" in UTC: the day as above and the 24-hour clock to the minute. */
export function formatUtcHour(time: number): string {
  const date = new Date(time);
  return `${formatUtcDay(time)}, ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}`;
}

/** The exact instant, for a title and a <time dateTime>; null when the number is not a date. */
export function formatIsoTime(time: number): string | null {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** "2026-11-20 10:00:00 UTC": the exact instant for reading, to the second; null when the number is not a date. */
export function formatUtcTime(time: number): string | null {
  return (
    formatIsoTime(time)
      ?.replace("T", " ")
      .replace(/\.\d+Z$/, " UTC") ?? null
  );
}
