import { cleanup, screen } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import { keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { renderKeysListAlone } from "../../../support/render-keys-list";
import { layKeysListOut } from "../../../support/viewport";

// The virtualizer's code arrives when the test says so, as on a slow network after the first rows are drawn.
const arrival = vi.hoisted(() => {
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { arrived, release };
});
vi.mock("../../../../../src/features/keys/components/virtual-key-rows", async (importOriginal) => {
  await arrival.arrived;
  return importOriginal();
});

afterEach(() => {
  // Unmount before the fetch stub goes: a mounted query would fetch again, for real.
  cleanup();
  vi.unstubAllGlobals();
});

test("a table scrolled to its end before the virtualizer's code arrives draws the rows there and loads the next page", async () => {
  layKeysListOut(1600, 600);
  const api = stubApi(keysEnvelope(makeKeys(100, 0), { cursor: "key_000099", hasMore: true }), keysEnvelope(makeKeys(100, 100), { hasMore: false }));
  renderKeysListAlone();
  await screen.findByText("Service 0");
  // Scrolled to the end while the first rows are drawn without the virtualizer (no scroll event reaches it).
  const scroller = screen.getByRole("table", { name: "API keys" }).parentElement!;
  scroller.scrollTop = 100 * 52 - 600;
  expect(api.requests).toHaveLength(1);

  arrival.release();
  expect(await screen.findByText("Service 99")).toBeInTheDocument();
  expect(await screen.findByText("200 keys")).toBeVisible();
  expect(api.requests[1]?.body).toEqual({ cursor: "key_000099" });
});
