import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The sorting code cannot load (offline, a stale deploy): its module fails to import.
vi.mock("../../../../../src/features/keys/columns/key-sorting", () => {
  throw new Error("Failed to fetch dynamically imported module: /assets/key-sorting-1234.js");
});

afterEach(() => {
  // Unmount before the fetch stub goes: a mounted query would fetch again, for real.
  cleanup();
  vi.unstubAllGlobals();
});

test("when the sorting code cannot load, the rows stay usable in the loaded order and a line says sorting is unavailable, with Retry", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope([...makeKeys(2, 1), ...makeKeys(1, 0)]));
  renderKeysListAlone();
  const alert = await screen.findByRole("alert");
  expect(alert).toHaveTextContent("The keys cannot be sorted: the table's sorting code could not be loaded from the server.");
  const table = screen.getByRole("table", { name: "API keys" });
  const rows = within(table).getAllByRole("row").slice(1);
  expect(rows.map((row) => within(row).getByRole("link").textContent)).toEqual(["Service 1", "Service 2", "Service 0"]);
  expect(within(rows[0]!).getByRole("button", { name: /copy/i })).toBeEnabled();

  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Name" }));
  expect(screen.getByRole("columnheader", { name: "Name" })).not.toHaveAttribute("aria-sort");
  await user.click(within(alert).getByRole("button", { name: "Retry" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("The keys cannot be sorted");
});
