import { describe, expect, test } from "vitest";
import { exportFileName, keysToCsv, keysToJson } from "@/features/keys/utils/export-keys";
import { csvField, neutralizeFormula } from "@/lib/csv";
import type { ColumnId } from "@/features/keys/columns/column-specs";
import type { Key } from "@/lib/contract";

const NOW = Date.UTC(2026, 10, 22);
const ID_AND_NAME: ColumnId[] = ["keyId", "name"];

describe("CSV", () => {
  test("RFC 4180: commas, quotes and line breaks are quoted, quotes doubled, lines end in CRLF", () => {
    const keys: Key[] = [
      { keyId: "key_1", name: 'Billing, "main"' },
      { keyId: "key_2", name: "two\nlines" },
    ];
    expect(keysToCsv(keys, ID_AND_NAME, NOW)).toBe(
      '\uFEFFkeyId,name\r\nkey_1,"Billing, ""main"""\r\nkey_2,"two\nlines"\r\n',
    );
  });

  test("starts with a UTF-8 byte-order mark, so spreadsheets on Windows read non-ASCII names right (14.16)", () => {
    const csv = keysToCsv([{ keyId: "key_1", name: "Zürich Müller 東京" }], ID_AND_NAME, NOW);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  test("only the table's visible columns, in its order, usage left out (14.5)", () => {
    const key: Key = {
      keyId: "key_1",
      name: "n",
      enabled: false,
      credits: { remaining: 0 },
      identity: { id: "id_1", externalId: "org_1" },
    };
    const csv = keysToCsv([key], ["name", "usage", "status", "credits", "externalId"], NOW);
    expect(csv.slice(1).split("\r\n").slice(0, 2)).toEqual([
      "name,status,creditsRemaining,externalId",
      "n,Disabled; Out of credits,0,org_1",
    ]);
  });

  test("the status column holds what the table shows: Active, Rate limited and Many refusals too (#28.13)", () => {
    const keys: Key[] = [
      { keyId: "key_active", name: "active", enabled: true },
      { keyId: "key_limited", name: "limited", enabled: true },
      { keyId: "key_refused", name: "refused", enabled: true },
      { keyId: "key_bare", name: "bare" },
    ];
    const usage = new Map([
      ["key_limited", { valid: 10, rateLimited: 3, refused: 3 }],
      ["key_refused", { valid: 2, rateLimited: 0, refused: 8 }],
    ]);
    const csv = keysToCsv(keys, ["name", "status"], NOW, (keyId) => usage.get(keyId));
    expect(csv.slice(1).split("\r\n").slice(1, 5)).toEqual([
      "active,Active",
      "limited,Rate limited",
      "refused,Many refusals",
      "bare,",
    ]);
  });

  test.each(['=HYPERLINK("http://evil")', "+1+2", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])(
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

  test("the optional fields: dates as ISO", () => {
    const key: Key = {
      keyId: "key_1",
      name: "n",
      start: "sk_",
      createdAt: 0,
      expires: Date.UTC(2027, 0, 1),
      lastUsedAt: Date.UTC(2026, 0, 1),
    };
    expect(keysToCsv([key], ["keyId", "start", "createdAt", "expires", "lastUsed"], NOW).split("\r\n")[1]).toBe(
      "key_1,sk_,1970-01-01T00:00:00.000Z,2027-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z",
    );
  });

  test("a formula hidden in a name is neutralised and still quoted when it needs to be", () => {
    expect(keysToCsv([{ keyId: "key_1", name: '=cmd|" /C calc"!A0' }], ID_AND_NAME, NOW).split("\r\n")[1]).toBe(
      `key_1,"'=cmd|"" /C calc""!A0"`,
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
