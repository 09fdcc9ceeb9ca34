import { describe, expect, test } from "vitest";
import { csvField, exportFileName, keysToCsv, keysToJson, neutralizeFormula } from "../../../../src/features/keys/export-keys";
import type { Key } from "../../../../src/lib/contract";

describe("CSV", () => {
  test("RFC 4180: commas, quotes and line breaks are quoted, quotes doubled, lines end in CRLF", () => {
    const keys: Key[] = [
      { keyId: "key_1", name: 'Billing, "main"' },
      { keyId: "key_2", name: "two\nlines" },
    ];
    expect(keysToCsv(keys)).toBe(
      'keyId,name,start,enabled,createdAt,expires,meta\r\nkey_1,"Billing, ""main""",,,,,\r\nkey_2,"two\nlines",,,,,\r\n',
    );
  });

  test.each(["=HYPERLINK(\"http://evil\")", "+1+2", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])(
    "a cell starting like a formula (%j) gets a leading apostrophe",
    (value) => {
      expect(neutralizeFormula(value)).toBe(`'${value}`);
      expect(csvField(value)).toContain(`'${value.replace(/"/g, '""')}`);
    },
  );

  test("ordinary text is left alone", () => {
    expect(csvField("Checkout service")).toBe("Checkout service");
    expect(csvField("a=b")).toBe("a=b");
  });

  test("the optional fields: dates as ISO, booleans as words, meta as JSON", () => {
    const key: Key = { keyId: "key_1", name: "n", start: "sk_", enabled: false, createdAt: 0, expires: Date.UTC(2027, 0, 1), meta: { team: "a,b" } };
    expect(keysToCsv([key]).split("\r\n")[1]).toBe('key_1,n,sk_,false,1970-01-01T00:00:00.000Z,2027-01-01T00:00:00.000Z,"{""team"":""a,b""}"');
  });

  test("a formula hidden in a name is neutralised and still quoted when it needs to be", () => {
    expect(keysToCsv([{ keyId: "key_1", name: '=cmd|" /C calc"!A0' }]).split("\r\n")[1]).toBe(
      `key_1,"'=cmd|"" /C calc""!A0",,,,,`,
    );
  });
});

describe("JSON", () => {
  test("the keys as loaded, with the count and the time of the export", () => {
    const keys: Key[] = [{ keyId: "key_1", name: "=1+1" }];
    const parsed = JSON.parse(keysToJson(keys, new Date("2026-11-22T10:00:00Z"))) as unknown;
    expect(parsed).toEqual({ exportedAt: "2026-11-22T10:00:00.000Z", count: 1, keys });
  });
});

test("files are named with the date", () => {
  expect(exportFileName("csv", new Date("2026-11-22T23:59:00Z"))).toBe("keyscope-keys-2026-11-22.csv");
  expect(exportFileName("json", new Date("2026-11-22T00:00:00Z"))).toBe("keyscope-keys-2026-11-22.json");
});
