import { act, cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The sorting code arrives when the test says so, as on a slow network after the first rows are drawn.
const arrival = vi.hoisted(() => {
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { arrived, release };
});
vi.mock("../../../../../src/features/keys/columns/key-sorting", async (importOriginal) => {
  await arrival.arrived;
  return importOriginal();
});

afterEach(() => {
  // Unmount before the fetch stub goes: a mounted query would fetch again, for real.
  cleanup();
  vi.unstubAllGlobals();
});

test("header clicks before the sorting code arrives say it is sorting, and the last one wins, from the sort as it was shown", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope([...makeKeys(2, 1), ...makeKeys(1, 0)]));
  renderKeysListAlone();
  await screen.findByText("Service 0");
  const user = userEvent.setup();
  const name = screen.getByRole("columnheader", { name: /Name/ });

  // Three impatient clicks on an unsorted column: each asks for its first direction.
  for (let click = 0; click < 3; click += 1) await user.click(within(name).getByRole("button"));
  expect(name).toHaveAttribute("aria-busy", "true");
  expect(within(name).getByText("Sorting…")).toBeInTheDocument();
  expect(name).not.toHaveAttribute("aria-sort");

  arrival.release();
  await act(async () => {
    await import("../../../../../src/features/keys/columns/key-sorting");
  });
  expect(name).toHaveAttribute("aria-sort", "ascending");
  expect(name).not.toHaveAttribute("aria-busy");
  expect(within(name).queryByText("Sorting…")).not.toBeInTheDocument();
  const table = screen.getByRole("table", { name: "API keys" });
  const names = within(table).getAllByRole("row").slice(1).map((row) => within(row).getByRole("link").textContent);
  expect(names).toEqual(["Service 0", "Service 1", "Service 2"]);
});
