import { screen, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { ROW_HEIGHT } from "@/features/keys/columns/keys-layout";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The virtualizer's code arrives when the test says so, as on a slow network after the first rows are drawn.
const arrival = await vi.hoisted(async () => (await import("../../../../support/held")).held());
vi.mock("@/features/keys/components/virtual-key-rows", async (importOriginal) => {
  await arrival.released;
  return importOriginal();
});

test("until the virtualizer's code arrives, the table draws the rows a window shows and no more", async () => {
  layKeysListOut(1600, 600);
  stubApi(keysEnvelope(makeKeys(100)));
  renderKeysListAlone();
  await screen.findByText("Service 0");
  const table = screen.getByRole("table", { name: "API keys" });
  expect(table).toHaveAttribute("aria-rowcount", "101");
  // The header's row and one row for each row's height in the window (the overscan comes with the virtualizer).
  const inWindow = Math.ceil(window.innerHeight / ROW_HEIGHT);
  expect(within(table).getAllByRole("row")).toHaveLength(inWindow + 1);
  expect(within(table).getAllByRole("row").at(-1)).toHaveTextContent(`Service ${inWindow - 1}`);
});

test("a table scrolled to its end before the virtualizer's code arrives draws the rows there and loads the next page", async () => {
  layKeysListOut(1600, 600);
  const api = stubApi(
    keysEnvelope(makeKeys(100, 0), { cursor: "key_000099", hasMore: true }),
    keysEnvelope(makeKeys(100, 100), { hasMore: false }),
  );
  renderKeysListAlone();
  await screen.findByText("Service 0");
  // Scrolled to the end while the first rows are drawn without the virtualizer (no scroll event reaches it).
  const scroller = screen.getByRole("table", { name: "API keys" }).parentElement!;
  scroller.scrollTop = 100 * ROW_HEIGHT - 600;
  expect(api.requests).toHaveLength(1);

  arrival.release();
  expect(await screen.findByText("Service 99")).toBeInTheDocument();
  expect(await screen.findByText("200 keys")).toBeVisible();
  expect(api.requests[1]?.body).toEqual({ cursor: "key_000099" });
});
