import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The virtualizer's code cannot load (offline, a stale deploy): its module fails to import.
vi.mock("@/features/keys/components/virtual-key-rows", () => {
  throw new Error("Failed to fetch dynamically imported module: /assets/virtual-key-rows-1234.js");
});

test("when the table's scrolling code cannot load, the first rows stay usable and a line says so, with Retry", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope(makeKeys(100)));
  renderKeysListAlone();
  const alert = await screen.findByRole("alert");
  expect(alert).toHaveTextContent(
    /^Only the first \d+ keys can be shown: the table's scrolling code could not be loaded from the server\./,
  );
  const shown = Number(/first (\d+) keys/.exec(alert.textContent ?? "")?.[1]);
  // The rows the window shows and the overscan below them, drawn by the table's own rows; not all 100.
  expect(shown).toBe(Math.ceil(window.innerHeight / 52) + 10);
  const table = screen.getByRole("table", { name: "API keys" });
  expect(table).toHaveAttribute("aria-rowcount", "101");
  const rows = within(table).getAllByRole("row");
  expect(rows).toHaveLength(shown + 1);
  expect(rows[1]).toHaveTextContent("Service 0");
  expect(within(rows[1]!).getByRole("button", { name: /copy/i })).toBeEnabled();

  await userEvent.setup().click(within(alert).getByRole("button", { name: "Retry" }));
  expect(await screen.findByRole("alert")).toHaveTextContent(`Only the first ${shown} keys can be shown`);
});
