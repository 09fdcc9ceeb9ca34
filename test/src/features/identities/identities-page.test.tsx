import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, test } from "vitest";
import { forgetAccessMemory } from "@/lib/access-memory";
import { forgetKnownApis } from "@/lib/known-apis";
import type { KeyIdentity } from "@/lib/contract";
import { ok, refusal, stubOperations } from "../../support/identities-api";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { connectionScopeId } from "@/lib/connection-scope";
import { BASE_URL, renderIdentities, ROOT_KEY } from "./identities-route";

const queryClient = freshQueryClientPerTest();

beforeEach(() => {
  forgetAccessMemory();
  forgetKnownApis();
});

function identity(n: number): KeyIdentity {
  return { id: `id_${String(n).padStart(4, "0")}`, externalId: `user_${n}` };
}

const MISSING =
  "Missing one of these permissions: identity.*.read_identity or identity.id_0001.read_identity or unkey:v1:ws_1:projects/*/identities/*#read_identity";

describe("the Identities page", () => {
  test("lists what the service answers, and asks the service for what is typed once typing pauses (kept in the address)", async () => {
    const received = stubOperations({
      "identities.listIdentities": (body) =>
        body.search === "acme"
          ? ok(
              [
                {
                  id: "id_Acme1",
                  externalId: "org_acme",
                  ratelimits: [{ id: "rl_1", name: "requests", limit: 100, duration: 60_000, autoApply: true }],
                },
              ],
              { hasMore: false },
            )
          : ok([identity(1), identity(2)], { hasMore: false }),
    });
    const { router, user } = renderIdentities(queryClient(), "/identities");
    const list = await screen.findByRole("list", { name: "Identities" });
    expect(
      within(list)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["user_1", "user_2"]);
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "acme");
    expect(await screen.findByRole("link", { name: "org_acme" })).toHaveAttribute("href", "/identities/id_Acme1");
    expect(screen.getByText("requests: 100 per 1 minute")).toBeVisible();
    expect(router.state.location.search).toBe("?search=acme");
    const searches = received.filter((request) => request.operation === "identities.listIdentities");
    // Asked once for the whole list and once for the text typed, not once a letter.
    expect(searches.map((request) => request.body.search)).toEqual([undefined, "acme"]);
  });

  test("pages by the service's cursor as the list is scrolled to its end, and draws only the rows in view", async () => {
    const received = stubOperations({
      "identities.listIdentities": (body) =>
        body.cursor === undefined
          ? ok(
              Array.from({ length: 30 }, (_, n) => identity(n + 1)),
              { cursor: "id_0030", hasMore: true },
            )
          : ok([identity(31)], { hasMore: false }),
    });
    renderIdentities(queryClient(), "/identities");
    await screen.findByRole("list", { name: "Identities" });
    await waitFor(() =>
      expect(
        received
          .filter((request) => request.operation === "identities.listIdentities")
          .map((request) => request.body.cursor),
      ).toEqual([undefined, "id_0030"]),
    );
    const rows = within(screen.getByRole("list", { name: "Identities" })).getAllByRole("listitem");
    expect(rows.length).toBeLessThan(31);
    expect(rows[0]).toHaveAttribute("aria-setsize", "31");
  });

  test("the arrow keys move between the rows' links, one of them in the tab order", async () => {
    stubOperations({
      "identities.listIdentities": () => ok([identity(1), identity(2), identity(3)], { hasMore: false }),
    });
    const { user } = renderIdentities(queryClient(), "/identities");
    const list = await screen.findByRole("list", { name: "Identities" });
    const links = within(list).getAllByRole("link");
    expect(links.map((link) => link.tabIndex)).toEqual([0, -1, -1]);
    links[0]?.focus();
    await user.keyboard("{ArrowDown}{ArrowDown}");
    expect(within(list).getByRole("link", { name: "user_3" })).toHaveFocus();
    await user.keyboard("{Home}");
    expect(within(list).getByRole("link", { name: "user_1" })).toHaveFocus();
  });

  test("a root key that may not list identities is told which permission it needs, and the header's link says it too", async () => {
    stubOperations({
      "identities.listIdentities": () =>
        refusal(403, "authorization/insufficient_permissions", MISSING, "Insufficient Permissions"),
    });
    renderIdentities(queryClient(), "/identities");
    const notice = await screen.findByRole("region", { name: "This root key may not read identities" });
    expect(notice).toHaveTextContent("Listing identities needs identity.*.read_identity");
    expect(notice).toHaveTextContent(MISSING);
    expect(notice).toHaveTextContent("npm run admin -- root-key create --permissions 'identity.*.read_identity,…'");
    expect(screen.queryByRole("button", { name: "Create identity" })).toBeNull();
    const link = within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Identities" });
    expect(link).toHaveAccessibleDescription(
      "Identities: this root key may not read them (it needs identity.*.read_identity)",
    );
  });

  test("Check again reads the section again, and a permission granted since shows the list and clears the header's mark", async () => {
    let granted = false;
    stubOperations({
      "identities.listIdentities": () =>
        granted
          ? ok([identity(1)], { hasMore: false })
          : refusal(403, "authorization/insufficient_permissions", MISSING, "Insufficient Permissions"),
    });
    const { user } = renderIdentities(queryClient(), "/identities");
    await screen.findByRole("region", { name: "This root key may not read identities" });
    granted = true;
    await user.click(screen.getByRole("button", { name: "Granted since? Check again" }));
    expect(await screen.findByRole("link", { name: "user_1" })).toBeVisible();
    const link = within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Identities" });
    expect(link).not.toHaveAccessibleDescription();
  });

  test("a service without identities.listIdentities (a proxy to a deployment without it) says the section is not available there", async () => {
    stubOperations({});
    renderIdentities(queryClient(), "/identities");
    const notice = await screen.findByRole("region", { name: "Identities are not available on this connection" });
    expect(notice).toHaveTextContent("has no identities.listIdentities: it answered 404 for the operation itself");
    const link = within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Identities" });
    expect(link).toHaveAccessibleDescription(
      "Identities: not available on this connection (its service has no such operation)",
    );
  });

  test("a workspace with no identities, and a search that finds none, say so", async () => {
    stubOperations({ "identities.listIdentities": () => ok([], { hasMore: false }) });
    renderIdentities(queryClient(), "/identities?search=nob");
    expect(await screen.findByText(/^No identity’s id or external id holds/)).toHaveTextContent(
      "No identity’s id or external id holds “nob”.",
    );
    expect(screen.getByRole("searchbox", { name: "Search" })).toHaveValue("nob");
  });
});

