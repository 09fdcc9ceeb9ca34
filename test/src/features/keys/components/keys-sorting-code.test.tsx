import { screen, within, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone, shownKeyNames } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The sorting code (TanStack Table) arrives when the test says so, or never: as on a slow or broken network.
const sortingCode = vi.hoisted(() => {
  let release: (loads: boolean) => void = () => undefined;
  const arrived = new Promise<boolean>((resolve) => (release = resolve));
  return { arrived, release };
});
vi.mock("@/features/keys/columns/key-sorting", async (importOriginal) => {
  if (!(await sortingCode.arrived))
    throw new Error("Failed to fetch dynamically imported module: /assets/key-sorting-1234.js");
  return importOriginal();
});

test("the first rows come in the loaded order before the sorting code; header clicks meanwhile say it is sorting, and the last one wins, from the sort as shown", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope([...makeKeys(2, 1), ...makeKeys(1, 0)]));
  renderKeysListAlone();
  expect(await screen.findByText("Service 2")).toBeVisible();
  expect(shownKeyNames()).toEqual(["Service 1", "Service 2", "Service 0"]);

  // Three impatient clicks on an unsorted column: each asks for its first direction, not for the next toggle.
  const user = userEvent.setup();
  const name = screen.getByRole("columnheader", { name: "Name" });
  for (let click = 0; click < 3; click += 1) await user.click(within(name).getByRole("button"));
  expect(shownKeyNames()).toEqual(["Service 1", "Service 2", "Service 0"]);
  expect(name).toHaveAttribute("aria-busy", "true");
  expect(within(name).getByText("Sorting…")).toBeInTheDocument();

  sortingCode.release(true);
  await waitFor(() => expect(shownKeyNames()).toEqual(["Service 0", "Service 1", "Service 2"]));
  expect(name).toHaveAttribute("aria-sort", "ascending");
  expect(name).not.toHaveAttribute("aria-busy");
  expect(within(name).queryByText("Sorting…")).not.toBeInTheDocument();
});
