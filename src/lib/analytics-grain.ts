/**
 * The aggregated analytics tables' grains (per minute, hour, day, in UTC) and how a time range is cut so that they
 * answer it exactly: the verifications' and the rate-limit decisions' tables are aggregated alike, so the Logs page and
 * a namespace's history read them the same way.
 */

export type Grain = "minute" | "hour" | "day";

export const GRAIN_MS: Record<Grain, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** The ClickHouse function that puts an instant at the start of its grain. */
export const GRAIN_START: Record<Grain, string> = {
  minute: "toStartOfMinute",
  hour: "toStartOfHour",
  day: "toStartOfDay",
};

/** The coarsest grain a bucket of `bucketMs` is made of: the aggregated table a chart of such buckets reads. */
export function grainOf(bucketMs: number): Grain {
  if (bucketMs % GRAIN_MS.day === 0) return "day";
  if (bucketMs % GRAIN_MS.hour === 0) return "hour";
  if (bucketMs % GRAIN_MS.minute === 0) return "minute";
  throw new Error(`not a bucket of whole minutes: ${bucketMs} ms`);
}

/** A stretch of the range [start, end) and what answers it: single rows, or an aggregated table. */
export interface RangePart {
  source: "raw" | Grain;
  start: number;
  end: number;
}

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

export function checkedInstant(ms: number): number {
  if (!Number.isSafeInteger(ms)) throw new Error(`not a time in ms: ${ms}`);
  return ms;
}

/**
 * The range [from, to] (ms, both included) cut where the aggregated table of `grain` answers it exactly: its whole
 * minutes (hours, days) from the table, the parts before the first and after the last from single rows. So a count
 * over the range is the count of its single rows, whatever the grain, and never the whole of a bucket the range only
 * touches. `rollup: false` (a filter on a column the aggregated tables lack) reads single rows only.
 */
export function cutRange(range: { from: number; to: number }, grain: Grain, rollup = true): RangePart[] {
  const start = checkedInstant(range.from);
  const end = checkedInstant(range.to) + 1;
  const step = GRAIN_MS[grain];
  const first = ceilTo(start, step);
  const last = floorTo(end, step);
  if (!rollup || first >= last) return [{ source: "raw", start, end }];
  return [
    ...(start < first ? [{ source: "raw" as const, start, end: first }] : []),
    { source: grain, start: first, end: last },
    ...(last < end ? [{ source: "raw" as const, start: last, end }] : []),
  ];
}

/** `time` within a part: milliseconds on single rows, a DateTime (or Date) on the aggregated tables. */
export function partTime(part: RangePart): string {
  return part.source === "raw"
    ? `time >= ${part.start} AND time < ${part.end}`
    : `time >= fromUnixTimestamp64Milli(${part.start}) AND time < fromUnixTimestamp64Milli(${part.end})`;
}
