import { describe, expect, test } from "vitest";
import { DEFAULT_VIEW, filterOf, logViewSearch, readLogView, type LogView } from "@/features/logs/log-view";
import {
  bucketFor,
  bucketStarts,
  formatUtcRange,
  fromLocalInput,
  narrowedTo,
  resolveRange,
  toLocalInput,
} from "@/lib/time-range";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 27, 14, 37, 12, 345);

describe("the log's view in the URL", () => {
  const view: LogView = {
    range: { kind: "custom", from: NOW - HOUR, to: NOW },
    outcomes: ["USAGE_EXCEEDED", "RATE_LIMITED"],
    keyIds: ["key_2Xa9"],
    externalId: "org_acme",
    tag: { match: "contains", value: "path=/api/o'brien" },
    region: "eu-west-1",
    keySpaceId: "api_1",
    row: "req_3Zz",
  };

  test("a view written as a link reads back as the same view, outcomes in the charts' order", () => {
    const search = logViewSearch(view);
    expect(readLogView(new URLSearchParams(search))).toEqual({
      view: { ...view, outcomes: ["RATE_LIMITED", "USAGE_EXCEEDED"] },
      dropped: [],
    });
    expect(logViewSearch(readLogView(new URLSearchParams(search)).view)).toBe(search);
  });

  test("the default view is the bare address", () => {
    expect(logViewSearch(DEFAULT_VIEW)).toBe("");
    expect(readLogView(new URLSearchParams(""))).toEqual({ view: DEFAULT_VIEW, dropped: [] });
    expect(logViewSearch({ ...DEFAULT_VIEW, range: { kind: "preset", preset: "7d" } })).toBe("?range=7d");
  });

  test("what a link holds that could not be a filter is left out, and said", () => {
    const read = readLogView(
      new URLSearchParams(
        "range=2y&outcome=VALID&outcome=valid'--&key=key_1&key=robert');DROP&identity=a%5Cb&tag=a%0Ab&row=nope",
      ),
    );
    expect(read.view).toEqual({ ...DEFAULT_VIEW, outcomes: ["VALID"], keyIds: ["key_1"] });
    expect(read.dropped).toHaveLength(6);
    expect(read.dropped.join(" ")).toMatch(/range “2y”/);
    expect(readLogView(new URLSearchParams("from=2026-11-27T10:00:00Z&to=2026-11-27T09:00:00Z")).view.range).toEqual(
      DEFAULT_VIEW.range,
    );
  });

  test("the filter carries the view's values and the resolved range", () => {
    expect(filterOf(view, { from: 1, to: 2 })).toEqual({
      from: 1,
      to: 2,
      outcomes: view.outcomes,
      keyIds: view.keyIds,
      externalId: "org_acme",
      tag: view.tag,
      region: "eu-west-1",
      keySpaceId: "api_1",
    });
  });
});

describe("the log's time range", () => {
  test("a preset ends now and starts at its first whole bucket: minutes for an hour, hours for a week, days for a month", () => {
    expect(resolveRange({ kind: "preset", preset: "1h" }, NOW)).toEqual({
      from: Date.UTC(2026, 10, 27, 13, 38),
      to: NOW,
      bucketMs: MINUTE,
      endsNow: true,
    });
    expect(resolveRange({ kind: "preset", preset: "7d" }, NOW).bucketMs).toBe(HOUR);
    const month = resolveRange({ kind: "preset", preset: "30d" }, NOW);
    expect(month.from).toBe(Date.UTC(2026, 9, 29));
    expect(bucketStarts(month)).toHaveLength(30);
    expect(bucketStarts(resolveRange({ kind: "preset", preset: "24h" }, NOW))).toHaveLength(24);
  });

  test("the longest preset stays inside the retention even when the server's clock runs a little ahead", () => {
    const exactly = Date.UTC(2026, 10, 27, 0, 2);
    const month = resolveRange({ kind: "preset", preset: "30d" }, exactly);
    expect(month.from).toBeGreaterThanOrEqual(exactly + 5 * MINUTE - 30 * DAY);
  });

  test("a custom range gets the shortest bucket that draws it in at most 180 bars", () => {
    expect(bucketFor(3 * HOUR - 1)).toBe(MINUTE);
    expect(bucketFor(3 * HOUR + MINUTE)).toBe(5 * MINUTE);
    expect(bucketFor(1.5 * DAY)).toBe(15 * MINUTE);
    expect(bucketFor(2 * DAY)).toBe(HOUR);
    expect(bucketFor(7 * DAY)).toBe(HOUR);
    expect(bucketFor(30 * DAY)).toBe(6 * HOUR);
    expect(bucketFor(90 * DAY)).toBe(DAY);
  });

  test("narrowing picks whole buckets within the range, in either direction", () => {
    const range = resolveRange({ kind: "preset", preset: "24h" }, NOW);
    const [first, , third] = bucketStarts(range);
    if (first === undefined || third === undefined) throw new Error("buckets");
    expect(narrowedTo(range, third, first)).toEqual({ kind: "custom", from: first, to: third + HOUR - 1 });
    const last = bucketStarts(range).at(-1) ?? 0;
    expect(narrowedTo(range, last, last)).toEqual({ kind: "custom", from: last, to: NOW });
  });

  test("a datetime-local value is the browser's time zone, and reads back as typed", () => {
    const ms = fromLocalInput("2026-11-27T10:05:09");
    expect(ms).not.toBeNull();
    expect(toLocalInput(ms ?? 0)).toBe("2026-11-27T10:05:09");
    expect(fromLocalInput("2026-02-30T10:00")).toBeNull();
    expect(fromLocalInput("yesterday")).toBeNull();
  });

  test("a range is said in UTC, the day once when it is the same", () => {
    expect(formatUtcRange(NOW - HOUR, NOW, NOW)).toBe("Nov 27, 13:37:12 – 14:37:12 UTC");
    expect(formatUtcRange(NOW - DAY, NOW, NOW)).toBe("Nov 26, 14:37:12 – Nov 27, 14:37:12 UTC");
  });
});
