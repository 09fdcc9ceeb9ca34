import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { SafeName } from "@/components/safe-name";
import { hasBidiControls, revealBidiControls } from "@/lib/bidi";

const DISGUISED = "\u202Egnp.exe\u202C invoice";

test("a name with a right-to-left override shows the override instead of being reordered by it", () => {
  const { container } = render(
    <p>
      Key: <SafeName>{DISGUISED}</SafeName>
    </p>,
  );
  const name = container.querySelector("bdi");
  expect(name).not.toBeNull();
  expect(name?.textContent).toBe("⟨U+202E⟩gnp.exe⟨U+202C⟩ invoice");
  expect(hasBidiControls(name?.textContent ?? "")).toBe(false);
  expect(screen.getByTitle(/U\+202E \(RIGHT-TO-LEFT OVERRIDE\)/)).toHaveClass("bidi-control");
});

test("every bidirectional control is revealed, and plain names (Arabic too) are left alone", () => {
  for (const control of [
    "\u202A",
    "\u202B",
    "\u202C",
    "\u202D",
    "\u202E",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200E",
    "\u200F",
    "\u061C",
  ]) {
    const revealed = revealBidiControls(`a${control}b`);
    expect(revealed).toMatch(/^a⟨U\+[0-9A-F]{4}⟩b$/);
    expect(hasBidiControls(revealed)).toBe(false);
  }
  expect(revealBidiControls("Billing worker")).toBe("Billing worker");
  expect(revealBidiControls("مفتاح الفوترة")).toBe("مفتاح الفوترة");
  render(<SafeName>Billing worker</SafeName>);
  expect(screen.getByText("Billing worker").tagName).toBe("BDI");
});

test("names that are also properties of every object (toString, __proto__, constructor) are plain text", () => {
  for (const name of ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf"]) {
    expect(revealBidiControls(name)).toBe(name);
  }
  render(<SafeName>toString</SafeName>);
  expect(screen.getByText("toString").tagName).toBe("BDI");
  expect(document.querySelector(".bidi-control")).toBeNull();
});
