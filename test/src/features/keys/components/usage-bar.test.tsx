import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { UsageBar } from "@/features/keys/components/usage-bar";

test("the usage bar draws each hour's valid verifications below its refused ones, scaled to the busiest hour, in three paths", () => {
  const { container } = render(
    <UsageBar
      usage={{
        hours: [
          { valid: 2, refused: 2 },
          { valid: 0, refused: 0 },
          { valid: 1, refused: 0 },
        ],
        totals: { valid: 3, refused: 2, rateLimited: 0 },
      }}
    />,
  );
  expect(screen.getByText("36 h: 3 valid, 2 refused")).toBeInTheDocument();
  const paths = [...container.querySelectorAll("path")].map((path) => [
    path.getAttribute("class"),
    path.getAttribute("d"),
  ]);
  expect(paths).toEqual([
    // A 1-pixel baseline under every hour, 3 wide with a 1-pixel gap, in a 20-pixel-high picture.
    ["usage-bar__empty", "M0 19h3v1h-3zM4 19h3v1h-3zM8 19h3v1h-3z"],
    ["usage-bar__valid", "M0 10h3v10h-3zM8 15h3v5h-3z"],
    ["usage-bar__refused", "M0 0h3v10h-3z"],
  ]);
});
