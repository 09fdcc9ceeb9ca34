import { describe, expect, test } from "vitest";
import { fitColumns } from "@/features/keys/columns/fit-columns";
import type { ColumnId } from "@/features/keys/columns/column-specs";

const DEFAULT: ColumnId[] = ["name", "keyId", "status", "lastUsed", "usage", "credits", "externalId", "expires"];

describe("fitColumns", () => {
  test("folds nothing before the table is laid out", () => {
    expect(fitColumns(DEFAULT, { width: 0, compact: false })).toEqual({ shown: DEFAULT, folded: [] });
  });

  test("keeps every column when their least widths fit", () => {
    expect(fitColumns(DEFAULT, { width: 1300, compact: false }).folded).toEqual([]);
  });

  test("folds the lowest priorities first and keeps the table's order", () => {
    expect(fitColumns(DEFAULT, { width: 720, compact: false })).toEqual({
      shown: ["name", "status", "lastUsed", "usage"],
      folded: ["keyId", "credits", "externalId", "expires"],
    });
    expect(fitColumns(DEFAULT, { width: 976, compact: false }).shown).toEqual([
      "name",
      "keyId",
      "status",
      "lastUsed",
      "usage",
      "credits",
    ]);
  });

  test("the name shows however narrow the table", () => {
    expect(fitColumns(DEFAULT, { width: 50, compact: false }).shown).toEqual(["name"]);
  });

  test("a pinned column (sorted by, or turned on) shows before the others", () => {
    const { shown } = fitColumns(DEFAULT, { width: 720, compact: false, pinned: new Set<ColumnId>(["expires"]) });
    expect(shown).toContain("expires");
    expect(shown).not.toContain("lastUsed");
  });

  test("a phone's card always holds name, badges, usage and id, and as many small fields as one line holds", () => {
    const { shown, folded } = fitColumns(DEFAULT, { width: 351, compact: true });
    expect(shown).toEqual(["name", "keyId", "status", "lastUsed", "usage", "credits"]);
    expect(folded).toEqual(["externalId", "expires"]);
  });
});
