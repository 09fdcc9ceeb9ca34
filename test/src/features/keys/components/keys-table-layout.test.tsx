import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { KeysList } from "@/features/keys/components/keys-list";
import type { Connection } from "@/lib/api/transport";
import { createQueryClient } from "@/lib/query-client";
import { held } from "../../../../support/held";
import { answerAnalytics, keysEnvelope, makeKeys, stubApi } from "../../../support/keys-api";
import { layKeysListOut, onAPhone } from "../../../support/viewport";

const CONNECTION: Connection = { baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" };
const DAY = 24 * 60 * 60 * 1000;

let queryClient: QueryClient;

beforeEach(() => {
  queryClient = createQueryClient();
});

afterEach(() => {
  // Unmount before the cache and the fetch stub go: a mounted usage query would fetch again, for real.
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
});

function renderKeysList() {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient}>
        <KeysList connection={CONNECTION} renderRefreshError={() => <p role="alert">Refresh failed</p>} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { user };
}

const table = () => screen.getByRole("table", { name: "API keys" });
const columnHeaders = () =>
  within(table())
    .getAllByRole("columnheader")
    .map((header) => header.textContent);
const rowNames = () =>
  within(table())
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getByRole("link").textContent);

const NOW = Date.now();
const DETAILED_KEYS = [
  {
    keyId: "key_1",
    name: "Live",
    enabled: true,
    createdAt: NOW - 3 * DAY,
    lastUsedAt: NOW - DAY,
    credits: { remaining: 5 },
    identity: { id: "id_1", externalId: "user_1" },
    expires: NOW + 60 * DAY,
  },
  { keyId: "key_2", name: "Paused", enabled: false, createdAt: NOW - DAY },
];

describe("at a narrow width", () => {
  test("columns of lower priority fold away instead of scrolling sideways, and the column menu says which", async () => {
    layKeysListOut(740);
    stubApi(keysEnvelope(DETAILED_KEYS));
    const { user } = renderKeysList();
    await screen.findByText("Live");
    expect(columnHeaders()).toEqual(["Name", "Status", "Last used", "Usage, 36 h"]);
    await user.click(screen.getByText("Columns", { exact: false, selector: "summary" }));
    expect(screen.getByText("(4 folded)")).toBeVisible();
    const keyId = screen.getByRole("checkbox", { name: /^Key ID/ });
    expect(keyId).toBeChecked();
    expect(keyId.closest("label")).toHaveTextContent("folded at this width");
  });

  test("the rows come in with the columns that fit the window, without measuring the page in the middle of the render", async () => {
    layKeysListOut(740);
    // Reading an element's width while React commits would lay out the whole page before the rows are in.
    const measured = vi.spyOn(HTMLElement.prototype, "clientWidth", "get");
    measured.mockClear();
    stubApi(keysEnvelope(DETAILED_KEYS));
    renderKeysList();
    await screen.findByText("Live");
    expect(columnHeaders()).toEqual(["Name", "Status", "Last used", "Usage, 36 h"]);
    const widthReads = measured.mock.contexts.filter(
      (element) => element instanceof HTMLElement && element.classList.contains("keys-list"),
    );
    expect(widthReads).toEqual([]);
  });

  test("a column the person turns on shows before the others, and a hidden one stays hidden", async () => {
    layKeysListOut(740);
    localStorage.setItem("keyscope.keys.columns", JSON.stringify({ createdAt: true, lastUsed: false }));
    stubApi(keysEnvelope(DETAILED_KEYS));
    renderKeysList();
    await screen.findByText("Live");
    expect(columnHeaders()).toEqual(["Name", "Status", "Usage, 36 h", "Created"]);
  });

  test("a folded column turned off and on again shows before the others", async () => {
    layKeysListOut(950);
    stubApi(keysEnvelope(DETAILED_KEYS));
    const { user } = renderKeysList();
    await screen.findByText("Live");
    expect(columnHeaders()).not.toContain("Credits");
    await user.click(screen.getByText("Columns", { exact: false, selector: "summary" }));
    // Turned off and on again: a choice of the person's, so it shows first.
    await user.click(screen.getByRole("checkbox", { name: /^Credits/ }));
    await user.click(screen.getByRole("checkbox", { name: /^Credits/ }));
    expect(columnHeaders()).toContain("Credits");
  });

  test("with every column room, nothing folds", async () => {
    layKeysListOut(1600);
    stubApi(keysEnvelope(DETAILED_KEYS));
    renderKeysList();
    await screen.findByText("Live");
    expect(columnHeaders()).toEqual([
      "Name",
      "Key ID",
      "Status",
      "Last used",
      "Usage, 36 h",
      "Credits",
      "External ID",
      "Expires",
    ]);
    expect(screen.queryByText(/folded/)).not.toBeInTheDocument();
  });
});

