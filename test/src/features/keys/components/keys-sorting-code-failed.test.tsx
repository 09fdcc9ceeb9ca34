import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone, shownKeyNames } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The sorting code cannot load the first time (offline for a moment, a stale deploy); it loads on the next try.
const failing = vi.hoisted(() => ({ sorting: true }));
vi.mock("@/features/keys/columns/key-sorting", async (importOriginal) => {
  if (failing.sorting) {
    failing.sorting = false;
    throw new Error("Failed to fetch dynamically imported module: /assets/key-sorting-1234.js");
  }
  return importOriginal();
});

const SORTING_FAILED = "The keys cannot be sorted: the table's sorting code could not be loaded from the server.";

test("when the sorting code cannot load, the rows stay usable in the loaded order, a line says sorting is unavailable, and Retry brings sorting back", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope([...makeKeys(2, 1), ...makeKeys(1, 0)]));
  renderKeysListAlone();
  const alert = await screen.findByRole("alert");
  expect(alert).toHaveTextContent(SORTING_FAILED);
  expect(shownKeyNames()).toEqual(["Service 1", "Service 2", "Service 0"]);
  const table = screen.getByRole("table", { name: "API keys" });
  expect(within(within(table).getAllByRole("row")[1]!).getByRole("button", { name: /copy/i })).toBeEnabled();

  const user = userEvent.setup();
  await user.click(within(alert).getByRole("button", { name: "Retry" }));
  await waitFor(() => expect(screen.queryByRole("alert")).not.toBeInTheDocument());
  await user.click(screen.getByRole("button", { name: "Name" }));
  await waitFor(() =>
    expect(screen.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending"),
  );
  expect(shownKeyNames()).toEqual(["Service 0", "Service 1", "Service 2"]);
});
