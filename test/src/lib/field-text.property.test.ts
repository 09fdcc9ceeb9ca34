import fc from "fast-check";
import * as v from "valibot";
import { afterEach, describe, expect, test } from "vitest";
import { expiresText } from "@/features/key-actions/components/key-form-fields";
import { CreditCountSchema, RatelimitLimitSchema, RefillDaySchema } from "@/lib/api/key-fields";
import { KEY_FIELD_BOUNDS } from "@/lib/contract";
import {
  ambiguousTimeNote,
  dateTimeText,
  decimalText,
  localDateTimeText,
  NOT_A_NUMBER,
  wholeNumberText,
} from "@/lib/field-text";

/** A local date and time read as the form reads Expires, in the time zone `zone`. */
function inZone<T>(zone: string, read: () => T): T {
  process.env.TZ = zone;
  return read();
}

afterEach(() => {
  delete process.env.TZ;
});

const read = (schema: v.GenericSchema, input: unknown) => {
  const parsed = v.safeParse(schema, input);
  return parsed.success ? { value: parsed.output } : { problem: parsed.issues[0].message };
};
const at = (text: string) => ({ text, incomplete: false });
const instant = v.pipe(v.number(), v.maxValue(KEY_FIELD_BOUNDS.expiresMax));

describe("a whole number is read from its text", () => {
  const credits = wholeNumberText(CreditCountSchema);

  test("what the browser's number input reads as nothing is not a number, said so", () => {
    for (const text of ["1e309", "50-", "1e", "1e3", "0x10", "1,000", "12 3", "∞", "NaN", "--5"])
      expect(read(credits, text)).toEqual({ problem: NOT_A_NUMBER });
  });

  test("empty (spaces too) is none; digits with a sign or spaces around are the number", () => {
    expect(read(credits, "")).toEqual({ value: undefined });
    expect(read(credits, "   ")).toEqual({ value: undefined });
    expect(read(credits, " +007 ")).toEqual({ value: 7 });
  });

  test("the service's bounds are said in words", () => {
    expect(read(credits, "2.5")).toEqual({ problem: "A whole number, without a fraction" });
    expect(read(credits, "-1")).toEqual({ problem: "At least 0" });
    expect(read(credits, "9007199254740992")).toEqual({ problem: "At most 9,007,199,254,740,991" });
    expect(read(wholeNumberText(RatelimitLimitSchema), "0")).toEqual({ problem: "At least 1" });
    expect(read(wholeNumberText(RefillDaySchema), "32")).toEqual({ problem: "A day of the month, 1 to 31" });
  });

  test("any whole number in bounds, written as digits, reads back as itself; no other text reads as a number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (count) => {
        expect(read(credits, String(count))).toEqual({ value: count });
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = read(credits, text);
        if ("value" in result && result.value !== undefined) expect(text.trim()).toMatch(/^[+-]?\d+$/);
      }),
    );
  });

  test("a decimal reads 1.5 and .5, not 1e1", () => {
    const seconds = decimalText(v.number());
    expect(read(seconds, "1.5")).toEqual({ value: 1.5 });
    expect(read(seconds, ".5")).toEqual({ value: 0.5 });
    expect(read(seconds, "1e1")).toEqual({ problem: "Not a number: type digits, like 1.5" });
  });
});

describe("a local date and time is read as the instant it names, or said why not", () => {
  test("a time the clocks skip is said, with the time meant, never stored an hour off", () => {
    expect(inZone("Europe/Berlin", () => read(dateTimeText(instant), at("2027-03-28T02:30")))).toEqual({
      problem: "02:30 does not exist on 2027-03-28 in Europe/Berlin (the clocks skip it); 03:30 is meant?",
    });
    expect(inZone("America/New_York", () => read(dateTimeText(instant), at("2027-03-14T02:15")))).toEqual({
      problem: "02:15 does not exist on 2027-03-14 in America/New_York (the clocks skip it); 03:15 is meant?",
    });
    // Half an hour, not one.
    expect(inZone("Australia/Lord_Howe", () => read(dateTimeText(instant), at("2027-10-03T02:10")))).toEqual({
      problem: "02:10 does not exist on 2027-10-03 in Australia/Lord_Howe (the clocks skip it); 02:40 is meant?",
    });
    // Beside it, the time the clocks jump to is read.
    expect(inZone("Europe/Berlin", () => read(dateTimeText(instant), at("2027-03-28T03:30")))).toEqual({
      value: Date.UTC(2027, 2, 28, 1, 30),
    });
  });

  test("a time the clocks show twice is read as the first, and said so", () => {
    expect(inZone("Europe/Berlin", () => read(dateTimeText(instant), at("2027-10-31T02:30")))).toEqual({
      value: Date.UTC(2027, 9, 31, 0, 30),
    });
    expect(inZone("Europe/Berlin", () => ambiguousTimeNote(at("2027-10-31T02:30")))).toBe(
      "02:30 happens twice on 2027-10-31 in Europe/Berlin: this is the first, at UTC+02:00.",
    );
    expect(inZone("Europe/Berlin", () => ambiguousTimeNote(at("2027-10-31T03:30")))).toBeUndefined();
    expect(inZone("UTC", () => ambiguousTimeNote(at("2027-10-31T02:30")))).toBeUndefined();
  });

  test("every minute shown in a time zone reads back as that minute (the first, where the clocks show it twice)", () => {
    for (const zone of ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]) {
      fc.assert(
        fc.property(
          fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2099, 0, 1) / 60_000 }),
          (minute) => {
            const time = minute * 60_000;
            const result = inZone(zone, () => read(dateTimeText(instant), at(localDateTimeText(time))));
            expect(result).toHaveProperty("value");
            const back = (result as { value: number }).value;
            // Where the clocks show this minute twice, the first of the two: never later, at most an hour earlier.
            expect(time - back).toBeGreaterThanOrEqual(0);
            expect(time - back).toBeLessThanOrEqual(back === time ? 0 : 3_600_000);
          },
        ),
        { numRuns: 300 },
      );
    }
  });

  test("Expires says the service's latest expiry, in the user's time zone and in UTC, for any later year", () => {
    const now = Date.UTC(2026, 10, 28);
    const latest = "At most 2100-01-01 01:00 here (2100-01-01 00:00 UTC), the latest expiry the service takes";
    for (const text of ["2100-01-01T01:01", "2100-01-02T00:00", "9999-12-31T23:59", "275760-09-13T00:00"])
      expect(inZone("Europe/Berlin", () => read(expiresText(now), at(text)))).toEqual({ problem: latest });
    expect(inZone("Europe/Berlin", () => read(expiresText(now), at("2100-01-01T01:00")))).toEqual({
      value: KEY_FIELD_BOUNDS.expiresMax,
    });
    expect(inZone("Europe/Berlin", () => read(expiresText(now), at("2026-11-27T10:00")))).toEqual({
      problem: "Pick a time in the future",
    });
  });

  test("a date and time filled in only in part is not read as none", () => {
    expect(read(dateTimeText(instant), { text: "", incomplete: true })).toEqual({
      problem: "Fill in the whole date and time, or clear it",
    });
    expect(read(dateTimeText(instant), { text: "", incomplete: false })).toEqual({ value: undefined });
    expect(read(dateTimeText(instant), at("0050-01-01T00:00"))).toEqual({
      value: new Date("0050-01-01T00:00").getTime(),
    });
  });
});
