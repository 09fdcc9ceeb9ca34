import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatCount } from "@/lib/format-number";
import { formatRelativeTime, formatUtcDay, formatUtcHour } from "@/lib/format-time";

/**
 * The keys page writes numbers and times without Intl (whose first call loads ICU's data before the first row):
 * whatever the value, the words are the ones Intl would have written.
 */

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The units a time is said in, as a reader counts them: a year of 365 days, a month of 30, a week of 7. */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * DAY],
  ["month", 30 * DAY],
  ["week", 7 * DAY],
  ["day", DAY],
  ["hour", HOUR],
  ["minute", MINUTE],
];

/** The largest whole unit, in Intl's words. */
function intlRelative(time: number, now: number): string {
  const difference = time - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(difference) >= size) return relative.format(Math.trunc(difference / size), unit);
  }
  return difference < 0 ? "just now" : "in under a minute";
}

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const CENTURY = 100 * 365 * 24 * 60 * 60 * 1000;

describe("written as Intl writes it", () => {
  test("a whole number's thousands are grouped as toLocaleString('en') groups them", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
        (value) => formatCount(value) === value.toLocaleString("en"),
      ),
    );
    expect(formatCount(0)).toBe("0");
    expect(formatCount(1_234_567)).toBe("1,234,567");
  });

  test("a time before or after now is said as Intl.RelativeTimeFormat says it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -CENTURY, max: CENTURY }),
        (offset) => formatRelativeTime(NOW + offset, NOW) === intlRelative(NOW + offset, NOW),
      ),
      { numRuns: 2000 },
    );
    for (const [, size] of UNITS) {
      for (const count of [1, 2]) {
        expect(formatRelativeTime(NOW - count * size, NOW)).toBe(intlRelative(NOW - count * size, NOW));
        expect(formatRelativeTime(NOW + count * size, NOW)).toBe(intlRelative(NOW + count * size, NOW));
      }
    }
    expect(formatRelativeTime(NOW - 29 * DAY, NOW)).toBe("4 weeks ago");
    expect(formatRelativeTime(NOW - 59 * MINUTE, NOW)).toBe("59 minutes ago");
    expect(formatRelativeTime(NOW + 366 * DAY, NOW)).toBe("next year");
  });

  test("a UTC day, and a UTC hour, are the short month, the day and the 24-hour clock of Intl.DateTimeFormat", () => {
    const day = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });
    const hour = new Intl.DateTimeFormat("en", {
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: "UTC",
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }),
        (time) => formatUtcDay(time) === day.format(time) && formatUtcHour(time) === hour.format(time),
      ),
      { numRuns: 2000 },
    );
    expect(formatUtcHour(Date.UTC(2026, 10, 24, 7, 5))).toBe("Nov 24, 07:05");
  });
});
