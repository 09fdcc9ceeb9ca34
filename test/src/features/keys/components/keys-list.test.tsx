import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ErrorBoundary } from "react-error-boundary";
import { MemoryRouter, Route, Routes, useParams } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { KeysList } from "@/features/keys/components/keys-list";
import type { Connection } from "@/lib/api/transport";
import { listKeysInfiniteQueryOptions } from "@/features/keys/api/list-keys";
import { fingerprint } from "@/lib/fingerprint";
import { createQueryClient } from "@/lib/query-client";
import {
  errorEnvelope,
  keyNotFound,
  keysEnvelope,
  makeKeys,
  realServiceEnvelope,
  stubApi,
} from "../../../support/keys-api";
import { held } from "../../../../support/held";
import { layKeysListOut, onAPhone } from "../../../support/viewport";
import { takeConsoleErrors } from "../../../setup";

const CONNECTION: Connection = { baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" };
const DAY = 24 * 60 * 60 * 1000;
const VIEWPORT_HEIGHT = 600;
// Room for every column: folding to a narrower table is tested on its own.
const WIDE_SCREEN = 1600;

let queryClient: QueryClient;

beforeEach(() => {
  queryClient = createQueryClient();
  // Give the table's scroller a viewport so the virtualizer has something to fill.
  layKeysListOut(WIDE_SCREEN, VIEWPORT_HEIGHT);
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
        <ErrorBoundary fallbackRender={({ error }) => <p role="alert">Boundary: {String(error)}</p>}>
          <KeysList
            connection={CONNECTION}
            renderRefreshError={({ onRetry }) => (
              <div role="alert">
                Refresh failed
                <button type="button" onClick={onRetry}>
                  Retry
                </button>
              </div>
            )}
          />
        </ErrorBoundary>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { user };
}

function rows() {
  // The first row is the header.
  return within(screen.getByRole("table", { name: "API keys" }))
    .getAllByRole("row")
    .slice(1);
}

function columnHeaders() {
  return screen.getAllByRole("columnheader").map((header) => header.textContent);
}

describe("the keys list", () => {
  test("shows skeleton rows while the first page loads", async () => {
    stubApi(keysEnvelope(makeKeys(2)));
    renderKeysList();
    expect(screen.getByRole("status")).toHaveTextContent("Loading keys…");
    expect(screen.getByRole("status").closest("[aria-busy]")).toHaveAttribute("aria-busy", "true");
    expect(await screen.findByText("Service 0")).toBeVisible();
  });

  test("lists the keys of data.keys with their ids and names", async () => {
    const api = stubApi(
      keysEnvelope([
        { keyId: "key_2Xa9", name: "Billing worker" },
        { keyId: "key_7Pq3", name: "Checkout service" },
      ]),
    );
    renderKeysList();
    expect(await screen.findByText("Billing worker")).toBeVisible();
    expect(screen.getByText("key_7Pq3")).toBeVisible();
    expect(screen.getByText("2 keys")).toBeVisible();
    expect(api.requests[0]).toMatchObject({
      url: "http://127.0.0.1:8799/v2/keys.listKeys",
      authorization: `Bearer ${CONNECTION.apiKey}`,
      body: {},
    });
  });

  test("lists keys from the real service's data array and shows only the columns it sends", async () => {
    stubApi(realServiceEnvelope([{ keyId: "key_9Zz1", name: "Real service key" }]));
    renderKeysList();
    expect(await screen.findByText("Real service key")).toBeVisible();
    expect(columnHeaders()).toEqual(["Name", "Key ID", "Usage, 36 h"]);
    expect(screen.getByText("1 key")).toBeVisible();
  });

  test("shows status badges, last use and expiry when the API sends them; prefix and creation only when chosen", async () => {
    const now = Date.now();
    stubApi(
      keysEnvelope([
        { keyId: "key_1", name: "Live", start: "sk_live_3fA", enabled: true, createdAt: now - 3 * DAY },
        { keyId: "key_2", name: "Paused", start: "sk_live_9Qb", enabled: false, createdAt: now - DAY },
        {
          keyId: "key_3",
          name: "Old",
          start: "sk_test_1Zx",
          enabled: true,
          createdAt: now - 90 * DAY,
          expires: now - 2 * DAY,
        },
        { keyId: "key_4", name: "Soon", enabled: true, createdAt: now, expires: now + 61 * DAY },
      ]),
    );
    renderKeysList();
    await screen.findByText("Live");
    expect(columnHeaders()).toEqual(["Name", "Key ID", "Status", "Last used", "Usage, 36 h", "Expires"]);

    const [live, paused, old, soon] = rows();
    expect(within(live!).getByText("Active")).toBeVisible();
    expect(within(paused!).getByText("Disabled")).toBeVisible();
    expect(within(old!).getByText("Expired")).toBeVisible();
    expect(within(soon!).getByText("Active")).toBeVisible();
    expect(within(soon!).getByText("in 2 months")).toBeVisible();
    expect(within(live!).getAllByText("Never")).toHaveLength(2);

    const { user } = { user: userEvent.setup() };
    await user.click(screen.getByText("Columns", { exact: true }));
    await user.click(screen.getByRole("checkbox", { name: "Prefix" }));
    await user.click(screen.getByRole("checkbox", { name: "Created" }));
    expect(columnHeaders()).toEqual([
      "Name",
      "Key ID",
      "Status",
      "Last used",
      "Usage, 36 h",
      "Prefix",
      "Created",
      "Expires",
    ]);
    const [liveAgain] = rows();
    expect(within(liveAgain!).getByText("sk_live_3fA…")).toBeVisible();
    const created = within(liveAgain!).getByText("3 days ago");
    expect(created.tagName).toBe("TIME");
    expect(created).toHaveAttribute("dateTime", new Date(now - 3 * DAY).toISOString());
  });

  test("the filter narrows by name, id or prefix and the count follows", async () => {
    stubApi(
      keysEnvelope([
        { keyId: "key_2Xa9", name: "Billing worker", start: "sk_live_3f" },
        { keyId: "key_7Pq3", name: "Checkout service", start: "sk_test_9x" },
        { keyId: "key_4Mn8", name: "Search indexer", start: "sk_live_1a" },
      ]),
    );
    const { user } = renderKeysList();
    await screen.findByText("Billing worker");
    const filter = screen.getByRole("searchbox", { name: "Filter keys" });

    await user.type(filter, "checkout");
    expect(await screen.findByText("1 of 3 keys shown")).toBeVisible();
    expect(rows()).toHaveLength(1);
    expect(screen.queryByText("Billing worker")).not.toBeInTheDocument();

    await user.clear(filter);
    await user.type(filter, "KEY_4mn");
    expect(await screen.findByText("Search indexer")).toBeVisible();
    expect(rows()).toHaveLength(1);

    await user.clear(filter);
    await user.type(filter, "sk_live");
    expect(await screen.findByText("2 of 3 keys shown")).toBeVisible();
    expect(rows()).toHaveLength(2);
  });

  test("with a text filter on, the status counts say they count the keys that match, not all of them (#28.12)", async () => {
    stubApi(
      keysEnvelope([
        { keyId: "key_2Xa9", name: "Billing worker", enabled: true },
        { keyId: "key_7Pq3", name: "Billing backup", enabled: false },
        { keyId: "key_4Mn8", name: "Search indexer", enabled: false },
        { keyId: "key_5Rt1", name: "Checkout", enabled: true },
      ]),
    );
    const { user } = renderKeysList();
    const statuses = await screen.findByRole("group", { name: "Filter by status" });
    expect(statuses).toHaveTextContent("Counted among all 4 keys.");

    await user.type(screen.getByRole("searchbox", { name: "Filter keys" }), "billing");
    expect(await screen.findByText("2 of 4 keys shown")).toBeVisible();
    expect(within(statuses).getByRole("button", { name: "Disabled 1" })).toBeVisible();
    expect(statuses).toHaveTextContent("Counted among the 2 keys that match “billing”, of 4.");
  });

  test("a filter that matches nothing says so and can be cleared", async () => {
    stubApi(keysEnvelope(makeKeys(3)));
    const { user } = renderKeysList();
    await screen.findByText("Service 0");
    await user.type(screen.getByRole("searchbox", { name: "Filter keys" }), "nothing-like-this");
    expect(await screen.findByRole("heading", { name: "No keys match “nothing-like-this”" })).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Clear filter" }));
    expect(await screen.findByText("Service 2")).toBeVisible();
    expect(screen.getByRole("searchbox", { name: "Filter keys" })).toHaveValue("");
  });

  test("an empty workspace gets the empty state with the command that creates a key", async () => {
    stubApi(keysEnvelope([]));
    renderKeysList();
    expect(await screen.findByRole("heading", { name: "No keys yet" })).toBeVisible();
    expect(screen.getByText(/npm run admin -- keys create --name/)).toBeVisible();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  // Two pages of 100 rows rendered and scrolled: over 5 s when the machine is busy.
  test("Load more fetches the next page with the cursor and appends it", async () => {
    const api = stubApi(
      keysEnvelope(makeKeys(100, 0), { cursor: "key_000099", hasMore: true }),
      keysEnvelope(makeKeys(2, 100), { hasMore: false }),
    );
    const { user } = renderKeysList();
    expect(await screen.findByText("100 keys loaded, more available")).toBeVisible();
    expect(api.requests).toHaveLength(1);

    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("102 keys")).toBeVisible();
    expect(api.requests.map((request) => request.body)).toEqual([{}, { cursor: "key_000099" }]);
    expect(screen.getByRole("table", { name: "API keys" })).toHaveAttribute("aria-rowcount", "103");
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();

    const scroller = screen.getByRole("table", { name: "API keys" }).parentElement!;
    scroller.scrollTop = 102 * 52 - VIEWPORT_HEIGHT;
    fireEvent.scroll(scroller);
    expect(await screen.findByText("Service 101")).toBeVisible();
    expect(rows().at(-1)).toHaveTextContent("Service 101");
  }, 15_000);

  /**
   * Three pages (202 keys) loaded with Load more; the refresh's second page (the second time it is asked) waits for
   * `second` to resolve.
   */
  async function loadThreePages(second: Promise<void>) {
    const pages: Record<string, Response> = {
      "": keysEnvelope(makeKeys(100, 0), { cursor: "key_000099", hasMore: true }),
      key_000099: keysEnvelope(makeKeys(100, 100), { cursor: "key_000199", hasMore: true }),
      key_000199: keysEnvelope(makeKeys(2, 200), { hasMore: false }),
    };
    let secondPageAsked = 0;
    const api = stubApi(async (body) => {
      const cursor = typeof body.cursor === "string" ? body.cursor : "";
      if (cursor === "key_000099" && ++secondPageAsked === 2) await second;
      return pages[cursor]!.clone();
    });
    const { user } = renderKeysList();
    expect(await screen.findByText("100 keys loaded, more available")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("200 keys loaded, more available")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("202 keys")).toBeVisible();
    return { api, user };
  }

  test("Refresh reloads every page that was loaded, says so, and keeps the sort (#28.6)", async () => {
    const { released, release } = held();
    const { api, user } = await loadThreePages(released);
    await user.click(screen.getByRole("button", { name: "Name" }));
    const sortedBy = () => screen.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort");
    const sorted = sortedBy();
    expect(sorted).toMatch(/^(ascending|descending)$/);
    const firstRow = rows()[0]?.textContent;

    await user.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Refreshing the 202 keys that were loaded: 100 keys so far.")).toBeVisible();
    expect(screen.getByRole("button", { name: "Stop" })).toBeVisible();
    release();
    expect(await screen.findByText("202 keys")).toBeVisible();
    expect(await screen.findByText("202 keys refreshed.")).toBeVisible();
    const cursors = api.requests.map((request) => request.body.cursor ?? "first");
    expect(cursors).toEqual(["first", "key_000099", "key_000199", "first", "key_000099", "key_000199"]);
    expect(sortedBy()).toBe(sorted);
    expect(rows()[0]?.textContent).toBe(firstRow);
  }, 20_000);

  test("Refresh pressed again while a refresh reloads the pages still reloads every page loaded before (#28.6)", async () => {
    // The first refresh's second page never comes.
    const { user } = await loadThreePages(new Promise<void>(() => undefined));
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Refreshing the 202 keys that were loaded: 100 keys so far.")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("202 keys refreshed.")).toBeVisible();
    expect(screen.getByText("202 keys")).toBeVisible();
  }, 20_000);

  test("a first page that fits on screen fills it by loading the next one", async () => {
    const api = stubApi(
      keysEnvelope(makeKeys(2, 0), { cursor: "key_000001", hasMore: true }),
      keysEnvelope(makeKeys(2, 2), { hasMore: false }),
    );
    renderKeysList();
    expect(await screen.findByText("4 keys")).toBeVisible();
    expect(api.requests.map((request) => request.body)).toEqual([{}, { cursor: "key_000001" }]);
  });

  test("scrolling near the end loads the next page by itself", async () => {
    const api = stubApi(
      keysEnvelope(makeKeys(100, 0), { cursor: "key_000099", hasMore: true }),
      keysEnvelope(makeKeys(100, 100), { hasMore: false }),
    );
    renderKeysList();
    await screen.findByText("Service 0");
    expect(api.requests).toHaveLength(1);

    const scroller = screen.getByRole("table", { name: "API keys" }).parentElement!;
    scroller.scrollTop = 100 * 52 - VIEWPORT_HEIGHT;
    fireEvent.scroll(scroller);
    expect(await screen.findByText("200 keys")).toBeVisible();
    expect(api.requests[1]?.body).toEqual({ cursor: "key_000099" });
  });

  test("Refresh refetches, says it is refreshing, and shows the new answer", async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = stubApi(
      keysEnvelope([{ keyId: "key_1", name: "Before" }]),
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const { user } = renderKeysList();
    await screen.findByText("Before");
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    const refreshing = await screen.findByRole("button", { name: "Refreshing…" });
    expect(refreshing).toHaveAttribute("aria-disabled", "true");
    expect(screen.getByText("Before")).toBeVisible();

    answer(keysEnvelope([{ keyId: "key_1", name: "After" }]));
    expect(await screen.findByText("After")).toBeVisible();
    expect(screen.getByRole("button", { name: "Refresh" })).toHaveAttribute("aria-disabled", "false");
    expect(api.requests).toHaveLength(2);
  });

  test("a failed refresh keeps the keys on screen under an error", async () => {
    stubApi(
      keysEnvelope([{ keyId: "key_1", name: "Still here" }]),
      errorEnvelope(
        429,
        "Too Many Requests",
        "Slow down",
        "http://localhost:3000/docs/errors/user/too_many_requests/rate_limited",
      ),
    );
    const { user } = renderKeysList();
    await screen.findByText("Still here");
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Refresh failed");
    expect(screen.getByText("Still here")).toBeVisible();
  });

  test("a refresh the key itself is refused for takes the list away: it is not current any more (14.13)", async () => {
    stubApi(keysEnvelope([{ keyId: "key_1", name: "Stale" }]), keyNotFound());
    const { user } = renderKeysList();
    await screen.findByText("Stale");
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/Boundary: .*key_not_found/);
    expect(screen.queryByText("Stale")).not.toBeInTheDocument();
    expect(takeConsoleErrors().length).toBeGreaterThan(0);
  });

  test("a first page that fails goes to the error boundary", async () => {
    stubApi(keyNotFound());
    renderKeysList();
    expect(await screen.findByRole("alert")).toHaveTextContent(/Boundary: .*key_not_found/);
    // React reports what a boundary caught; the app's root options silence it (see app tests).
    expect(takeConsoleErrors().length).toBeGreaterThan(0);
  });

  test("a key id can be copied", async () => {
    stubApi(keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker" }]));
    const { user } = renderKeysList();
    await screen.findByText("Billing worker");
    await user.click(screen.getByRole("button", { name: /Copy key id/ }));
    expect(await navigator.clipboard.readText()).toBe("key_2Xa9");
    // Seen beside the button, said once by the table's one live region.
    const row = screen.getByRole("row", { name: /Billing worker/ });
    expect(await within(row).findByText("Copied")).toBeInTheDocument();
    const saying = screen.getAllByRole("status").filter((region) => region.textContent?.includes("Copied"));
    expect(saying).toHaveLength(1);
    expect(saying[0]).toHaveTextContent(/^Copied key id key_2Xa9$/);
  });

  test("a key's name opens its page inside the app; a click with a modifier is left to the browser (a new tab)", async () => {
    stubApi(keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker" }]));
    const user = userEvent.setup();
    function KeyPage() {
      return <h1>Key page of {useParams().keyId}</h1>;
    }
    render(
      <MemoryRouter initialEntries={["/keys"]}>
        <QueryClientProvider client={queryClient}>
          <Routes>
            <Route path="/keys" element={<KeysList connection={CONNECTION} renderRefreshError={() => null} />} />
            <Route path="/keys/:keyId" element={<KeyPage />} />
          </Routes>
        </QueryClientProvider>
      </MemoryRouter>,
    );
    const link = await screen.findByRole("link", { name: "Billing worker" });
    expect(link).toHaveAttribute("href", "/keys/key_2Xa9");

    const modified = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    link.dispatchEvent(modified);
    expect(modified.defaultPrevented).toBe(false);
    expect(screen.queryByRole("heading", { name: /Key page/ })).toBeNull();

    await user.click(link);
    expect(await screen.findByRole("heading", { name: "Key page of key_2Xa9" })).toBeInTheDocument();
  });

  test("the query key holds a fingerprint of the key, never the key", async () => {
    stubApi(keysEnvelope(makeKeys(1)));
    renderKeysList();
    await screen.findByText("Service 0");
    const all = queryClient
      .getQueryCache()
      .getAll()
      .map((query) => query.queryKey);
    expect(JSON.stringify(all)).not.toContain(CONNECTION.apiKey);
    const keys = all.filter((key) => key[1] === "list");
    expect(keys).toHaveLength(1);
    expect(keys[0]).toEqual([
      "keys",
      "list",
      { baseUrl: CONNECTION.baseUrl, apiId: null, keyFingerprint: fingerprint(CONNECTION.apiKey) },
    ]);
  });

  test("the query key holds the API ID the request is made for", () => {
    const withApi = listKeysInfiniteQueryOptions({ ...CONNECTION, apiId: "api_7Hb2" }).queryKey;
    const withoutApi = listKeysInfiniteQueryOptions(CONNECTION).queryKey;
    expect(withApi).not.toEqual(withoutApi);
    expect(withApi[2]).toMatchObject({ apiId: "api_7Hb2" });
  });

  test("10,000 keys keep only the visible rows in the DOM", async () => {
    stubApi(keysEnvelope(makeKeys(10_000)));
    renderKeysList();
    await screen.findByText("Service 0");
    const table = screen.getByRole("table", { name: "API keys" });
    expect(table).toHaveAttribute("aria-rowcount", "10001");
    const rendered = rows();
    expect(rendered.length).toBeGreaterThanOrEqual(Math.floor(VIEWPORT_HEIGHT / 52));
    expect(rendered.length).toBeLessThanOrEqual(200);
    expect(screen.queryByText("Service 9999")).not.toBeInTheDocument();

    const scroller = table.parentElement!;
    scroller.scrollTop = 9_990 * 52;
    fireEvent.scroll(scroller);
    expect(await screen.findByText("Service 9999")).toBeInTheDocument();
    expect(rows().length).toBeLessThanOrEqual(200);
    expect(screen.queryByText("Service 0")).not.toBeInTheDocument();
  });
});

describe("on a phone", () => {
  test("each key is a card with its name, status, id and dates, still in table rows", async () => {
    onAPhone();
    const now = Date.now();
    stubApi(
      keysEnvelope([
        { keyId: "key_1", name: "Live", start: "sk_live_3fA", enabled: true, createdAt: now - 3 * DAY },
        { keyId: "key_2", name: "Trial", start: "sk_live_8Kd", enabled: true, createdAt: now, expires: now + 61 * DAY },
      ]),
    );
    renderKeysList();
    await screen.findByText("Live");
    const table = screen.getByRole("table", { name: "API keys" });
    expect(table).toHaveClass("keys-table--compact");
    expect(columnHeaders()).toEqual(["Name", "Key ID", "Status", "Last used", "Usage, 36 h", "Expires"]);
    const [live, trial] = rows();
    expect(live).toHaveTextContent(/Used\s*Never/);
    expect(within(live!).getByText("No expiry")).toBeVisible();
    expect(trial).toHaveTextContent(/Expires\s*in 2 months/);
  });
});
