import { describe, expect, test } from "vitest";
import { formatIsoTime, formatPastTime, formatRelativeTime } from "@/lib/format-time";

const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

describe("formatRelativeTime", () => {
  test.each([
    [NOW - 3 * DAY, "3 days ago"],
    [NOW - DAY, "yesterday"],
    [NOW + 61 * DAY, "in 2 months"],
    [NOW - 400 * DAY, "last year"],
    [NOW - 5 * 60 * 1000, "5 minutes ago"],
    [NOW - 10 * 1000, "just now"],
    [NOW + 2 * 60 * 60 * 1000, "in 2 hours"],
  ])("%s is %s", (time, text) => {
    expect(formatRelativeTime(time, NOW)).toBe(text);
  });
});

describe("formatPastTime", () => {
  test.each([
    [NOW - 3 * DAY, "3 days ago"],
    [NOW - 10 * 1000, "just now"],
    [NOW, "just now"],
    // Later than a clock that ticks once a minute, or by a server's clock a little ahead: it has happened all the same.
    [NOW + 20 * 1000, "just now"],
  ])("%s is %s", (time, text) => {
    expect(formatPastTime(time, NOW)).toBe(text);
  });
});

describe("formatIsoTime", () => {
  test("gives the exact instant", () => {
    expect(formatIsoTime(NOW)).toBe("2026-06-15T12:00:00.000Z");
  });

  test("is null for a number that is no date", () => {
    expect(formatIsoTime(Number.MAX_VALUE)).toBeNull();
  });
});
