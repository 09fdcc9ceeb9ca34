/**
 * What a form's number and date fields hold, read from their text as typed: a value, empty, or a problem in words.
 * Never through a browser's number parsing: an `<input type="number">`'s value is empty for `1e309`, `50-` or `1e`,
 * which a form would read as nothing typed. Each reader is a valibot schema from the text to the value, ending in the
 * schema of the value itself (the service's bounds, src/lib/api/key-fields.ts). Written here: valibot's `toNumber`
 * reads `1e3` and `" "` as numbers, and Temporal, which would refuse a time in a gap, is not in Node 20 (the tests).
 */
import * as v from "valibot";

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Said of text that is not a number at all. */
export const NOT_A_NUMBER = "Not a number: type digits only, like 100";

/** A whole number's text (digits, an optional sign) read into `number`'s schema; empty text is `undefined`. */
export function wholeNumberText(number: v.GenericSchema<number, number>) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text === "" || WHOLE.test(text) || DECIMAL.test(text), NOT_A_NUMBER),
    v.check((text) => text === "" || WHOLE.test(text), "A whole number, without a fraction"),
    v.transform((text) => (text === "" ? undefined : Number(text))),
    v.optional(number),
  );
}

/** A decimal number's text (`1.5`, `.5`, `2`) read into `number`'s schema; empty text is `undefined`. */
export function decimalText(number: v.GenericSchema<number, number>) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text === "" || DECIMAL.test(text), "Not a number: type digits, like 1.5"),
    v.transform((text) => (text === "" ? undefined : Number(text))),
    v.optional(number),
  );
}

/**
 * A `datetime-local` field as the browser has it: its value, and whether what is shown is only part of a date and
 * time (its value is then empty, as it is for an empty field).
 */
export interface DateTimeText {
  text: string;
  incomplete: boolean;
}

export const NO_DATE_TIME: DateTimeText = { text: "", incomplete: false };

/** A `datetime-local` value ("2027-03-28T02:30", seconds optional) as its wall-clock parts. */
const LOCAL_DATE_TIME = /^(\d{4,6})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

function wallTimeOf(text: string): WallTime | undefined {
  const match = LOCAL_DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second = 0, ms = 0] = match
    .slice(1)
    .map((part, index) => (part === undefined ? 0 : index === 6 ? Number(part.padEnd(3, "0")) : Number(part)));
  return { year: year ?? 0, month: month ?? 0, day: day ?? 0, hour: hour ?? 0, minute: minute ?? 0, second, ms };
}

/** The instant a wall-clock time names here; in a gap, the one the clocks jump to (as every browser reads it). */
function instantOf(time: WallTime): number {
  // Not `new Date(year, …)`, which reads years 0–99 as 1900–1999.
  const date = new Date(2000, 0, 1);
  date.setFullYear(time.year, time.month - 1, time.day);
  date.setHours(time.hour, time.minute, time.second, time.ms);
  return date.getTime();
}

/** The wall-clock time `at` shows in this browser's time zone. */
function wallTimeAt(at: number): WallTime {
  const date = new Date(at);
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
    ms: date.getMilliseconds(),
  };
}

const sameWallTime = (a: WallTime, b: WallTime) =>
  a.year === b.year &&
  a.month === b.month &&
  a.day === b.day &&
  a.hour === b.hour &&
  a.minute === b.minute &&
  a.second === b.second &&
  a.ms === b.ms;

const pad = (value: number) => String(value).padStart(2, "0");
const clock = (time: WallTime) => `${pad(time.hour)}:${pad(time.minute)}`;
const dateOf = (time: WallTime) => `${time.year}-${pad(time.month)}-${pad(time.day)}`;

/** This browser's time zone by name ("Europe/Berlin"), said where a local time is ambiguous or missing. */
function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "this time zone";
}

/** The `datetime-local` value of an instant, in this browser's time zone, to the minute. */
export function localDateTimeText(at: number): string {
  const time = wallTimeAt(at);
  return `${dateOf(time)}T${clock(time)}`;
}

/** "+02:00": how far this browser's time zone is from UTC at `at`. */
function utcOffset(at: number): string {
  const minutes = -new Date(at).getTimezoneOffset();
  const sign = minutes < 0 ? "-" : "+";
  return `UTC${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/**
 * A local date and time read as the instant it names, `undefined` when empty. A time the clocks skip (a daylight-saving
 * gap) names no instant: said, never moved an hour without a word. Bounds on the instant are the next schema's.
 */
export function dateTimeText(instant: v.GenericSchema<number, number>) {
  return v.pipe(
    v.object({ text: v.string(), incomplete: v.boolean() }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const { text, incomplete } = dataset.value;
      if (incomplete) {
        addIssue({ message: "Fill in the whole date and time, or clear it" });
        return NEVER;
      }
      if (text.trim() === "") return undefined;
      const wall = wallTimeOf(text.trim());
      if (wall === undefined) {
        addIssue({ message: "Not a date and time" });
        return NEVER;
      }
      const at = instantOf(wall);
      // Beyond what a Date holds (year 275760): not an instant, so the bounds are said by the next schema's words.
      if (!Number.isFinite(at)) return wall.year > 1970 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
      if (!sameWallTime(wallTimeAt(at), wall)) {
        addIssue({
          message: `${clock(wall)} does not exist on ${dateOf(wall)} in ${timeZone()} (the clocks skip it); ${clock(wallTimeAt(at))} is meant?`,
        });
        return NEVER;
      }
      return at;
    }),
    v.optional(instant),
  );
}

/**
 * Said of a local time the clocks show twice (when they go back an hour): which of the two instants it is read as,
 * the first, as every browser reads it. Undefined for any other text.
 */
export function ambiguousTimeNote(field: DateTimeText): string | undefined {
  const wall = wallTimeOf(field.text.trim());
  if (field.incomplete || wall === undefined) return undefined;
  const at = instantOf(wall);
  if (!Number.isFinite(at)) return undefined;
  // The clocks go back (the offset from UTC shrinks) by the difference of the offsets around it: an hour, mostly.
  const back = new Date(at - 86_400_000).getTimezoneOffset() - new Date(at + 86_400_000).getTimezoneOffset();
  const later = at - back * 60_000;
  if (back >= 0 || !sameWallTime(wallTimeAt(later), wall)) return undefined;
  return `${clock(wall)} happens twice on ${dateOf(wall)} in ${timeZone()}: this is the first, at ${utcOffset(at)}.`;
}

/** Meta as JSON text: empty is none, else a JSON object, said as it is typed. */
export const MetaTextSchema = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }): Record<string, unknown> | undefined => {
    const text = dataset.value;
    if (text.trim() === "") return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      addIssue({ message: `Not JSON: ${error instanceof Error ? error.message : "cannot be read"}` });
      return NEVER;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      addIssue({ message: 'Meta must be a JSON object, like {"plan": "pro"}' });
      return NEVER;
    }
    return { ...value };
  }),
);
