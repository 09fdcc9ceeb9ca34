import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, onTestFinished, test, vi } from "vitest";
import { RequireConnection } from "@/app/require-connection";
import { rootOptions } from "@/app/root-options";
import { KeyRoute } from "@/app/routes/key-route";
import { saveConnection } from "@/features/connect/key-store";
import { errorEnvelope, jsonResponse } from "../../support/keys-api";
import { held } from "../../../support/held";
import { freshQueryClientPerTest } from "../../support/query-tests";

// happy-dom draws no canvas: the chart stands in as its accessible image; its numbers are in the table anyway.
vi.mock("@/components/usage-chart", () => ({
  UsageChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
  outcomeColorVar: (outcome: string) => `--outcome-${outcome.toLowerCase()}`,
}));

const KEY = "ks_root_S3cr3tValue42";
const BASE_URL = "http://127.0.0.1:8799";
const KEY_ID = "key_3ZbK9mQ";
const DAY = 86_400_000;
const HOUR = 3_600_000;

const queryClient = freshQueryClientPerTest();

interface Handlers {
  getKey: () => Response;
  analytics: (query: string) => Response;
}

/** A stubbed API that answers by operation; records each analytics query. */
function fakeApi(handlers: Handlers) {
  const queries: string[] = [];
  function answer(input: RequestInfo | URL, init?: RequestInit): Response {
    const url = input instanceof Request ? input.url : input.toString();
    const body = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as { query?: string };
    if (url.endsWith("/v2/keys.getKey")) return handlers.getKey();
    if (url.endsWith("/v2/analytics.getVerifications")) {
      queries.push(body.query ?? "");
      return handlers.analytics(body.query ?? "");
    }
    return new Response("not found", { status: 404 });
  }
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(answer(input, init))),
  );
  return { queries };
}

function keyAnswer(key: Record<string, unknown>) {
  return jsonResponse(200, {
    meta: { requestId: "req_GetKey1" },
    data: { keyId: KEY_ID, start: "sk_live", enabled: true, createdAt: Date.now() - 90 * DAY, ...key },
  });
}

function rowsAnswer(rows: unknown[]) {
  return jsonResponse(200, { meta: { requestId: "req_Rows1" }, data: rows });
}

function hourStart(msAgo: number) {
  const time = new Date(Math.floor((Date.now() - msAgo) / HOUR) * HOUR);
  return time
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "");
}

/** Answers like the reference server for an expired key: the usage of the last day, and its refusals. */
function expiredKeyAnalytics(query: string): Response {
  if (query.includes("_per_hour_v1") || query.includes("_per_day_v1")) {
    return rowsAnswer([
      { time: hourStart(3 * HOUR), outcome: "VALID", total: "8" },
      { time: hourStart(2 * HOUR), outcome: "EXPIRED", total: 42 },
    ]);
  }
  return rowsAnswer([
    {
      request_id: "req_Refused1",
      time: String(Date.now() - 2 * HOUR),
      outcome: "EXPIRED",
      region: "eu-west-1",
      tags: ["path=/api/users"],
    },
  ]);
}

