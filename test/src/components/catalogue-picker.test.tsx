import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { beforeEach, expect, test, vi } from "vitest";
import { CataloguePicker } from "@/components/catalogue-picker";
import { newPermissionOffer } from "@/lib/catalogue-query";
import type { CatalogueEntry, CatalogueSearch } from "@/lib/hooks/use-catalogue-search";

// happy-dom lays nothing out: the list is as tall as its CSS makes it.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(240);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(400);
});

function search(entries: CatalogueEntry[] | undefined, more: Partial<CatalogueSearch> = {}): CatalogueSearch {
  return {
    text: "",
    setText: vi.fn(),
    asked: "",
    entries,
    loading: false,
    stale: false,
    hasMore: false,
    loadMore: vi.fn(),
    error: null,
    retry: vi.fn(),
    ...more,
  };
}

const ENTRIES = [
  { value: "docs.read", name: "Read docs", description: "Reads them" },
  { value: "docs.write" },
  { value: "reports.view" },
];

/** A picker in a form, as a dialog has it: `submitted` counts the form's submits. */
function Picker({ found, initial = [] }: { found: CatalogueSearch; initial?: string[] }) {
  const [picked, setPicked] = useState(initial);
  const [submitted, setSubmitted] = useState(0);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted((count) => count + 1);
      }}
    >
      <CataloguePicker
        legend="Permissions"
        noun="permission"
        picked={picked}
        onPickedChange={setPicked}
        search={found}
        newEntry={newPermissionOffer}
      />
      <output aria-label="Submitted">{submitted}</output>
    </form>
  );
}

test("Up and Down move through the entries from the search box, Enter picks or unpicks the one marked and never sends the form", async () => {
  const user = userEvent.setup();
  render(<Picker found={search(ENTRIES)} initial={["docs.write"]} />);
  const box = screen.getByRole("combobox", { name: "Find permissions" });
  const options = await within(screen.getByRole("listbox", { name: "Permissions found" })).findAllByRole("option");
  expect(options.map((option) => option.getAttribute("aria-selected"))).toEqual(["false", "true", "false"]);
  expect(options[0]).toHaveAccessibleName(/^docs\.read\s+Read docs · Reads them$/);
  await user.click(box);
  await user.keyboard("{ArrowDown}{ArrowDown}");
  expect(box).toHaveAttribute("aria-activedescendant", options[1]?.id);
  await user.keyboard("{Enter}");
  expect(options[1]).toHaveAttribute("aria-selected", "false");
  await user.keyboard("{ArrowUp}{Enter}");
  expect(options[0]).toHaveAttribute("aria-selected", "true");
  expect(screen.getByRole("list", { name: "Permissions picked" })).toHaveTextContent(/^docs\.readRemove$/);
  expect(screen.getByRole("status", { name: "Submitted" })).toHaveTextContent("0");
  // The focus stayed in the box.
  expect(box).toHaveFocus();
});

test("a click picks without taking the focus from where it was; Remove takes a pick out", async () => {
  const user = userEvent.setup();
  render(<Picker found={search(ENTRIES)} />);
  expect(screen.getByText("No permissions picked.")).toBeInTheDocument();
  await user.click(await screen.findByRole("option", { name: /^reports\.view/ }));
  expect(screen.getByRole("option", { name: /^reports\.view/ })).toHaveAttribute("aria-selected", "true");
  await user.click(screen.getByRole("button", { name: "Remove permission reports.view" }));
  expect(screen.getByRole("option", { name: /^reports\.view/ })).toHaveAttribute("aria-selected", "false");
});

test("a name typed that no entry has is offered as new once the entries are its search's own; one that cannot be a slug says why", async () => {
  const user = userEvent.setup();
  const { rerender } = render(<Picker found={search(ENTRIES, { text: "billing.read", asked: "", stale: true })} />);
  // The entries are the previous search's: nothing is offered from them, and the status says it is searching.
  expect(screen.queryByRole("button", { name: /^Pick/ })).toBeNull();
  expect(screen.getByText("Searching for “billing.read”…")).toBeInTheDocument();
  rerender(<Picker found={search([], { text: "billing.read", asked: "billing.read" })} />);
  expect(screen.getByText("No permission matching “billing.read”.")).toBeInTheDocument();
  await user.click(
    screen.getByRole("button", { name: "Pick “billing.read”, a new permission (the change creates it)" }),
  );
  expect(screen.getByRole("list", { name: "Permissions picked" })).toHaveTextContent("billing.read");
  // Picked: not offered again.
  expect(screen.queryByRole("button", { name: /^Pick/ })).toBeNull();
  rerender(<Picker found={search([], { text: "billing read", asked: "billing read" })} />);
  expect(screen.getByText(/A permission name holds only letters, digits and _ : - \. \*/)).toBeInTheDocument();
  expect(screen.queryByRole("button", { name: /^Pick/ })).toBeNull();
});

test("near the end of what is loaded, the next page is asked for; a long list draws only the entries in view", async () => {
  const loadMore = vi.fn();
  const many = Array.from({ length: 500 }, (_, n) => ({ value: `scope.${n}` }));
  render(<Picker found={search(many.slice(0, 10), { hasMore: true, loadMore })} />);
  expect(loadMore).toHaveBeenCalled();
  expect(
    screen.getByText("10 permissions loaded; more load as you scroll. Up and Down move, Enter picks."),
  ).toBeInTheDocument();
  loadMore.mockClear();
  render(<Picker found={search(many, { hasMore: true, loadMore })} />);
  const lists = screen.getAllByRole("listbox", { name: "Permissions found" });
  expect((await within(lists[1] as HTMLElement).findAllByRole("option")).length).toBeLessThan(30);
  expect(loadMore).not.toHaveBeenCalled();
});

test("a catalogue that cannot be listed: what is said in its place, with the picks still removable", () => {
  render(
    <CataloguePicker
      legend="Roles"
      noun="role"
      picked={["viewer"]}
      onPickedChange={vi.fn()}
      search={search(undefined, { error: null })}
      unlisted={<p>This root key may not list the workspace’s roles; type the names.</p>}
    />,
  );
  expect(screen.queryByRole("combobox")).toBeNull();
  expect(screen.getByText(/may not list the workspace’s roles/)).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Remove role viewer" })).toBeInTheDocument();
});
