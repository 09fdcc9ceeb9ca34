import { render } from "@testing-library/react";
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { BrandMark } from "@/app/brand-mark";

/** Each shape of an SVG as its tag and attributes, in order: what it draws. */
function shapes(svg: Element): string[] {
  return [...svg.children].map((shape) => {
    const attributes = [...shape.attributes].map((attribute) => `${attribute.name}=${attribute.value}`).sort();
    return `${shape.tagName.toLowerCase()} ${attributes.join(" ")}`;
  });
}

test("the header's mark draws what the tab's icon (public/favicon.svg) draws, on the same canvas", () => {
  const icon = new DOMParser().parseFromString(
    readFileSync("public/favicon.svg", "utf8"),
    "image/svg+xml",
  ).documentElement;
  const { container } = render(<BrandMark />);
  const mark = container.querySelector("svg");
  if (mark === null) throw new Error("no svg drawn");
  expect(mark.getAttribute("viewBox")).toBe(icon.getAttribute("viewBox"));
  expect(shapes(mark)).toEqual(shapes(icon));
  expect(shapes(mark)).toHaveLength(3);
  // A decoration beside the name: nothing for a screen reader to read twice.
  expect(mark.getAttribute("aria-hidden")).toBe("true");
});