describe("Create identity", () => {
  test("finds out first whether the root key may create identities, checks the meta as typed, and opens the new one", async () => {
    const received = stubOperations({
      "identities.listIdentities": () => ok([identity(1)], { hasMore: false }),
      "identities.createIdentity": (body) =>
        body.externalId === "user_1"
          ? refusal(
              409,
              "data/identity_already_exists",
              "Identity with externalId 'user_1' already exists in this workspace.",
            )
          : ok({ identityId: "id_New1" }),
      "identities.getIdentity": () => ok({ id: "id_New1", externalId: "team_blue" }),
    });
    const { router, user } = renderIdentities(queryClient(), "/identities");
    await user.click(await screen.findByRole("button", { name: "Create identity" }));
    const dialog = await screen.findByRole("dialog", { name: "Create identity" });
    await user.type(await within(dialog).findByRole("textbox", { name: "External id" }), "team_blue");
    const meta = within(dialog).getByRole("textbox", { name: "Meta (JSON object)" });
    await user.type(meta, "[[1]");
    expect(await within(dialog).findByText('Meta must be a JSON object, like {"plan": "pro"}')).toBeVisible();
    await user.clear(meta);
    await user.type(meta, '{{"plan": "pro"}');
    await user.click(within(dialog).getByRole("button", { name: "Create identity" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/identities/id_New1"));
    const creates = received.filter((request) => request.operation === "identities.createIdentity");
    // The probe asks to create one the workspace has (409 after the permission check), with names given twice.
    expect(creates[0]?.body).toMatchObject({ externalId: "user_1" });
    expect(creates[1]?.body).toEqual({ externalId: "team_blue", meta: { plan: "pro" } });
  });
});

describe("changes made in another tab", () => {
  test("an identity changed in another tab of the same connection is read again here; another connection's is not", async () => {
    let external = "user_1";
    const received = stubOperations({
      "identities.listIdentities": () => ok([{ id: "id_0001", externalId: external }], { hasMore: false }),
    });
    renderIdentities(queryClient(), "/identities");
    await screen.findByRole("link", { name: "user_1" });
    const lists = () => received.filter((request) => request.operation === "identities.listIdentities").length;
    const tab = new BroadcastChannel("keyscope-identity-changes");
    tab.postMessage({
      tab: "another tab",
      scope: `${BASE_URL}|another root key`,
      identityId: "id_0001",
      deleted: false,
    });
    external = "user_1_renamed";
    tab.postMessage({
      tab: "another tab",
      scope: connectionScopeId({ baseUrl: BASE_URL, apiKey: ROOT_KEY }),
      identityId: "id_0001",
      deleted: false,
    });
    expect(await screen.findByRole("link", { name: "user_1_renamed" })).toBeVisible();
    expect(lists()).toBe(2);
    tab.close();
  });
});
