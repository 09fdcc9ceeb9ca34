/**
 * The log's time range: a preset ("the last 24 hours", from 15 minutes to 30 days) or a custom from–to, resolved to
 * two instants at a moment, with the chart's bucket: minutes for an hour, hours for a week, days for a month. Every
 * bucket starts at a whole multiple of its length in UTC, as the aggregated tables' minutes, hours and days do.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const RANGE_PRESETS = [
  { id: "15m", label: "15 minutes", ms: 15 * MINUTE, bucketMs: MINUTE },
  { id: "1h", label: "1 hour", ms: HOUR, bucketMs: MINUTE },
  { id: "3h", label: "3 hours", ms: 3 * HOUR, bucketMs: 5 * MINUTE },
  { id: "6h", label: "6 hours", ms: 6 * HOUR, bucketMs: 5 * MINUTE },
  { id: "12h", label: "12 hours", ms: 12 * HOUR, bucketMs: 15 * MINUTE },
  { id: "24h", label: "24 hours", ms: DAY, bucketMs: HOUR },
  { id: "3d", label: "3 days", ms: 3 * DAY, bucketMs: HOUR },
  { id: "7d", label: "7 days", ms: 7 * DAY, bucketMs: HOUR },
  { id: "14d", label: "14 days", ms: 14 * DAY, bucketMs: DAY },
  { id: "30d", label: "30 days", ms: 30 * DAY, bucketMs: DAY },
] as const;

export type PresetId = (typeof RANGE_PRESETS)[number]["id"];

export const DEFAULT_PRESET: PresetId = "24h";

export function isPresetId(value: string): value is PresetId {
  return RANGE_PRESETS.some((preset) => preset.id === value);
}

export function presetOf(id: PresetId): (typeof RANGE_PRESETS)[number] {
  const preset = RANGE_PRESETS.find((candidate) => candidate.id === id);
  if (preset === undefined) throw new Error(`no preset ${id}`);
  return preset;
}

/** What the URL holds: a preset, or two instants (ms, both included). */
export type RangeChoice = { kind: "preset"; preset: PresetId } | { kind: "custom"; from: number; to: number };

/** The days of data the real service keeps by default: no preset reaches further back. */
export const RETENTION_DAYS = 30;
/**
 * How far inside the retention the longest preset starts: the server's clock may run ahead of the browser's, and a
 * range starting a moment before its retention is refused.
 */
const CLOCK_MARGIN_MS = 5 * MINUTE;

/** The bucket lengths a custom range may get, shortest first, and the most buckets a chart draws. */
const CUSTOM_BUCKETS = [MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 6 * HOUR, DAY] as const;
const MAX_BUCKETS = 180;

export interface ResolvedRange {
  from: number;
  to: number;
  bucketMs: number;
  /** A preset: the range ends at the moment it was resolved, and Live follows it from there. */
  endsNow: boolean;
}

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** The shortest bucket that draws a range of `lengthMs` in at most 180 bars. */
export function bucketFor(lengthMs: number): number {
  return CUSTOM_BUCKETS.find((bucket) => Math.ceil((lengthMs + 1) / bucket) <= MAX_BUCKETS) ?? DAY;
}

/**
 * The range as instants at the moment `now`. A preset ends at `now` and starts at its first whole bucket, so that the
 * chart's first bar is a whole one (the range is up to one bucket shorter than the preset's name).
 */
export function resolveRange(choice: RangeChoice, now: number): ResolvedRange {
  if (choice.kind === "custom") {
    return { from: choice.from, to: choice.to, bucketMs: bucketFor(choice.to - choice.from), endsNow: false };
  }
  const { ms, bucketMs } = presetOf(choice.preset);
  const earliest = now - RETENTION_DAYS * DAY + CLOCK_MARGIN_MS;
  return { from: ceilTo(Math.max(now - ms, earliest), bucketMs), to: now, bucketMs, endsNow: true };
}

/** The start of every bucket the range touches, oldest first. */
export function bucketStarts(range: Pick<ResolvedRange, "from" | "to" | "bucketMs">): number[] {
  const first = floorTo(range.from, range.bucketMs);
  const last = floorTo(range.to, range.bucketMs);
  const starts: number[] = [];
  for (let start = first; start <= last; start += range.bucketMs) starts.push(start);
  return starts;
}

/** A custom range of whole buckets, from the first bucket picked to the end of the last, within `range`. */
export function narrowedTo(range: ResolvedRange, firstStart: number, lastStart: number): RangeChoice {
  const from = Math.max(range.from, Math.min(firstStart, lastStart));
  const to = Math.min(range.to, Math.max(firstStart, lastStart) + range.bucketMs - 1);
  return { kind: "custom", from, to };
}

/** A bucket's length in words: "1 minute", "15 minutes", "6 hours", "1 day". */
export function describeBucket(bucketMs: number): string {
  const [count, unit] =
    bucketMs % DAY === 0
      ? [bucketMs / DAY, "day"]
      : bucketMs % HOUR === 0
        ? [bucketMs / HOUR, "hour"]
        : [bucketMs / MINUTE, "minute"];
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

const two = (value: number) => String(value).padStart(2, "0");

/** `2026-11-27T10:05:00` in the browser's time zone: a `datetime-local` input's value for an instant. */
export function toLocalInput(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** The instant a `datetime-local` value names in the browser's time zone; null when it names none. */
export function fromLocalInput(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (match === null) return null;
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(year, month - 1, day, hour, minute, second);
  // A day the month does not have (Feb 30) rolls over: not the day typed.
  return date.getDate() === day && date.getMonth() === month - 1 ? date.getTime() : null;
}

/** "Nov 27, 10:05:09 UTC", or with the year when it is not `now`'s. */
export function formatUtcInstant(ms: number, now: number): string {
  const date = new Date(ms);
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const year = date.getUTCFullYear() === new Date(now).getUTCFullYear() ? "" : ` ${date.getUTCFullYear()}`;
  return `${months[date.getUTCMonth()]} ${date.getUTCDate()}${year}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC`;
}

/** "Nov 27, 10:05:09 – 11:05:09 UTC": a range said once in UTC, the day not repeated when it is the same. */
export function formatUtcRange(from: number, to: number, now: number): string {
  const start = formatUtcInstant(from, now).replace(/ UTC$/, "");
  const end = formatUtcInstant(to, now);
  const sameDay = new Date(from).toISOString().slice(0, 10) === new Date(to).toISOString().slice(0, 10);
  return `${start} – ${sameDay ? end.replace(/^.*, /, "") : end}`;
}
