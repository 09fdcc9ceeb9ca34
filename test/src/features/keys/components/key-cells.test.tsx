import { render, screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { keyCell } from "@/features/keys/components/key-cells";
import type { ColumnId } from "@/features/keys/columns/column-specs";
import type { Key } from "@/lib/contract";

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

function cellText(column: ColumnId, keyData: Key): string {
  render(
    <div data-testid="cell">
      {keyCell({ column, keyData, now: NOW, usage: undefined, compact: false, followLink: undefined })}
    </div>,
  );
  return screen.getByTestId("cell").querySelector("time")?.textContent ?? "";
}

describe("the keys table's times", () => {
  // The page's clock ticks once a minute and a server's may run ahead: a key made or used a moment ago is later than it.
  test("a key used a moment after the page's clock read reads 'just now' in Last used, not as the future", () => {
    expect(cellText("lastUsed", { keyId: "key_1", lastUsedAt: NOW + 20_000 })).toBe("just now");
  });

  test("a key created a moment after the page's clock read reads 'just now' in Created", () => {
    expect(cellText("createdAt", { keyId: "key_1", createdAt: NOW + 20_000 })).toBe("just now");
  });

  test("an expiry is a time to come and stays one", () => {
    expect(cellText("expires", { keyId: "key_1", expires: NOW + 20_000 })).toBe("in under a minute");
  });

  test("a past use reads as the past", () => {
    expect(cellText("lastUsed", { keyId: "key_1", lastUsedAt: NOW - 3 * 3_600_000 })).toBe("3 hours ago");
  });
});