describe("on a phone", () => {
  test("a labelled Sort by control and its direction sort the cards", async () => {
    layKeysListOut(375);
    onAPhone();
    stubApi(
      keysEnvelope([
        { keyId: "key_b", name: "Bravo" },
        { keyId: "key_a", name: "Alpha" },
        { keyId: "key_c", name: "Charlie" },
      ]),
    );
    const { user } = renderKeysList();
    await screen.findByText("Bravo");
    expect(rowNames()).toEqual(["Bravo", "Alpha", "Charlie"]);
    await user.selectOptions(screen.getByLabelText("Sort by"), "Name");
    expect(rowNames()).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect(screen.getByLabelText("Sort direction")).toHaveDisplayValue("A to Z");
    await user.selectOptions(screen.getByLabelText("Sort direction"), "Z to A");
    expect(rowNames()).toEqual(["Charlie", "Bravo", "Alpha"]);
    await user.selectOptions(screen.getByLabelText("Sort by"), "Loaded order");
    expect(rowNames()).toEqual(["Bravo", "Alpha", "Charlie"]);
    expect(screen.queryByLabelText("Sort direction")).not.toBeInTheDocument();
  });

  test("the card shows as many small fields as its line holds", async () => {
    // A 375 px phone less the page's padding.
    layKeysListOut(351);
    onAPhone();
    stubApi(keysEnvelope(DETAILED_KEYS));
    renderKeysList();
    await screen.findByText("Live");
    expect(columnHeaders()).toEqual(["Name", "Key ID", "Status", "Last used", "Usage, 36 h", "Credits"]);
  });
});

describe("sorting by usage", () => {
  test("asks for the totals of every loaded key, not only those in view, and says what the order is based on", async () => {
    layKeysListOut(1600);
    // 300 keys: far more than the rows in view. The busiest is the last one loaded.
    const keys = makeKeys(300);
    const api = stubApi(keysEnvelope(keys));
    answerAnalytics((query) =>
      query.includes("AS total")
        ? [
            { key_id: "key_000299", total: "900" },
            { key_id: "key_000150", total: 40 },
          ]
        : [],
    );
    const { user } = renderKeysList();
    await screen.findByText("Service 0");
    await user.click(within(table()).getByRole("button", { name: "Usage, 36 h" }));
    expect(await screen.findByText("Sorted by the 36-hour usage of the 300 loaded keys.")).toBeVisible();
    expect(rowNames().slice(0, 2)).toEqual(["Service 299", "Service 150"]);
    const totalsQueries = api.analytics
      .map(({ body }) => String(body.query))
      .filter((query) => query.includes("AS total"));
    expect(totalsQueries).toHaveLength(1);
    expect(totalsQueries[0]).toContain("'key_000000'");
    expect(totalsQueries[0]).toContain("'key_000299'");
  });

  test("keys loaded while sorted by usage come last until their totals come, and the note says how many are counted", async () => {
    layKeysListOut(1600);
    stubApi(
      keysEnvelope(makeKeys(100, 0), { cursor: "key_000099", hasMore: true }),
      keysEnvelope(makeKeys(100, 100), { hasMore: false }),
    );
    const { released, release } = held();
    answerAnalytics(async (query) => {
      if (!query.includes("AS total")) return [];
      // The second answer (both pages' keys) waits until the test lets it go.
      if (query.includes("'key_000150'")) await released;
      return [
        { key_id: "key_000050", total: 7 },
        { key_id: "key_000150", total: 90 },
      ];
    });
    const { user } = renderKeysList();
    await screen.findByText("Service 0");
    await user.click(within(table()).getByRole("button", { name: "Usage, 36 h" }));
    expect(
      await screen.findByText(
        "Sorted by the 36-hour usage of the 100 loaded keys. Keys not loaded yet are not part of the order.",
      ),
    ).toBeVisible();
    expect(rowNames()[0]).toBe("Service 50");

    await user.click(screen.getByRole("button", { name: "Load more" }));

    expect(
      await screen.findByText(
        /^Sorted by the 36-hour usage of 100 of the 200 loaded keys; the other 100 come last until theirs is fetched\.$/,
      ),
    ).toBeVisible();
    expect(rowNames()[0]).toBe("Service 50");

    release();
    expect(await screen.findByText("Sorted by the 36-hour usage of the 200 loaded keys.")).toBeVisible();
    expect(rowNames().slice(0, 2)).toEqual(["Service 150", "Service 50"]);
    // Two pages, three answers and a dozen clicks: room for a busy machine, not a speed budget.
  }, 20_000);

  test("a failed totals query keeps the loaded order and says why, with a way to try again", async () => {
    layKeysListOut(1600);
    stubApi(keysEnvelope(makeKeys(3)));
    answerAnalytics((query) => (query.includes("AS total") ? [{ key_id: "key_000002", total: "not a number" }] : []));
    const { user } = renderKeysList();
    await screen.findByText("Service 0");
    await user.click(within(table()).getByRole("button", { name: "Usage, 36 h" }));
    expect(await screen.findByText(/Cannot sort by usage:/)).toBeVisible();
    expect(rowNames()).toEqual(["Service 0", "Service 1", "Service 2"]);
    expect(screen.getByRole("button", { name: "Try again" })).toBeVisible();
  });
});
