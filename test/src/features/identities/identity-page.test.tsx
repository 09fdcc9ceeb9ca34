import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { forgetAccessMemory } from "@/lib/access-memory";
import type { Key, KeyIdentity } from "@/lib/contract";
import { forgetKnownApis, rememberApi } from "@/lib/known-apis";
import { ok, refusal, stubOperations, type Handler } from "../../support/identities-api";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { BASE_URL, renderIdentities, ROOT_KEY } from "./identities-route";

// happy-dom draws no canvas: the chart stands in as its accessible image; its numbers are in its table anyway.
vi.mock("@/components/stacked-bars-chart", () => ({
  StackedBarsChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const queryClient = freshQueryClientPerTest();

beforeEach(() => {
  forgetAccessMemory();
  forgetKnownApis();
});

const HOUR = 3_600_000;
const SHARED = { id: "rl_Shared1", name: "requests", limit: 10, duration: 60_000, autoApply: true };
const ACME: KeyIdentity = {
  id: "id_Acme1",
  externalId: "org_acme",
  meta: { plan: "enterprise", note: "<img src=x onerror=alert(1)> \u202Etxt.exe" },
  ratelimits: [SHARED],
};
const WORKER: Key = { keyId: "key_Worker1", name: "Billing worker", start: "sk_live", enabled: true };
const EDGE: Key = { keyId: "key_Edge1", name: "Edge functions", enabled: false };
const SYNC: Key = { keyId: "key_Sync1", name: "Nightly sync", ratelimits: [{ ...SHARED, id: "rl_Own1", limit: 1 }] };

const none = () => ok([]);

/** The reference server's answers to an identity's page: the identity, its keys per place, its analytics. */
function identityApi(overrides: Record<string, Handler> = {}, analytics: (query: string) => unknown[] = () => []) {
  return stubOperations({
    "identities.getIdentity": () => ok(ACME),
    "keys.listKeys": (body) => (body.apiId === undefined ? ok({ keys: [WORKER, EDGE] }) : ok({ keys: [] })),
    "apis.listKeys": (body) => (body.apiId === "api_Second" ? ok([SYNC, WORKER], { hasMore: false }) : none()),
    "analytics.getVerifications": (body) => ok(analytics(String(body.query))),
    ...overrides,
  });
}

describe("an identity's page", () => {
  test("its meta as JSON text, its shared limit, and every key it owns in each place searched, saying where Keyscope looked", async () => {
    rememberApi({ baseUrl: BASE_URL, apiKey: ROOT_KEY }, "api_Second", "Second API");
    const received = identityApi();
    renderIdentities(queryClient(), "/identities/id_Acme1");
    expect(await screen.findByRole("heading", { level: 1, name: "org_acme" })).toBeVisible();
    const meta = screen.getByRole("region", { name: "Meta as JSON" });
    expect(meta).toHaveTextContent('"note": "<img src=x onerror=alert(1)> ⟨U+202E⟩txt.exe"');
    expect(meta.querySelector("img")).toBeNull();
    expect(screen.getByRole("region", { name: "Shared rate limits" })).toHaveTextContent(
      "requests 10 per 1 minute, checked on every verification of its keys; one counter for all its keys",
    );

    const keys = await screen.findByRole("table", { name: "The identity’s keys" });
    await waitFor(() =>
      expect(
        within(keys)
          .getAllByRole("rowheader")
          .map((cell) => cell.querySelector("a")?.textContent),
      ).toEqual(["Nightly sync", "Billing worker", "Edge functions"]),
    );
    expect(within(keys).getByRole("link", { name: "Billing worker" })).toHaveAttribute("href", "/keys/key_Worker1");
    const looked = screen.getByRole("heading", { name: "Where Keyscope looked" }).nextElementSibling;
    expect(looked).toHaveTextContent("The whole workspace (keys.listKeys): 2 keys");
    expect(looked).toHaveTextContent("Second API api_Second (seen in this session): 2 keys");
    expect(received.find((request) => request.operation === "apis.listKeys")?.body).toEqual({
      externalId: "org_acme",
      apiId: "api_Second",
    });
  });

  test("its keys, its verifications and its refusals are asked in one round, with the identity the list showed", async () => {
    const received = stubOperations({
      "identities.listIdentities": () => ok([ACME], { hasMore: false }),
      "keys.listKeys": () => ok({ keys: [WORKER] }),
      "analytics.getVerifications": () => ok([]),
    });
    const { user } = renderIdentities(queryClient(), "/identities");
    await user.click(await screen.findByRole("link", { name: "org_acme" }));
    expect(await screen.findByRole("heading", { level: 1, name: "org_acme" })).toBeVisible();
    await waitFor(() =>
      expect(received.filter((request) => request.operation === "analytics.getVerifications")).toHaveLength(2),
    );
    // No identities.getIdentity first: the list's copy gave its external id to the page's first requests.
    expect(received.map((request) => request.operation)).toEqual([
      "identities.listIdentities",
      "keys.listKeys",
      "analytics.getVerifications",
      "analytics.getVerifications",
    ]);
  });

  test("when its shared limit is what refuses its keys, the verdict says so in one sentence, with when the window resets", async () => {
    const latest = Date.now() - 1000;
    identityApi({}, (query) =>
      query.includes("max(time) AS latest")
        ? [{ key_id: "key_Worker1", outcome: "RATE_LIMITED", total: 40, latest }]
        : [
            { time: Math.floor(Date.now() / HOUR) * HOUR, outcome: "RATE_LIMITED", total: 40 },
            { time: Math.floor(Date.now() / HOUR) * HOUR, outcome: "VALID", total: 10 },
          ],
    );
    renderIdentities(queryClient(), "/identities/id_Acme1");
    const verdict = await screen.findByText(/^Refused mostly because callers went over its shared rate limit/);
    expect(verdict).toHaveTextContent(
      "Refused mostly because callers went over its shared rate limit “requests” (10 per 1 minute), one counter for every key of org_acme: 40 of 50 verifications in the last 24 h were refused as RATE_LIMITED; the window that refused last resets at",
    );
    const refused = screen.getByRole("table", { name: /Refused verifications of the last 24 hours by key/ });
    expect(
      within(refused).getByRole("link", { name: "RATE_LIMITED refusals of Billing worker in Logs" }),
    ).toHaveAttribute("href", "/logs?range=24h&outcome=RATE_LIMITED&key=key_Worker1&identity=org_acme");
  });

  test("its verifications over the window picked, and a link to every one of them in Logs over the same window", async () => {
    const received = identityApi({}, (query) =>
      query.includes("max(time) AS latest")
        ? []
        : [{ time: Math.floor(Date.now() / HOUR) * HOUR, outcome: "VALID", total: 7 }],
    );
    renderIdentities(queryClient(), "/identities/id_Acme1");
    expect(
      await screen.findByRole("img", { name: /over the last 24 hours, by outcome: 7 in all \(7 VALID\)/ }),
    ).toBeVisible();
    expect(screen.getByRole("link", { name: "Every verification of org_acme in Logs" })).toHaveAttribute(
      "href",
      "/logs?range=24h&identity=org_acme",
    );
    const windows = screen.getByRole("group", { name: "Time window" });
    const asked = () => received.filter((request) => request.operation === "analytics.getVerifications").length;
    const before = asked();
    await userEvent.click(within(windows).getByRole("button", { name: "30 days" }));
    expect(within(windows).getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByRole("link", { name: "Every verification of org_acme in Logs" })).toHaveAttribute(
      "href",
      "/logs?range=30d&identity=org_acme",
    );
    await waitFor(() => expect(asked()).toBeGreaterThan(before));
  });

  test("Edit finds out first whether the root key may change identities, then sends only the rate limits changed", async () => {
    const received = identityApi({
      "identities.updateIdentity": (body) =>
        Array.isArray(body.ratelimits) && body.ratelimits.length === 2
          ? refusal(
              400,
              "application/invalid_input",
              "Ratelimit with name 'keyscope_permission_check' is already defined in the request",
            )
          : ok({ ...ACME, ratelimits: [{ ...SHARED, limit: 50 }] }),
    });
    const { user } = renderIdentities(queryClient(), "/identities/id_Acme1");
    await user.click(await screen.findByRole("button", { name: "Edit rate limits and meta" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit identity" });
    const requests = await within(dialog).findByRole("spinbutton", { name: "Requests" });
    await user.clear(requests);
    await user.type(requests, "50");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const updates = received.filter((request) => request.operation === "identities.updateIdentity");
    expect(updates.map((request) => request.body)).toEqual([
      {
        identity: "id_Acme1",
        ratelimits: [1, 2].map(() => ({
          name: "keyscope_permission_check",
          limit: 1,
          duration: 1000,
          autoApply: false,
        })),
      },
      { identity: "id_Acme1", ratelimits: [{ name: "requests", limit: 50, duration: 60_000, autoApply: true }] },
    ]);
    expect(await screen.findByText(/50 per 1 minute/)).toBeVisible();
  });

  test("Edit refused before its form: which permission, the service's words, and Check again; no form", async () => {
    identityApi({
      "identities.updateIdentity": () =>
        refusal(403, "authorization/insufficient_permissions", "Missing permission: 'identity.*.update_identity'"),
    });
    const { user } = renderIdentities(queryClient(), "/identities/id_Acme1");
    await user.click(await screen.findByRole("button", { name: "Edit rate limits and meta" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit identity" });
    expect(await within(dialog).findByRole("note")).toHaveTextContent(
      "Changing an identity needs identity.*.update_identity, which this root key does not have (the service refused it: “Missing permission: 'identity.*.update_identity'”).",
    );
    expect(within(dialog).queryByRole("button", { name: "Save" })).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Granted since? Check again" })).toBeVisible();
  });

  test("Delete says its keys stay, without it, asks for its external id typed, and deletes it by its id", async () => {
    const received = identityApi({
      "identities.deleteIdentity": (body) =>
        body.identity === "id_Acme1"
          ? ok({})
          : refusal(404, "data/identity_not_found", "This identity does not exist."),
      "identities.listIdentities": () => ok([], { hasMore: false }),
    });
    const { router, user } = renderIdentities(queryClient(), "/identities/id_Acme1");
    await screen.findByRole("table", { name: "The identity’s keys" });
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete identity" });
    await within(dialog).findByRole("textbox", { name: "Type org_acme to confirm" });
    expect(dialog).toHaveTextContent(
      "Its keys are not deleted. Its 2 keys stay and keep verifying, as keys of no identity: its shared rate limits no longer count their verifications",
    );
    const remove = within(dialog).getByRole("button", { name: "Delete identity" });
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByRole("textbox", { name: "Type org_acme to confirm" }), "org_acme");
    await user.click(remove);
    await waitFor(() => expect(router.state.location.pathname).toBe("/identities"));
    const deletes = received.filter((request) => request.operation === "identities.deleteIdentity");
    // The probe asks to delete one no workspace has (404 after the permission check), then the identity itself.
    expect(deletes).toHaveLength(2);
    expect(deletes[0]?.body.identity).toMatch(/^keyscope_permission_check_/);
    expect(deletes[1]?.body).toEqual({ identity: "id_Acme1" });
  });

  test("an identity of many keys lists a hundred, and the others on asking", async () => {
    const many = Array.from({ length: 120 }, (_, n) => ({ keyId: `key_Many${n}`, name: `Key ${n}` }));
    identityApi({ "keys.listKeys": () => ok({ keys: many }) });
    const { user } = renderIdentities(queryClient(), "/identities/id_Acme1");
    const keys = await screen.findByRole("table", { name: "The identity’s keys" });
    expect(within(keys).getAllByRole("rowheader")).toHaveLength(100);
    await user.click(screen.getByRole("button", { name: "Show the other 20 keys" }));
    expect(within(keys).getAllByRole("rowheader")).toHaveLength(120);
  });

  test("an identity the workspace does not have says so, with the way back", async () => {
    identityApi({
      "identities.getIdentity": () => refusal(404, "data/identity_not_found", "This identity does not exist."),
    });
    renderIdentities(queryClient(), "/identities/id_Gone1");
    expect(await screen.findByRole("alert")).toHaveTextContent("This workspace has no identity id_Gone1");
    expect(screen.getByRole("link", { name: "All identities" })).toHaveAttribute("href", "/identities");
  });
});
