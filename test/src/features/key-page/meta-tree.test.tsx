import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { ENTRIES_SHOWN, MetaTree, STRING_SHOWN } from "@/features/key-page/components/meta-tree";

describe("the meta tree", () => {
  test("hostile values show as text: no link, no markup, direction overrides made visible", () => {
    render(
      <MetaTree
        label="Meta"
        value={{
          homepage: "javascript:alert(1)",
          bio: "<img src=x onerror=alert(1)>",
          file: "invoice\u202Efdp.exe",
          nested: { deep: true },
        }}
      />,
    );
    const tree = screen.getByRole("group", { name: "Meta" });
    expect(within(tree).queryByRole("link")).toBeNull();
    expect(tree.querySelector("img")).toBeNull();
    expect(tree).toHaveTextContent("javascript:alert(1)");
    expect(tree).toHaveTextContent("<img src=x onerror=alert(1)>");
    expect(tree).toHaveTextContent("invoice⟨U+202E⟩fdp.exe");
    expect(tree.textContent).not.toContain("\u202E");
    expect(within(tree).getByText("{1 field}")).toBeVisible();
  });

  test("a 1 MB object shows its first entries, and a button for more", () => {
    // About 1 MB of meta.
    const big = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`field${index}`, "x".repeat(200)]));
    render(<MetaTree label="Meta" value={big} />);
    expect(screen.getAllByRole("listitem")).toHaveLength(ENTRIES_SHOWN + 1);
    expect(screen.getByRole("button", { name: /Show 1,000 more \(4,950 hidden\)/ })).toBeVisible();
  });

  test("the last entries of a large list are shown all at once", async () => {
    const user = userEvent.setup();
    render(<MetaTree label="Meta" value={Array.from({ length: 300 }, (_, index) => index)} />);
    await user.click(screen.getByRole("button", { name: "Show all 300 (250 hidden)" }));
    expect(screen.getAllByRole("listitem")).toHaveLength(300);
  });

  test("a long string is cut, with a button to show all of it", async () => {
    const user = userEvent.setup();
    render(<MetaTree label="Meta" value={{ blob: "y".repeat(1_000_000) }} />);
    const tree = screen.getByRole("group", { name: "Meta" });
    expect(tree.textContent?.length).toBeLessThan(STRING_SHOWN + 200);
    await user.click(screen.getByRole("button", { name: "Show all 1,000,000 characters" }));
    expect(tree.textContent?.length).toBeGreaterThan(1_000_000);
  });

  test("closed branches render nothing inside until opened", async () => {
    const user = userEvent.setup();
    render(<MetaTree label="Meta" value={{ a: { b: { secretlyDeep: 1 } } }} />);
    expect(screen.queryByText(/secretlyDeep/)).toBeNull();
    const summaries = screen.getAllByText("{1 field}");
    await user.click(summaries.at(-1) ?? document.body);
    expect(await screen.findByText(/secretlyDeep/)).toBeInTheDocument();
  });
});