function renderKeyPage(path = `/keys/${KEY_ID}`) {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  const router = createMemoryRouter(
    [
      {
        path: "/",
        Component: RequireConnection,
        children: [
          { path: "keys/:keyId", Component: KeyRoute },
          { path: "keys", element: <p>The keys</p> },
        ],
      },
      { path: "/troubleshoot", element: <p>Troubleshoot</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
    { onCaughtError: rootOptions.onCaughtError },
  );
  return { router, user: userEvent.setup() };
}

const MISSING_ANALYTICS = () =>
  errorEnvelope(
    403,
    "Insufficient Permissions",
    "Missing one of these permissions: api.*.read_analytics",
    "http://127.0.0.1:8799/docs/errors/svc/authorization/insufficient_permissions",
  );

const utc = (time: number) =>
  new Date(time)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");

/** A disabled key's refusal number `n`: the higher, the newer. */
const refusal = (n: number) => ({
  request_id: `req_Refusal${n}`,
  time: String(Date.now() - (100 - n) * 60_000),
  outcome: "DISABLED",
  region: "",
  tags: [],
});

/** A disabled key with `count` refusals, served a page at a time as its query's cursor and LIMIT ask: the list, newest first, to add to. */
function storedRefusals(count: number) {
  const stored = Array.from({ length: count }, (_, index) => refusal(count - index));
  fakeApi({
    getKey: () => keyAnswer({ name: "Checkout", enabled: false }),
    analytics: (query) => {
      const limit = /outcome != 'VALID'.* LIMIT (\d+)$/.exec(query);
      if (limit === null) return rowsAnswer([]);
      // Every time differs here: the row after the cursor is the one after its request id.
      const after = /request_id < '(req_\w+)'/.exec(query);
      const from = after === null ? 0 : stored.findIndex((row) => row.request_id === after[1]) + 1;
      return rowsAnswer(stored.slice(from, from + Number(limit[1])));
    },
  });
  return stored;
}

describe("a key's page", () => {
  test("says in one sentence why the key is refused, shows every field, and explains each refusal with its fix", async () => {
    const api = fakeApi({
      getKey: () =>
        keyAnswer({
          name: "Nightly data export",
          expires: Date.now() - 3 * DAY - HOUR,
          lastUsedAt: Date.now() - 2 * HOUR,
          permissions: ["documents.read"],
          roles: ["reader"],
          credits: { remaining: 12, refill: { interval: "daily", amount: 100 } },
          ratelimits: [{ id: "rl_1", name: "requests", limit: 10, duration: 60_000, autoApply: true }],
          identity: {
            id: "id_1",
            externalId: "org_acme",
            meta: { plan: "pro" },
            ratelimits: [{ id: "rl_2", name: "tokens", limit: 500, duration: 3_600_000, autoApply: false }],
          },
          meta: { team: "data" },
        }),
      analytics: expiredKeyAnalytics,
    });
    const { user } = renderKeyPage();

    expect(await screen.findByRole("heading", { level: 1, name: "Nightly data export" })).toBeVisible();
    expect(
      await screen.findByText(
        /^Refused because it expired 3 days ago \(\w{3} \d+\): 42 of 50 verifications in the last 24 h were EXPIRED\.$/,
      ),
    ).toBeVisible();

    const fields = screen.getByRole("region", { name: "Fields" });
    expect(within(fields).getByText("documents.read")).toBeVisible();
    expect(within(fields).getByText(/12 remaining; set to 100 every day, next/)).toBeVisible();
    expect(within(fields).getByText(/10 per 1 minute, on every verification/)).toBeVisible();
    expect(within(fields).getByText("org_acme")).toBeVisible();
    // Its identity is a link to the identity's page, by the identity's id.
    expect(within(fields).getByRole("link", { name: "Identity org_acme" })).toHaveAttribute("href", "/identities/id_1");
    expect(within(fields).getByText("reader")).toBeVisible();
    expect(within(fields).getByText(/500 per 1 hour, when a verification asks for it/)).toBeVisible();

    const usage = screen.getByRole("region", { name: "Usage by outcome" });
    expect(
      within(usage).getByRole("img", { name: /over the last 24 hours, by outcome: 50 in all \(8 VALID, 42 EXPIRED\)/ }),
    ).toBeInTheDocument();
    expect(within(usage).getByRole("table")).toHaveTextContent("42");

    const refusals = screen.getByRole("region", { name: "Refused verifications" });
    expect(
      await within(refusals).findByRole("heading", { name: /EXPIRED Refused: the key has expired/ }),
    ).toBeVisible();
    expect(within(refusals).getByText(/^Expired 3 days ago\.$/)).toBeVisible();
    expect(within(refusals).getByRole("link", { name: "Look up request req_Refused1" })).toHaveAttribute(
      "href",
      "/troubleshoot?request=req_Refused1#request-id",
    );

    // Switching the window asks for the per-day table.
    await user.click(within(usage).getByRole("button", { name: "30 days" }));
    expect(await within(usage).findByRole("img", { name: /per day over the last 30 days/ })).toBeInTheDocument();
    expect(
      api.queries.some((query) => query.includes(`FROM key_verifications_per_day_v1 WHERE key_id = '${KEY_ID}'`)),
    ).toBe(true);
  });

  test("filters the refusals by tag, with the value quoted in the query", async () => {
    const api = fakeApi({ getKey: () => keyAnswer({ name: "Checkout" }), analytics: expiredKeyAnalytics });
    const { user } = renderKeyPage();
    const refusals = await screen.findByRole("region", { name: "Refused verifications" });
    await user.type(within(refusals).getByLabelText("Tag"), "path=/o'brien{Enter}");
    await waitFor(() => expect(api.queries.some((query) => query.includes("has(tags, 'path=/o''brien')"))).toBe(true));
    await user.clear(within(refusals).getByLabelText("Tag"));
    await user.type(within(refusals).getByLabelText("Tag"), "a\\b{Enter}");
    expect(await within(refusals).findByRole("alert")).toHaveTextContent(
      "A tag with a backslash cannot be searched for.",
    );
  });

  test("a root key without read_analytics gets the fields, and the missing permission with its fix where the numbers would be", async () => {
    fakeApi({ getKey: () => keyAnswer({ name: "Checkout service" }), analytics: MISSING_ANALYTICS });
    renderKeyPage();
    expect(await screen.findByRole("heading", { level: 1, name: "Checkout service" })).toBeVisible();
    const notices = await screen.findAllByTestId("analytics-notice");
    expect(notices).toHaveLength(2);
    for (const notice of notices) {
      expect(within(notice).getByRole("heading")).toHaveTextContent("This root key may not read analytics");
      expect(within(notice).getByText(/^Give the root key/)).toHaveTextContent(
        "Give the root key api.*.read_analytics",
      );
      expect(notice).toHaveTextContent("--permissions 'api.*.read_key,api.*.read_analytics'");
      expect(within(notice).getByRole("button", { name: "Retry" })).toBeVisible();
    }
    expect(screen.getByRole("region", { name: "Fields" })).toHaveTextContent("sk_live");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  test("a root key without read_key gets one panel that names the permission it lacks", async () => {
    fakeApi({
      getKey: () =>
        errorEnvelope(
          403,
          "Insufficient Permissions",
          "Missing one of these permissions: api.*.read_key",
          "http://127.0.0.1:8799/docs/errors/svc/authorization/insufficient_permissions",
        ),
      analytics: MISSING_ANALYTICS,
    });
    renderKeyPage();
    const panel = await screen.findByRole("alert");
    expect(within(panel).getByRole("heading", { level: 2 })).toHaveTextContent("This root key may not read this key");
    expect(panel).toHaveTextContent("api.*.read_key");
  });

  test("an analytics answer of the wrong shape names the row and field, and the rest of the page works", async () => {
    fakeApi({
      getKey: () => keyAnswer({ name: "Checkout" }),
      analytics: () => rowsAnswer([{ time: "soon", outcome: "VALID", total: 1 }]),
    });
    renderKeyPage();
    const notices = await screen.findAllByTestId("analytics-notice");
    expect(notices[0]).toHaveTextContent(/Row 1, field “time”/);
    expect(screen.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  });

  test("hostile and huge fields stay text and stay short", async () => {
    fakeApi({
      getKey: () =>
        keyAnswer({
          name: "pay\u202Egnp.exe <script>alert(1)</script>",
          permissions: Array.from({ length: 500 }, (_, index) => `perm.${index}`),
          meta: { link: "javascript:alert(1)" },
        }),
      analytics: () => rowsAnswer([]),
    });
    const { user } = renderKeyPage();
    const heading = await screen.findByRole("heading", { level: 1 });
    expect(heading).toHaveTextContent("pay⟨U+202E⟩gnp.exe <script>alert(1)</script>");
    expect(document.querySelector("script")).toBeNull();
    expect(screen.getAllByRole("link").map((link) => link.getAttribute("href"))).not.toContain("javascript:alert(1)");
    expect(screen.getByText("perm.39")).toBeVisible();
    expect(screen.queryByText("perm.40")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Show all 500 permissions" }));
    expect(screen.getByText("perm.499")).toBeVisible();
    expect(await screen.findByText("Not verified in the last 24 h.")).toBeVisible();
  });

  test("a key with its fields absent or null shows its id as its name and says what is missing", async () => {
    fakeApi({
      getKey: () =>
        jsonResponse(200, {
          meta: { requestId: "req_GetKey2" },
          data: {
            keyId: KEY_ID,
            name: null,
            start: null,
            enabled: null,
            createdAt: null,
            meta: null,
            permissions: null,
            credits: null,
            identity: null,
          },
        }),
      analytics: () => rowsAnswer([]),
    });
    renderKeyPage();
    expect(await screen.findByRole("heading", { level: 1, name: KEY_ID })).toBeVisible();
    const fields = screen.getByRole("region", { name: "Fields" });
    expect(within(fields).getAllByText("None").length).toBeGreaterThanOrEqual(8);
    expect(within(fields).getByText("Unlimited")).toBeVisible();
    expect(await screen.findByText("Not verified in the last 24 h.")).toBeVisible();
  });

  test("rate-limited refusals name the key's only rate limit and when it reset", async () => {
    const refusedAt = Date.now() - 10 * 60_000;
    fakeApi({
      getKey: () =>
        keyAnswer({
          name: "Search",
          ratelimits: [{ id: "rl_1", name: "burst", limit: 5, duration: 60_000, autoApply: true }],
        }),
      analytics: (query) =>
        query.includes("_per_")
          ? rowsAnswer([{ time: hourStart(0), outcome: "RATE_LIMITED", total: 3 }])
          : rowsAnswer([
              { request_id: "req_Rl1", time: refusedAt, outcome: "RATE_LIMITED", region: "us-east-1", tags: [] },
            ]),
    });
    renderKeyPage();
    expect(await screen.findByText(/more often than its rate limit/)).toHaveTextContent(
      "The key was used more often than its rate limit burst allows.",
    );
    // Windows are aligned: the minute that refused it ended at the next full minute, long past.
    const windowEnd = refusedAt - (refusedAt % 60_000) + 60_000;
    expect(screen.getByText(/^The limit reset at/)).toHaveTextContent(`The limit reset at ${utc(windowEnd)}, passed.`);
  });

  test("a refusal by a daily limit says its window resets at the next midnight UTC, not a day after the refusal", async () => {
    // A second before midnight, and the clock stopped there: the reset is still ahead whenever the page is drawn.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 2, 31, 23, 59, 59) });
    onTestFinished(() => void vi.useRealTimers());
    const refusedAt = Date.now();
    fakeApi({
      getKey: () =>
        keyAnswer({
          name: "Search",
          ratelimits: [{ id: "rl_1", name: "daily", limit: 5, duration: 86_400_000, autoApply: true }],
        }),
      analytics: (query) =>
        query.includes("_per_")
          ? rowsAnswer([{ time: hourStart(0), outcome: "RATE_LIMITED", total: 3 }])
          : rowsAnswer([
              { request_id: "req_Rl1", time: refusedAt, outcome: "RATE_LIMITED", region: "us-east-1", tags: [] },
            ]),
    });
    renderKeyPage();
    const midnight = refusedAt - (refusedAt % 86_400_000) + 86_400_000;
    expect(await screen.findByText(/^The limit resets at/)).toHaveTextContent(`The limit resets at ${utc(midnight)} (`);
  });

  test("Show older after a new refusal arrived lists each refusal once: the older page starts after the last one shown, not at an offset the new one moved", async () => {
    const stored = storedRefusals(60);
    const { user } = renderKeyPage();
    const refusals = await screen.findByRole("region", { name: "Refused verifications" });
    const older = await within(refusals).findByRole("button", { name: "Show older" });
    expect(within(refusals).getAllByRole("link", { name: /^Look up request req_/ })).toHaveLength(50);
    // One more refusal is recorded after the first page was read.
    stored.unshift(refusal(61));

    await user.click(older);
    await waitFor(() => expect(within(refusals).queryByRole("button", { name: /Show older|Loading/ })).toBeNull());
    const shown = within(refusals)
      .getAllByRole("link", { name: /^Look up request req_/ })
      .map((link) => link.textContent);
    expect(shown).toEqual(Array.from({ length: 60 }, (_, index) => `req_Refusal${60 - index}`));
  });

  test("the last Show older hands its focus to the first refusal it brought, and Clear hands its focus to the tag field", async () => {
    storedRefusals(60);
    const { user } = renderKeyPage();
    const refusals = await screen.findByRole("region", { name: "Refused verifications" });
    await user.click(await within(refusals).findByRole("button", { name: "Show older" }));
    await waitFor(() =>
      expect(within(refusals).getByRole("link", { name: "Look up request req_Refusal10" })).toHaveFocus(),
    );
    expect(within(refusals).queryByRole("button", { name: "Show older" })).toBeNull();

    await user.type(within(refusals).getByRole("textbox", { name: "Tag" }), "path=/a{Enter}");
    await user.click(await within(refusals).findByRole("button", { name: "Clear" }));
    expect(within(refusals).getByRole("textbox", { name: "Tag" })).toHaveFocus();
    expect(within(refusals).getByRole("textbox", { name: "Tag" })).toHaveValue("");
  });

  test("another key's page reached without leaving the route starts fresh, even from the cache: no usage window or typed tag of the key before", async () => {
    let name = "First";
    const api = fakeApi({ getKey: () => keyAnswer({ name, enabled: false }), analytics: () => rowsAnswer([]) });
    const { router, user } = renderKeyPage();
    await screen.findByRole("heading", { level: 1, name: "First" });
    const other = "key_7HxQ2pRt";
    name = "Second";
    await router.navigate(`/keys/${other}`);
    await screen.findByRole("heading", { level: 1, name: "Second" });
    await user.click(
      within(await screen.findByRole("group", { name: "Time window" })).getByRole("button", { name: "7 days" }),
    );
    await user.type(
      within(await screen.findByRole("region", { name: "Refused verifications" })).getByRole("textbox", {
        name: "Tag",
      }),
      "path=/a",
    );
    expect(api.queries.some((query) => query.includes(other))).toBe(true);

    // Back to the first key, whose answers are cached: its page is drawn at once, and must not keep the other's state.
    await router.navigate(-1);
    await screen.findByRole("heading", { level: 1, name: "First" });
    expect(
      within(screen.getByRole("group", { name: "Time window" })).getByRole("button", { name: "24 hours" }),
    ).toHaveAttribute("aria-pressed", "true");
    expect(
      within(screen.getByRole("region", { name: "Refused verifications" })).getByRole("textbox", { name: "Tag" }),
    ).toHaveValue("");
  });

  test("a change, use or refusal later than the page's clock (it ticks once a minute) reads 'just now', not as the future", async () => {
    const later = Date.now() + 30_000;
    fakeApi({
      getKey: () => keyAnswer({ name: "Checkout", updatedAt: later, lastUsedAt: later, expires: Date.now() + 40_000 }),
      analytics: (query) =>
        rowsAnswer(
          query.includes("outcome != 'VALID'")
            ? [{ request_id: "req_Later1", time: String(later), outcome: "RATE_LIMITED", region: "", tags: [] }]
            : [],
        ),
    });
    renderKeyPage();
    const fields = await screen.findByRole("region", { name: "Fields" });
    const field = (term: string) => within(fields).getByText(term).nextElementSibling;
    expect(field("Updated")).toHaveTextContent(/^just now · /);
    expect(field("Last used")).toHaveTextContent(/^just now · /);
    // An expiry is a time to come: it stays one.
    expect(field("Expires")).toHaveTextContent(/^in under a minute · /);
    const row = (await screen.findByRole("link", { name: "Look up request req_Later1" })).closest("tr");
    expect(row).toHaveTextContent(/^just now · /);
  });

  test("while the key's verifications are on their way, its verdict says so, not that they could not be read", async () => {
    const answers = held();
    onTestFinished(answers.release);
    fakeApi({ getKey: () => keyAnswer({ name: "Checkout" }), analytics: () => rowsAnswer([]) });
    const answered = vi.mocked(fetch).getMockImplementation();
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith("/v2/analytics.getVerifications"))
        await answers.released;
      return answered?.(input, init) ?? Promise.reject(new Error("no answer"));
    });
    renderKeyPage();
    await screen.findByRole("heading", { level: 1, name: "Checkout" });
    expect(screen.getByTestId("key-verdict")).toHaveTextContent(
      "Nothing in its fields refuses it; its recent verifications are on their way.",
    );
    expect(screen.getByTestId("key-verdict")).not.toHaveTextContent("could not be read");

    answers.release();
    await waitFor(() => expect(screen.getByTestId("key-verdict")).toHaveTextContent("Not verified in the last 24 h."));
  });

  test("a key that expires while its page is open is said expired then, with its fixes, not at the clock's next minute", async () => {
    const expires = Date.now() + 1500;
    fakeApi({ getKey: () => keyAnswer({ name: "Checkout", expires }), analytics: () => rowsAnswer([]) });
    renderKeyPage();
    await screen.findByRole("heading", { level: 1, name: "Checkout" });
    await waitFor(() => expect(screen.getByTestId("key-verdict")).toHaveTextContent(/^Refused because it expired/), {
      timeout: 15_000,
    });
    expect(Date.now()).toBeGreaterThan(expires);
    expect(await screen.findByRole("button", { name: "Extend expiry" })).toBeInTheDocument();
  });

  test("an analytics query stopped at its time limit says so where the numbers would be, and the fields stay", async () => {
    fakeApi({
      getKey: () => keyAnswer({ name: "Checkout" }),
      analytics: () =>
        errorEnvelope(
          422,
          "Unprocessable Entity",
          "The query took longer than 30 s",
          "http://127.0.0.1:8799/docs/errors/user/unprocessable_entity/query_execution_timeout",
        ),
    });
    renderKeyPage();
    const notices = await screen.findAllByTestId("analytics-notice");
    expect(within(notices[0] ?? document.body).getByRole("heading")).toHaveTextContent(
      "The analytics query took longer than 30 seconds",
    );
    expect(screen.getByRole("region", { name: "Fields" })).toHaveTextContent("sk_live");
    expect(screen.getByTestId("key-verdict")).toHaveTextContent("its recent verifications could not be read");
  });
});
