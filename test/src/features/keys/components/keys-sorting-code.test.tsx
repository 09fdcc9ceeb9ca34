import { cleanup, screen, within, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The sorting code (TanStack Table) arrives when the test says so, or never: as on a slow or broken network.
const sortingCode = vi.hoisted(() => {
  let release: (loads: boolean) => void = () => undefined;
  const arrived = new Promise<boolean>((resolve) => (release = resolve));
  return { arrived, release };
});
vi.mock("../../../../../src/features/keys/columns/key-sorting", async (importOriginal) => {
  if (!(await sortingCode.arrived)) throw new Error("Failed to fetch dynamically imported module: /assets/key-sorting-1234.js");
  return importOriginal();
});

afterEach(() => {
  // Unmount before the fetch stub goes: a mounted query would fetch again, for real.
  cleanup();
  vi.unstubAllGlobals();
});

const rowNames = () =>
  within(screen.getByRole("table", { name: "API keys" }))
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getByRole("link").textContent);

test("the first rows come in the loaded order before the sorting code; a header clicked meanwhile sorts once it arrives", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope([...makeKeys(2, 1), ...makeKeys(1, 0)]));
  renderKeysListAlone();
  expect(await screen.findByText("Service 2")).toBeVisible();
  expect(rowNames()).toEqual(["Service 1", "Service 2", "Service 0"]);

  await userEvent.setup().click(screen.getByRole("button", { name: "Name" }));
  expect(rowNames()).toEqual(["Service 1", "Service 2", "Service 0"]);
  sortingCode.release(true);
  await waitFor(() => expect(rowNames()).toEqual(["Service 0", "Service 1", "Service 2"]));
  expect(screen.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");
});
