import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone, shownKeyNames } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// Neither the sorting code nor the scrolling code can load the first time (offline for a moment); each loads on
// its next try.
const failing = vi.hoisted(() => ({ sorting: true, scrolling: true }));
vi.mock("@/features/keys/columns/key-sorting", async (importOriginal) => {
  if (failing.sorting) {
    failing.sorting = false;
    throw new Error("Failed to fetch dynamically imported module: /assets/key-sorting-1234.js");
  }
  return importOriginal();
});
vi.mock("@/features/keys/components/virtual-key-rows", async (importOriginal) => {
  if (failing.scrolling) {
    failing.scrolling = false;
    throw new Error("Failed to fetch dynamically imported module: /assets/virtual-key-rows-1234.js");
  }
  return importOriginal();
});

const SORTING_FAILED = "The keys cannot be sorted: the table's sorting code could not be loaded from the server.";

test("after another part's Retry loads the sorting code again, its alert goes away and a header click sorts", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope([...makeKeys(2, 1), ...makeKeys(1, 0)]));
  renderKeysListAlone();
  const scrollingFailed = await screen.findByText(/the table's scrolling code could not be loaded/);
  await screen.findByText(SORTING_FAILED);

  // The scrolling code's Retry tries every failed load again (as a navigation does), the sorting code's too.
  const user = userEvent.setup();
  await user.click(within(scrollingFailed).getByRole("button", { name: "Retry" }));
  await user.click(screen.getByRole("button", { name: "Name" }));
  await waitFor(() =>
    expect(screen.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending"),
  );
  expect(shownKeyNames()).toEqual(["Service 0", "Service 1", "Service 2"]);
  await waitFor(() => expect(screen.queryByRole("alert")).not.toBeInTheDocument());
});
