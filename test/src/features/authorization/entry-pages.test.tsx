import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { forgetAccessMemory } from "@/lib/access-memory";
import { CATALOGUE_CHANGES_CHANNEL } from "@/lib/catalogue-changes";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { changesSent, fakeCatalogue } from "./fake-catalogue";
import { renderAuthorization } from "./render-authorization";

const queryClient = freshQueryClientPerTest();

afterEach(() => forgetAccessMemory());

/** An entry of the pick list, by its value (its name starts with it). */
const entry = (dialog: HTMLElement, value: string) =>
  within(within(dialog).getByRole("listbox", { name: "Permissions found" })).findByRole("option", {
    name: new RegExp(`^\\s*${value.replace(/\./g, "\\.")}(\\s|$)`),
  });

describe("a role's page", () => {
  test("Set permissions says what Save adds and removes against the role as it is, sends the whole new list, and shows it", async () => {
    const catalogue = fakeCatalogue({
      permissions: ["customers.read"],
      roles: [{ name: "support", permissions: ["tickets.read", "tickets.write"] }],
    });
    const roleId = catalogue.roles[0]?.id ?? "";
    const { user } = renderAuthorization(queryClient(), `/authorization/roles/${roleId}`);
    expect(await screen.findByRole("heading", { level: 1, name: "support" })).toBeInTheDocument();
    const held = screen.getByRole("list", { name: "The role’s permissions" });
    expect(
      within(held)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["tickets.read", "tickets.write"]);

    await user.click(screen.getByRole("button", { name: "Set permissions" }));
    const dialog = await screen.findByRole("dialog", { name: "Set the role’s permissions" });
    const summary = within(dialog).getByRole("status", { name: "What saving does" });
    expect(summary).toHaveTextContent("No change yet.");
    expect(await entry(dialog, "tickets.read")).toHaveAttribute("aria-selected", "true");
    await user.click(await entry(dialog, "customers.read"));
    await user.click(within(dialog).getByRole("button", { name: "Remove permission tickets.write" }));
    expect(summary).toHaveTextContent("Adds 1: customers.readRemoves 1: tickets.write");
    // A slug the workspace lacks is offered as new: setRolePermissions creates it.
    await user.type(within(dialog).getByRole("combobox", { name: "Find permissions" }), "Tickets.Close");
    await user.click(await within(dialog).findByRole("button", { name: /^Pick “Tickets\.Close”, a new permission/ }));
    expect(summary).toHaveTextContent("Adds 2: customers.read, Tickets.CloseRemoves 1: tickets.write");
    await user.click(within(dialog).getByRole("button", { name: "Save permissions" }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(changesSent(catalogue).at(-1)).toEqual({
      path: "/v2/permissions.setRolePermissions",
      body: { roleId, permissions: ["tickets.read", "customers.read", "Tickets.Close"] },
    });
    await waitFor(() =>
      expect(
        within(held)
          .getAllByRole("link")
          .map((link) => link.textContent),
      ).toEqual(["Tickets.Close", "customers.read", "tickets.read"]),
    );
    // Checked before its form with a role no workspace has: refused as not found, after the permissions' check.
    const [probe] = changesSent(catalogue);
    expect(probe?.path).toBe("/v2/permissions.setRolePermissions");
    expect(probe?.body.roleId).toMatch(/^role_keyscopeprobe[a-z0-9]+$/);
    expect(probe?.body.permissions).toEqual([]);
  });

  test("Set permissions with nothing changed sends nothing", async () => {
    const catalogue = fakeCatalogue({ roles: [{ name: "support", permissions: ["tickets.read"] }] });
    const { user } = renderAuthorization(queryClient(), `/authorization/roles/support`);
    await user.click(await screen.findByRole("button", { name: "Set permissions" }));
    const dialog = await screen.findByRole("dialog", { name: "Set the role’s permissions" });
    await user.click(within(dialog).getByRole("button", { name: "Save permissions" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Nothing changed.");
    expect(changesSent(catalogue).filter((call) => !/keyscopeprobe/.test(JSON.stringify(call.body)))).toEqual([]);
  });

  test("Delete role says what it does to keys, waits for the role's name typed, deletes it by id and leaves for the list", async () => {
    const catalogue = fakeCatalogue({ roles: [{ name: "support", permissions: ["tickets.read", "tickets.write"] }] });
    const roleId = catalogue.roles[0]?.id ?? "";
    const { router, user } = renderAuthorization(queryClient(), `/authorization/roles/${roleId}`);
    await user.click(await screen.findByRole("button", { name: "Delete role" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete role" });
    expect(dialog).toHaveTextContent(
      "Every key holding support loses it at once, and with it the 2 permissions it gives (a key keeps one it holds itself or through another role)",
    );
    expect(dialog).toHaveTextContent("The service lists no keys by role");
    const remove = within(dialog).getByRole("button", { name: "Delete role" });
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Type/), "suppor");
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Type/), "t");
    await user.click(remove);
    await waitFor(() => expect(router.state.location.pathname).toBe("/authorization"));
    expect(changesSent(catalogue).at(-1)).toEqual({ path: "/v2/permissions.deleteRole", body: { role: roleId } });
    expect(catalogue.roles).toEqual([]);
    // Its page's query was dropped, not read again: no getRole after the delete.
    const after = catalogue.sent.findIndex(
      (call) => call.path === "/v2/permissions.deleteRole" && call.body.role === roleId,
    );
    expect(catalogue.sent.slice(after).filter((call) => call.path === "/v2/permissions.getRole")).toEqual([]);
  });

  test("a role deleted in another tab is not shown as it was: the page reads it again and says it is gone", async () => {
    const catalogue = fakeCatalogue({ roles: [{ name: "support", permissions: ["tickets.read"] }] });
    const roleId = catalogue.roles[0]?.id ?? "";
    renderAuthorization(queryClient(), `/authorization/roles/${roleId}`);
    expect(await screen.findByRole("heading", { level: 1, name: "support" })).toBeInTheDocument();
    catalogue.roles = [];
    const otherTab = new BroadcastChannel(CATALOGUE_CHANGES_CHANNEL);
    otherTab.postMessage({ keys: true });
    otherTab.close();
    expect(await screen.findByRole("heading", { name: "The workspace has no such role" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 1, name: "support" })).toBeNull();
  });

  test("a role the workspace lacks gets the catalog's panel", async () => {
    fakeCatalogue();
    renderAuthorization(queryClient(), "/authorization/roles/role_gone");
    expect(await screen.findByRole("heading", { name: "The workspace has no such role" })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Breadcrumb" })).toHaveTextContent(
      "Authorization / Roles / role_gone",
    );
  });

  test("a root key without rbac.*.read_role is told which permission reading a role needs", async () => {
    const catalogue = fakeCatalogue({ roles: [{ name: "support" }] });
    catalogue.granted.delete("read_role");
    renderAuthorization(queryClient(), "/authorization/roles/support");
    expect(await screen.findByRole("note")).toHaveTextContent(
      "Reading a role needs rbac.*.read_role, which this root key does not have",
    );
  });
});

describe("a permission's page", () => {
  test("the roles that hold it are read from every page of listRoles, and the page says what that cost", async () => {
    const catalogue = fakeCatalogue({
      roles: Array.from({ length: 150 }, (_, n) => ({
        name: `role ${n}`,
        permissions: n % 50 === 7 ? ["Reports.Read"] : ["other.thing"],
      })),
    });
    const permissionId = catalogue.permissions.find((permission) => permission.slug === "Reports.Read")?.id ?? "";
    renderAuthorization(queryClient(), `/authorization/permissions/${permissionId}`);
    expect(await screen.findByRole("heading", { level: 1, name: "Reports.Read" })).toBeInTheDocument();
    const holders = await screen.findByRole("list", { name: "Roles that hold it" });
    expect(
      within(holders)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["role 7", "role 57", "role 107"]);
    expect(screen.getByText(/^Found by reading every role of the workspace/)).toHaveTextContent(
      "(150 roles in 2 requests of permissions.listRoles, 100 a request, each role with all its permissions)",
    );
    const asked = catalogue.sent.filter((call) => call.path === "/v2/permissions.listRoles").map((call) => call.body);
    const firstPage = catalogue.roles.map((role) => role.id).sort()[99];
    expect(asked).toEqual([{ limit: 100 }, { limit: 100, cursor: firstPage }]);
    // The permission and the first roles were asked together: the page's first data in one round.
    expect(
      catalogue.sent
        .slice(0, 2)
        .map((call) => call.path)
        .sort(),
    ).toEqual(["/v2/permissions.getPermission", "/v2/permissions.listRoles"]);
  });

  test("with thousands of roles the page reads 2,000 by itself, then says what reading on costs and reads on when asked", async () => {
    const catalogue = fakeCatalogue({
      roles: Array.from({ length: 2150 }, (_, n) => ({
        name: `role ${n}`,
        permissions: n === 2100 ? ["rare.one"] : [],
      })),
    });
    const permission = catalogue.permissions.find((candidate) => candidate.slug === "rare.one");
    const { user } = renderAuthorization(queryClient(), `/authorization/permissions/${permission?.id ?? ""}`);
    const paused = await screen.findByText(/^Read 2,000 roles in 20 requests so far, and the workspace has more\./);
    expect(paused.parentElement).toHaveTextContent("So far, 0 of them hold it.");
    const listed = () => catalogue.sent.filter((call) => call.path === "/v2/permissions.listRoles").length;
    expect(listed()).toBe(20);
    await user.click(screen.getByRole("button", { name: "Read 2,000 more roles" }));
    const holders = await screen.findByRole("list", { name: "Roles that hold it" });
    expect(
      within(holders)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["role 2100"]);
    expect(listed()).toBe(22);
    expect(screen.getByText(/^Found by reading every role/)).toHaveTextContent("(2,150 roles in 22 requests");
  });

  test("Delete permission names the roles that hold it, and is sent by id once its slug is typed", async () => {
    const catalogue = fakeCatalogue({
      roles: [
        { name: "support", permissions: ["tickets.read"] },
        { name: "auditor", permissions: ["tickets.read", "audit.read"] },
        { name: "billing", permissions: ["invoices.read"] },
      ],
    });
    const permission = catalogue.permissions.find((candidate) => candidate.slug === "tickets.read");
    const { router, user } = renderAuthorization(queryClient(), `/authorization/permissions/${permission?.id ?? ""}`);
    await screen.findByRole("list", { name: "Roles that hold it" });
    await user.click(screen.getByRole("button", { name: "Delete permission" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete permission" });
    expect(dialog).toHaveTextContent(
      "tickets.read is taken from every key that holds it directly and from every role that holds it (2: support, auditor), so keys given it by those roles lose it too.",
    );
    expect(dialog).toHaveTextContent("refused as INSUFFICIENT_PERMISSIONS");
    await user.type(within(dialog).getByLabelText(/^Type/), "tickets.read");
    await user.click(within(dialog).getByRole("button", { name: "Delete permission" }));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=permissions"));
    expect(changesSent(catalogue).at(-1)).toEqual({
      path: "/v2/permissions.deletePermission",
      body: { permission: permission?.id },
    });
    expect(catalogue.roles.map((role) => role.permissions.length)).toEqual([0, 1, 1]);
  });

  test("without rbac.*.read_role the permission is shown, and finding its roles says the permission it needs", async () => {
    const catalogue = fakeCatalogue({ permissions: ["documents.read"] });
    catalogue.granted.delete("read_role");
    const id = catalogue.permissions[0]?.id ?? "";
    renderAuthorization(queryClient(), `/authorization/permissions/${id}`);
    expect(await screen.findByRole("heading", { level: 1, name: "documents.read" })).toBeInTheDocument();
    expect(await screen.findByRole("note")).toHaveTextContent(
      "Finding the roles that hold it needs rbac.*.read_role, which this root key does not have",
    );
  });
});
