import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { FallbackShell } from "@/app/fallback-shell";
import { HeaderBar, NAV_SECTIONS } from "@/app/header-bar";
import { paths } from "@/app/paths";

function sectionsShown(): { name: string; href: string | null }[] {
  return within(screen.getByRole("navigation", { name: "Main" }))
    .getAllByRole("link")
    .map((link) => ({ name: link.textContent ?? "", href: link.getAttribute("href") }));
}

const EVERY_SECTION = NAV_SECTIONS.map(({ label, path }) => ({ name: label, href: path }));

describe("the header's navigation", () => {
  test("the app's header lists every section, in order, and marks the one shown (a key's page is in Keys)", () => {
    render(
      <MemoryRouter initialEntries={[`${paths.keys}/key_1`]}>
        <HeaderBar links="router" />
      </MemoryRouter>,
    );
    expect(sectionsShown()).toEqual(EVERY_SECTION);
    expect(screen.getByRole("link", { name: "Keys" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("link", { name: "Troubleshoot" })).not.toHaveAttribute("aria-current");
  });

  test("the frame shown when the app failed lists the same sections, as links that load the page afresh", () => {
    render(<FallbackShell>the panel</FallbackShell>);
    expect(sectionsShown()).toEqual(EVERY_SECTION);
    expect(screen.getByRole("link", { name: "Keyscope" })).toHaveAttribute("href", paths.home);
    expect(screen.getByRole("main")).toHaveTextContent("the panel");
  });
});
