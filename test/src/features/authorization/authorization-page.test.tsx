import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { forgetAccessMemory } from "@/lib/access-memory";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { changesSent, fakeCatalogue } from "./fake-catalogue";
import { renderAuthorization } from "./render-authorization";

const queryClient = freshQueryClientPerTest();

afterEach(() => forgetAccessMemory());

const lists = (catalogue: ReturnType<typeof fakeCatalogue>, path: string) =>
  catalogue.sent.filter((call) => call.path === path).map((call) => call.body);

describe("the Authorization page", () => {
  test("lists the roles with what each holds; a search is asked of the service once typing pauses, and kept in the address", async () => {
    const catalogue = fakeCatalogue({
      roles: [
        { name: "support", permissions: ["tickets.read", "tickets.write"] },
        { name: "billing.admin", permissions: ["invoices.read"] },
      ],
    });
    const { router, user } = renderAuthorization(queryClient());
    const list = await screen.findByRole("list", { name: "Roles" });
    expect(
      within(list)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["support", "billing.admin"]);
    expect(within(list).getAllByRole("listitem")[0]).toHaveTextContent("2 permissions");
    expect(screen.getByText("2 roles.")).toBeInTheDocument();

    await user.type(screen.getByRole("searchbox", { name: "Search roles" }), "BILL");
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole("link")
          .map((link) => link.textContent),
      ).toEqual(["billing.admin"]),
    );
    expect(lists(catalogue, "/v2/permissions.listRoles").at(-1)).toEqual({ limit: 100, search: "BILL" });
    // Asked once typing paused, not for every letter.
    expect(lists(catalogue, "/v2/permissions.listRoles").map((body) => body.search)).toEqual([undefined, "BILL"]);
    expect(router.state.location.search).toBe("?q=BILL");
    expect(screen.getByText("1 role matching “BILL”.")).toBeInTheDocument();
  });

  test("a long list is paged by the service's cursor as the keyboard moves to its end, and virtualized", async () => {
    const catalogue = fakeCatalogue({ permissions: Array.from({ length: 230 }, (_, n) => `scope.${n}`) });
    const { user } = renderAuthorization(queryClient(), "/authorization?tab=permissions");
    const list = await screen.findByRole("list", { name: "Permissions" });
    expect(screen.getByText("The first 100 permissions; more load as you scroll.")).toBeInTheDocument();
    // Only what is in view (and a few each way) is in the page.
    expect(within(list).getAllByRole("listitem").length).toBeLessThan(40);
    const first = within(list).getAllByRole("link")[0];
    first?.focus();
    await user.keyboard("{End}");
    await waitFor(() => expect(lists(catalogue, "/v2/permissions.listPermissions")).toHaveLength(2));
    const [, second] = lists(catalogue, "/v2/permissions.listPermissions");
    expect(second).toEqual({ cursor: catalogue.permissions.map((p) => p.id).sort()[99], limit: 100 });
  });

  test("a root key that may not list roles is told rbac.*.read_role in place of the list; its permissions are listed still", async () => {
    const catalogue = fakeCatalogue({ permissions: ["documents.read"] });
    catalogue.granted.delete("read_role");
    const { user } = renderAuthorization(queryClient());
    const notice = await screen.findByRole("region", { name: "This root key may not read roles" });
    expect(notice).toHaveTextContent(
      "Listing roles needs rbac.*.read_role, which this root key does not have (the service refused it: “Missing permission: 'rbac.*.read_role'”)",
    );
    expect(screen.queryByRole("searchbox")).toBeNull();
    await user.click(screen.getByRole("link", { name: "Permissions" }));
    expect(await screen.findByRole("list", { name: "Permissions" })).toHaveTextContent("documents.read");
  });

  test("a service without the catalogue's operations (a proxy to a deployment without them) is said to lack them", async () => {
    const catalogue = fakeCatalogue();
    catalogue.override.set("/v2/permissions.listRoles", () => new Response("404 page not found", { status: 404 }));
    renderAuthorization(queryClient());
    const notice = await screen.findByRole("region", { name: "Roles are not available on this connection" });
    expect(notice).toHaveTextContent("The service at http://127.0.0.1:8799 has no permissions.listRoles");
  });

  test("Create role first asks with a createRole of a listed name (409 after the check), then opens its form; the role made opens its page", async () => {
    const catalogue = fakeCatalogue({ roles: [{ name: "support" }] });
    const { router, user } = renderAuthorization(queryClient());
    await screen.findByRole("list", { name: "Roles" });
    await user.click(screen.getByRole("button", { name: "Create role" }));
    const dialog = await screen.findByRole("dialog", { name: "Create role" });
    expect(within(dialog).queryByRole("note")).toBeNull();
    await user.type(within(dialog).getByLabelText("Name"), "auditor");
    await user.type(within(dialog).getByLabelText(/^Description/), "Reads the audit log");
    await user.click(within(dialog).getByRole("button", { name: "Create role" }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/authorization\/roles\/role_/));
    expect(changesSent(catalogue)).toEqual([
      { path: "/v2/permissions.createRole", body: { name: "support" } },
      { path: "/v2/permissions.createRole", body: { name: "auditor", description: "Reads the audit log" } },
    ]);
    expect(catalogue.roles.map((role) => role.name)).toEqual(["support", "auditor"]);
  });

  test("a create refused for want of rbac.*.create_permission is said in place of the form, once; Check again asks again", async () => {
    const catalogue = fakeCatalogue({ permissions: ["documents.read"] });
    catalogue.granted.delete("create_permission");
    const { user } = renderAuthorization(queryClient(), "/authorization?tab=permissions");
    await screen.findByRole("list", { name: "Permissions" });
    await user.click(screen.getByRole("button", { name: "Create permission" }));
    const note = await screen.findByRole("note");
    expect(note).toHaveTextContent(
      "Creating a permission needs rbac.*.create_permission, which this root key does not have",
    );
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByRole("button", { name: "Create permission" })).toBeDisabled();
    // The probe is the listed slug itself: nothing could have been made.
    expect(changesSent(catalogue)).toEqual([
      { path: "/v2/permissions.createPermission", body: { name: "documents.read", slug: "documents.read" } },
    ]);
    catalogue.granted.add("create_permission");
    await user.click(within(note).getByRole("button", { name: "Granted since? Check again" }));
    await user.click(screen.getByRole("button", { name: "Create permission" }));
    expect(await screen.findByRole("dialog", { name: "Create permission" })).toBeInTheDocument();
    expect(changesSent(catalogue)).toHaveLength(2);
  });

  test("with no role to collide with, Create role says its permission is known only by trying, and a refusal then says it", async () => {
    const catalogue = fakeCatalogue();
    catalogue.granted.delete("create_role");
    const { user } = renderAuthorization(queryClient());
    expect(await screen.findByText("The workspace has no roles yet.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Create role" }));
    const dialog = await screen.findByRole("dialog", { name: "Create role" });
    expect(within(dialog).getByRole("note")).toHaveTextContent(
      "Creating a role needs rbac.*.create_role. Whether this root key has it is known only by trying",
    );
    expect(changesSent(catalogue)).toEqual([]);
    await user.type(within(dialog).getByLabelText("Name"), "auditor");
    await user.click(within(dialog).getByRole("button", { name: "Create role" }));
    expect(await within(dialog).findByRole("alert")).toBeInTheDocument();
    // Learnt: said beside the button now, before any form.
    expect(
      await screen.findByText(/Creating a role needs/, { selector: ".catalogue-tab__create strong" }),
    ).toBeInTheDocument();
  });
});
