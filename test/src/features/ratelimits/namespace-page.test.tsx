import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { forgetLearntIds, NAMESPACES_ITEM } from "@/features/ratelimits/known-namespaces";
import { forgetAccessMemory } from "@/lib/access-memory";
import { DOCUMENTED_FUNCTIONS } from "../../../../server/analytics/dialect";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { stubRatelimitApi, type FakeNamespace } from "../../support/ratelimit-api";
import { BASE_URL, KEY, renderRatelimits } from "./ratelimits-harness";

// happy-dom draws no canvas: the chart stands in as its accessible image; its numbers are in its table anyway.
vi.mock("@/components/stacked-bars-chart", () => ({
  StackedBarsChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const queryClient = freshQueryClientPerTest();
const HOUR = 3_600_000;

function apiRequests(): FakeNamespace {
  return {
    name: "api.requests",
    id: "rlns_Api1",
    overrides: [
      { overrideId: "rlor_A1", identifier: "org_acme", limit: 600, duration: 60_000 },
      { overrideId: "rlor_B2", identifier: "banned_*", limit: 0, duration: 60_000 },
      { overrideId: "rlor_C3", identifier: "team_*", limit: 50, duration: 10_000 },
    ],
  };
}

/** analytics.getRatelimits as CONTRACT §6's tables answer the page's queries: ClickHouse's text numbers and times. */
function history(query: string): unknown[] {
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const at = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
  if (query.includes("override_id IN")) return [{ namespace_id: "rlns_Api1" }];
  if (query.includes(" AS bucket"))
    return [
      { bucket: at(hour - 3 * HOUR), passed_count: "40", total_count: "40" },
      { bucket: at(hour - 2 * HOUR), passed_count: "30", total_count: "42" },
      { bucket: at(hour - 2 * HOUR), passed_count: "5", total_count: "5" },
    ];
  if (query.startsWith("WITH decided"))
    return [
      {
        identifier: "banned_bot",
        blocked: "9",
        passed: "0",
        last_time: hour - HOUR,
        last_limit: "0",
        last_override_id: "rlor_B2",
      },
      {
        identifier: "team_42",
        blocked: "3",
        passed: "20",
        last_time: hour - HOUR,
        last_limit: "10",
        last_override_id: "",
      },
    ];
  return [];
}

/** What the page said of the last change, by its whole text (an identifier in it is isolated in its own element). */
function findTold(text: string): Promise<HTMLElement> {
  return screen.findByText(
    (_, element) => element?.classList.contains("ratelimits-page__told") === true && element.textContent === text,
  );
}

/** The note that says a permission the root key lacks, by the start of its sentence. */
async function noteSaying(start: string): Promise<HTMLElement> {
  const notes = await screen.findAllByRole("note");
  const note = notes.find((candidate) => candidate.textContent?.startsWith(start) === true);
  if (note === undefined) throw new Error(`no note says “${start}”: ${notes.map((n) => n.textContent).join(" | ")}`);
  return note;
}

beforeEach(() => {
  forgetLearntIds();
  forgetAccessMemory();
});

describe("a namespace's overrides", () => {
  test("are listed: a limit of 0 said as Blocked, a pattern marked; the namespace is remembered for this connection, never the key", async () => {
    stubRatelimitApi([apiRequests()], { analytics: history });
    renderRatelimits(queryClient(), "/ratelimits/api.requests");
    const table = await screen.findByRole("table", { name: "The namespace’s overrides, by id" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^org_acme600 per minuterlor_A1/),
      expect.stringMatching(/^banned_\*patternBlockedrlor_B2/),
      expect.stringMatching(/^team_\*pattern50 per 10 secondsrlor_C3/),
    ]);
    await waitFor(() => expect(localStorage.getItem(NAMESPACES_ITEM) ?? "").toContain("api.requests"));
    expect(localStorage.getItem(NAMESPACES_ITEM)).not.toContain(KEY);
  });

  test("which override applies to an identifier is said by the service's rule: exact first, else the most specific pattern", async () => {
    stubRatelimitApi([apiRequests()], { analytics: history });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/api.requests");
    const check = await screen.findByLabelText("Which override applies to…");
    await user.type(check, "banned_bob");
    expect(await screen.findByText(/The override for/)).toHaveTextContent("The override for banned_*: Blocked.");
    await user.clear(check);
    await user.type(check, "user_9");
    expect(await screen.findByText(/None:/)).toHaveTextContent("None: user_9 gets the limit its requests ask for.");
  });

  test("Set an override sends the pattern, the limit and the window in ms, says it is set, and the list shows it", async () => {
    const api = stubRatelimitApi([apiRequests()], { analytics: history });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/api.requests");
    await user.click(await screen.findByRole("button", { name: "Set an override" }));
    const dialog = await screen.findByRole("dialog", { name: "Set an override" });
    expect(dialog).toHaveTextContent("Whether this root key has it is known only by trying");
    await user.type(within(dialog).getByLabelText("Identifier"), "free_*");
    await user.type(within(dialog).getByLabelText("Requests per window"), "0");
    await user.clear(within(dialog).getByLabelText("Window"));
    await user.type(within(dialog).getByLabelText("Window"), "2");
    await user.selectOptions(within(dialog).getByLabelText("Window unit"), "hour");
    expect(dialog).toHaveTextContent("The override: Blocked, from the next ratelimit.limit on");
    await user.click(within(dialog).getByRole("button", { name: "Set override" }));
    expect(await findTold("The override for free_* is set: Blocked.")).toBeVisible();
    expect(api.of("setOverride").map((call) => call.body)).toEqual([
      { namespace: "api.requests", identifier: "free_*", limit: 0, duration: 7_200_000 },
    ]);
    expect(await screen.findByText("rlor_New1")).toBeVisible();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  test("a form that cannot be read sends nothing and says why beside each field", async () => {
    const api = stubRatelimitApi([apiRequests()], { analytics: history });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/api.requests");
    await user.click(await screen.findByRole("button", { name: "Set an override" }));
    const dialog = await screen.findByRole("dialog", { name: "Set an override" });
    await user.type(within(dialog).getByLabelText("Requests per window"), "10-");
    await user.click(within(dialog).getByRole("button", { name: "Set override" }));
    expect(await within(dialog).findByText(/Nothing was sent\. Identifier: Type who it is for/)).toBeVisible();
    expect(within(dialog).getByText(/Not a number/)).toBeVisible();
    expect(api.of("setOverride")).toEqual([]);
  });

  test("Change keeps the identifier and sends the new limit; the override keeps its id", async () => {
    const api = stubRatelimitApi([apiRequests()], { analytics: history });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/api.requests");
    await user.click(await screen.findByRole("button", { name: "Change the override for org_acme" }));
    const dialog = await screen.findByRole("dialog", { name: "Change an override" });
    expect(within(dialog).getByLabelText("Requests per window")).toHaveValue("600");
    expect(within(dialog).getByLabelText("Window unit")).toHaveValue("minute");
    await user.clear(within(dialog).getByLabelText("Requests per window"));
    await user.type(within(dialog).getByLabelText("Requests per window"), "1200");
    await user.click(within(dialog).getByRole("button", { name: "Save override" }));
    expect(await findTold("The override for org_acme is set: 1,200 per minute.")).toBeVisible();
    expect(api.of("setOverride").map((call) => call.body)).toEqual([
      { namespace: "api.requests", identifier: "org_acme", limit: 1200, duration: 60_000 },
    ]);
  });

  test("Delete is checked first with an identifier no override has, then confirmed with what applies instead; the focus goes to what was said", async () => {
    const api = stubRatelimitApi([apiRequests()], { analytics: history });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/api.requests");
    await user.click(await screen.findByRole("button", { name: "Delete the override for team_*" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete override" });
    const probe = api.of("deleteOverride")[0]?.body;
    expect(Object.keys(probe ?? {})).toEqual(["namespace", "identifier"]);
    expect(probe?.namespace).toBe("api.requests");
    expect(String(probe?.identifier)).toMatch(/^keyscope\.probe\./);
    expect(dialog).toHaveTextContent("the identifiers it applied to get the limit their requests ask for");
    await user.click(within(dialog).getByRole("button", { name: "Delete override" }));
    const said = await findTold("The override for team_* is deleted.");
    expect(said).toHaveFocus();
    expect(api.of("deleteOverride").at(-1)?.body).toEqual({ namespace: "api.requests", identifier: "team_*" });
    await waitFor(() => expect(screen.queryByText("rlor_C3")).toBeNull());
  });

  test("a root key that may not delete overrides is told which permission, by the namespace's id, before any confirmation", async () => {
    stubRatelimitApi([apiRequests()], { analytics: history, refuse: ["deleteOverride"] });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/api.requests");
    await user.click(await screen.findByRole("button", { name: "Delete the override for team_*" }));
    const note = await noteSaying("Deleting an override needs");
    expect(note).toHaveTextContent(
      "Deleting an override needs ratelimit.*.delete_override or ratelimit.rlns_Api1.delete_override, which this root key does not have",
    );
    expect(note).toHaveTextContent("npm run admin -- root-key create --permissions 'ratelimit.*.delete_override,…'");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.queryByRole("button", { name: /^Delete the override/ })).toBeNull();
  });

  test("a root key that may not read the overrides is told which permission where the list would be; the namespace still exists", async () => {
    stubRatelimitApi([apiRequests()], { analytics: history, refuse: ["listOverrides"] });
    renderRatelimits(queryClient(), "/ratelimits/api.requests");
    const note = await noteSaying("Reading this namespace’s overrides needs");
    expect(note).toHaveTextContent(
      "Reading this namespace’s overrides needs ratelimit.*.read_override or ratelimit.rlns_Api1.read_override",
    );
    expect(screen.queryByTestId("namespace-missing")).toBeNull();
    // The refusal named the namespace's id: its history reads by it.
    expect(await screen.findByTestId("history-totals")).toHaveTextContent("87 decisions: 75 passed, 12 blocked");
  });

  test("a set refused by the service is said in the dialog by the permission, and Set an override then says it before the form", async () => {
    stubRatelimitApi([apiRequests()], { analytics: history, refuse: ["setOverride"] });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/api.requests");
    await user.click(await screen.findByRole("button", { name: "Set an override" }));
    const dialog = await screen.findByRole("dialog", { name: "Set an override" });
    await user.type(within(dialog).getByLabelText("Identifier"), "free_*");
    await user.type(within(dialog).getByLabelText("Requests per window"), "5");
    await user.click(within(dialog).getByRole("button", { name: "Set override" }));
    expect(await within(dialog).findByText(/Setting an override needs/)).toHaveTextContent(
      "Setting an override needs ratelimit.*.set_override or ratelimit.rlns_Api1.set_override",
    );
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("button", { name: "Set an override" })).toBeNull();
    expect(await noteSaying("Setting an override needs")).toBeVisible();
  });

  test("a change another tab of the same connection made has the overrides asked again; another connection's does not", async () => {
    const api = stubRatelimitApi([apiRequests()], { analytics: history });
    renderRatelimits(queryClient(), "/ratelimits/api.requests");
    await screen.findByRole("table", { name: "The namespace’s overrides, by id" });
    const asked = () => api.of("listOverrides").length;
    const before = asked();
    const { connectionScope } = await import("@/lib/connection-scope");
    const { OVERRIDE_CHANGES_CHANNEL } = await import("@/features/ratelimits/override-changes");
    const otherTab = new BroadcastChannel(OVERRIDE_CHANGES_CHANNEL);
    otherTab.postMessage({
      scope: connectionScope({ baseUrl: BASE_URL, apiKey: "ks_root_AnotherRootKey77" }),
      namespace: "api.requests",
    });
    otherTab.postMessage({ scope: connectionScope({ baseUrl: BASE_URL, apiKey: KEY }), namespace: "api.requests" });
    await waitFor(() => expect(asked()).toBe(before + 1));
    otherTab.close();
  });

  test("a namespace the service does not have is said plainly, with how to make one", async () => {
    stubRatelimitApi([apiRequests()], { analytics: history });
    renderRatelimits(queryClient(), "/ratelimits/sms.sign_in");
    const missing = await screen.findByTestId("namespace-missing");
    expect(missing).toHaveTextContent("There is no namespace “sms.sign_in” in this root key’s workspace");
    expect(missing).toHaveTextContent("npm run admin -- namespaces create --name 'sms.sign_in'");
    expect(screen.queryByRole("heading", { name: "History" })).toBeNull();
    expect(localStorage.getItem(NAMESPACES_ITEM) ?? "").not.toContain("sms.sign_in");
  });
});

describe("a namespace's history", () => {
  test("passed and blocked over 24 hours from the per-hour table, and the identifiers blocked most with the override that applies now", async () => {
    const queries: string[] = [];
    stubRatelimitApi([apiRequests()], {
      analytics: (query) => {
        queries.push(query);
        return history(query);
      },
    });
    renderRatelimits(queryClient(), "/ratelimits/api.requests");
    expect(await screen.findByTestId("history-totals")).toHaveTextContent(
      "87 decisions: 75 passed, 12 blocked (13.8%).",
    );
    expect(screen.getByRole("img", { name: "Decisions per 1 hour: 75 passed, 12 blocked" })).toBeVisible();
    const blocked = screen.getByRole("table", { name: "Identifiers blocked most in this range" });
    const rows = within(blocked).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent(/banned_bot90Blocked \(an override’s\)Blocked \(banned_\*\)/);
    expect(rows[1]).toHaveTextContent(/team_4232010\s*50 per 10 seconds \(team_\*\)/);
    // Found from an override's decisions, once; then the history's two queries by the namespace's id.
    expect(queries[0]).toMatch(
      /^SELECT namespace_id FROM ratelimits_v1 WHERE time >= \d{13} AND override_id IN \('rlor_A1', 'rlor_B2', 'rlor_C3'\) LIMIT 1$/,
    );
    expect(queries.slice(1).every((query) => query.includes("namespace_id = 'rlns_Api1'"))).toBe(true);
    expect(queries.some((query) => query.includes("FROM ratelimits_per_hour_v1"))).toBe(true);
    const allowed = new Set(DOCUMENTED_FUNCTIONS.map((name) => name.toLowerCase()));
    for (const query of queries) {
      expect(query).not.toMatch(/SELECT \*/i);
      expect(query).toMatch(/time >= (fromUnixTimestamp64Milli\()?\d{13}/);
      for (const [, name] of query.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)\(/g))
        expect(allowed).toContain(name?.toLowerCase());
    }
  });

  test("the range is in the address, and 7 days reads the per-hour table, 30 days the per-day one", async () => {
    const queries: string[] = [];
    stubRatelimitApi([apiRequests()], {
      analytics: (query) => {
        queries.push(query);
        return history(query);
      },
    });
    const { router, user } = renderRatelimits(queryClient(), "/ratelimits/api.requests?range=30d");
    await screen.findByTestId("history-totals");
    expect(queries.some((query) => query.includes("FROM ratelimits_per_day_v1"))).toBe(true);
    await user.selectOptions(screen.getByLabelText("Range"), "1h");
    expect(router.state.location.search).toBe("?range=1h");
    await waitFor(() => expect(queries.some((query) => query.includes("FROM ratelimits_per_minute_v1"))).toBe(true));
  });

  test("a root key that may not read the namespace's analytics is told ratelimit.*.read_analytics, and the overrides stay", async () => {
    const { calls } = stubRatelimitApi([apiRequests()], { refuse: ["getRatelimits"] });
    renderRatelimits(queryClient(), "/ratelimits/rlns_Api1");
    const note = await noteSaying("Reading this namespace’s history needs");
    expect(note).toHaveTextContent(
      "Reading this namespace’s history needs ratelimit.*.read_analytics or ratelimit.rlns_Api1.read_analytics",
    );
    expect(screen.getByRole("table", { name: "The namespace’s overrides, by id" })).toBeVisible();
    // Opened by its id, the namespace's history needed no lookup.
    expect(calls.filter((call) => call.operation === "getRatelimits")).toHaveLength(2);
  });

  test("a service without analytics.getRatelimits (a proxy to an older deployment) is said plainly, and the overrides stay", async () => {
    stubRatelimitApi([apiRequests()], {
      analytics: () => new Response("404 page not found", { status: 404, headers: { "content-type": "text/plain" } }),
    });
    renderRatelimits(queryClient(), "/ratelimits/api.requests");
    expect(
      await screen.findByRole("heading", { name: "Rate-limit histories are not available on this connection" }),
    ).toBeVisible();
    expect(screen.getByRole("heading", { name: /not available/ }).closest("section")).toHaveTextContent(
      "has no analytics.getRatelimits: it answered 404 for the operation itself",
    );
    expect(screen.queryByLabelText("Namespace id")).toBeNull();
    expect(screen.getByRole("table", { name: "The namespace’s overrides, by id" })).toBeVisible();
  });

  test("without an override's decisions to tell it, the namespace's id is asked for, checked with the service, and kept", async () => {
    const quiet: FakeNamespace = { name: "sms.sign_up", id: "rlns_Sms2", overrides: [] };
    const other: FakeNamespace = { ...apiRequests() };
    const api = stubRatelimitApi([quiet, other], { analytics: history });
    const { user } = renderRatelimits(queryClient(), "/ratelimits/sms.sign_up");
    const field = await screen.findByLabelText("Namespace id");
    expect(screen.getByText(/Analytics records a namespace by its id/)).toBeVisible();
    await user.type(field, "rlns_Nope9");
    await user.click(screen.getByRole("button", { name: "Use this id" }));
    expect(await screen.findByText("No namespace has this id in this root key’s workspace.")).toBeVisible();
    await user.clear(field);
    await user.type(field, "rlns_Api1");
    await user.click(screen.getByRole("button", { name: "Use this id" }));
    expect(await screen.findByText(/That id is another namespace’s/)).toBeVisible();
    await user.clear(field);
    await user.type(field, "rlns_Sms2");
    await user.click(screen.getByRole("button", { name: "Use this id" }));
    expect(await screen.findByTestId("history-totals")).toBeVisible();
    expect(api.of("getRatelimits").every((call) => String(call.body.query).includes("'rlns_Sms2'"))).toBe(true);
    await waitFor(() => expect(localStorage.getItem(NAMESPACES_ITEM) ?? "").toContain("rlns_Sms2"));
  });
});
