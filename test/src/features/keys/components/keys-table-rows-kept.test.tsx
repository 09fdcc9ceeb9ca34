import { screen, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { ROW_HEIGHT } from "@/features/keys/columns/keys-layout";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The virtualizer's code arrives when the test says so, after the first rows are drawn.
const arrival = await vi.hoisted(async () => (await import("../../../../support/held")).held());
vi.mock("@/features/keys/components/virtual-key-rows", async (importOriginal) => {
  await arrival.released;
  return importOriginal();
});

test("when the virtualizer's code arrives, the rows already drawn stay the same elements (focus kept) and it adds the rows below", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope(makeKeys(100)));
  renderKeysListAlone();
  await screen.findByText("Service 0");
  const table = screen.getByRole("table", { name: "API keys" });
  const inWindow = Math.ceil(window.innerHeight / ROW_HEIGHT);
  const before = within(table).getAllByRole("row").slice(1);
  expect(before).toHaveLength(inWindow);
  // A person who has tabbed to a key's link before the code comes keeps their place.
  const link = within(before[0]!).getByRole("link", { name: "Service 0" });
  link.focus();

  arrival.release();
  // The virtualizer draws its overscan below the window's rows.
  await screen.findByText(`Service ${inWindow}`);
  const after = within(table).getAllByRole("row").slice(1);
  expect(after.length).toBeGreaterThan(inWindow);
  // Not unmounted and drawn again: the same DOM nodes, with their text.
  after.slice(0, inWindow).forEach((row, index) => expect(row).toBe(before[index]));
  expect(after[0]).toHaveTextContent("Service 0");
  expect(link).toHaveFocus();
});
