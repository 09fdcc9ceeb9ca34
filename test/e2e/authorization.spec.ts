import type { Locator, Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { seriousViolationsInBothThemes } from "./axe";
import { enterKey, expect, saveScreenshot, test, verifyCode } from "./fixtures";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

/**
 * The Authorization section in Chromium against the reference server: each test has a workspace of its own (its
 * catalogue's counts and its first entries are the test's alone), a root key made for it, and checks what it did
 * through the API itself.
 */

const READ_CATALOGUE = ["rbac.*.read_permission", "rbac.*.read_role"];
const CHANGE_CATALOGUE = [
  "rbac.*.create_permission",
  "rbac.*.delete_permission",
  "rbac.*.create_role",
  "rbac.*.delete_role",
  "rbac.*.add_permission_to_role",
  "rbac.*.remove_permission_from_role",
];
const KEYS = ["api.*.read_key", "api.*.read_api", "api.*.read_analytics", "api.*.verify_key", "api.*.update_key"];

interface Workspace {
  id: string;
  admin: (args: string[]) => Promise<string>;
  rootKey: (permissions: readonly string[]) => Promise<string>;
}

async function workspaceOf(server: StartedServer, name: string): Promise<Workspace> {
  const id = await server.admin(["workspaces", "create", "--name", name]);
  const admin = (args: string[]) => server.admin([...args, "--workspace", id]);
  return {
    id,
    admin,
    rootKey: (permissions) => admin(["root-key", "create", "--name", name, "--permissions", permissions.join(",")]),
  };
}

/** Calls an operation as any other client of the API would. */
async function call(
  server: StartedServer,
  rootKey: string,
  operation: string,
  body: object,
): Promise<{ status: number; data: unknown }> {
  const response = await fetch(`${server.url}/v2/${operation}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { data?: unknown };
  return { status: response.status, data: answer.data };
}

async function connect(page: Page, server: StartedServer, rootKey: string, apiId?: string): Promise<void> {
  await page.goto(`${server.url}/connect`);
  if (apiId !== undefined) await page.getByRole("textbox", { name: /^API ID/ }).fill(apiId);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
}

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** A pick list's entry is named by its value, then what more it says (a permission's name and description). */
function entryName(value: string): RegExp {
  return new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`);
}

/** An entry of a pick list (the catalogue searched on the server), found by typing part of it. */
async function pick(dialog: Locator, list: "Permissions" | "Roles", value: string): Promise<void> {
  await dialog.getByRole("combobox", { name: `Find ${list.toLowerCase()}` }).fill(value);
  const entry = dialog.getByRole("listbox", { name: `${list} found` }).getByRole("option", { name: entryName(value) });
  await entry.click();
  await expect(entry).toHaveAttribute("aria-selected", "true");
}

async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let step = 0; step < 80; step += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the control");
}

test("a role created from the page and given two permissions lets a key given it in its dialog verify for both", async ({
  page,
  server,
}) => {
  const workspace = await workspaceOf(server, "e2e-authz-role");
  const rootKey = await workspace.rootKey([...KEYS, ...READ_CATALOGUE, ...CHANGE_CATALOGUE, "rbac.*.add_role_to_key"]);
  const apiId = await workspace.admin(["apis", "create", "--name", "e2e-authz"]);
  const [keyId = "", secret = ""] = (
    await workspace.admin(["keys", "create", "--name", "Reports worker", "--api", apiId])
  ).split(" ");
  for (const slug of ["reports.read", "reports.export", "billing.read"])
    expect((await call(server, rootKey, "permissions.createPermission", { name: slug, slug })).status).toBe(200);
  expect(await verifyCode(server, rootKey, secret, "reports.read AND reports.export")).toBe("INSUFFICIENT_PERMISSIONS");

  await connect(page, server, rootKey, apiId);
  await mainNav(page).getByRole("link", { name: "Authorization" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Authorization" })).toBeVisible();
  await expect(page.getByText("The workspace has no roles yet.")).toBeVisible();

  await page.getByRole("button", { name: "Create role" }).click();
  let dialog = page.getByRole("dialog", { name: "Create role" });
  await dialog.getByLabel("Name", { exact: true }).fill("reports.reader");
  await dialog.getByLabel(/^Description/).fill("Reads and exports reports");
  await dialog.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "reports.reader" })).toBeVisible();
  await expect(page.getByText("None: a key holding this role gets no permission from it.")).toBeVisible();

  await page.getByRole("group", { name: "Role actions" }).getByRole("button", { name: "Set permissions" }).click();
  dialog = page.getByRole("dialog", { name: "Set the role’s permissions" });
  await pick(dialog, "Permissions", "reports.read");
  await pick(dialog, "Permissions", "reports.export");
  await expect(dialog.getByRole("status", { name: "What saving does" })).toHaveText(
    "Adds 2: reports.read, reports.export",
  );
  await saveScreenshot(page, "authorization-set-role-permissions");
  await dialog.getByRole("button", { name: "Save permissions" }).click();
  await expect(dialog).toHaveCount(0);
  const held = page.getByRole("list", { name: "The role’s permissions" });
  await expect(held.getByRole("link")).toHaveText(["reports.export", "reports.read"]);

  // The key's Permissions and roles offers the role from the catalogue.
  await page.goto(`${server.url}/keys/${keyId}`);
  await page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Permissions and roles" }).click();
  dialog = page.getByRole("dialog", { name: "Permissions and roles" });
  await pick(dialog, "Roles", "reports.reader");
  await expect(dialog).toContainText("Adds reports.reader (roles).");
  await dialog.getByRole("button", { name: "Save permissions and roles" }).click();
  await expect(dialog).toHaveCount(0);

  expect(await verifyCode(server, rootKey, secret, "reports.read AND reports.export")).toBe("VALID");
  expect(await verifyCode(server, rootKey, secret, "reports.read")).toBe("VALID");
  expect(await verifyCode(server, rootKey, secret, "reports.export")).toBe("VALID");
  expect(await verifyCode(server, rootKey, secret, "billing.read")).toBe("INSUFFICIENT_PERMISSIONS");
});

test("a permission created from the page exists through the API; deleting it, and a role, from their pages removes them", async ({
  page,
  server,
}) => {
  const workspace = await workspaceOf(server, "e2e-authz-delete");
  const rootKey = await workspace.rootKey([...KEYS, ...READ_CATALOGUE, ...CHANGE_CATALOGUE]);
  expect(
    (await call(server, rootKey, "permissions.createRole", { name: "auditor", permissions: ["audit.read"] })).status,
  ).toBe(200);

  await connect(page, server, rootKey);
  await page.goto(`${server.url}/authorization?tab=permissions`);
  await expect(page.getByRole("list", { name: "Permissions" }).getByRole("link")).toHaveText(["audit.read"]);
  await page.getByRole("button", { name: "Create permission" }).click();
  const create = page.getByRole("dialog", { name: "Create permission" });
  await create.getByLabel("Name", { exact: true }).fill("Export invoices");
  await create.getByLabel("Slug").fill("invoices.export");
  await create.getByRole("button", { name: "Create permission" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Export invoices" })).toBeVisible();
  await expect(page.getByText("No role holds it: only keys given it directly have it.")).toBeVisible();

  const found = await call(server, rootKey, "permissions.getPermission", { permission: "invoices.export" });
  expect(found).toMatchObject({ status: 200, data: { name: "Export invoices", slug: "invoices.export" } });

  // Deleted from its page, confirmed by typing its slug.
  await page
    .getByRole("group", { name: "Permission actions" })
    .getByRole("button", { name: "Delete permission" })
    .click();
  let dialog = page.getByRole("dialog", { name: "Delete permission" });
  await expect(dialog).toContainText("no role does");
  await expect(dialog.getByRole("button", { name: "Delete permission" })).toBeDisabled();
  await dialog.getByLabel(/^Type/).fill("invoices.export");
  await dialog.getByRole("button", { name: "Delete permission" }).click();
  await expect(page).toHaveURL(/\/authorization\?tab=permissions$/);
  expect((await call(server, rootKey, "permissions.getPermission", { permission: "invoices.export" })).status).toBe(
    404,
  );

  // The role's permission says which role holds it; the role is deleted from its page.
  await page.getByRole("list", { name: "Permissions" }).getByRole("link", { name: "audit.read" }).click();
  const holders = page.getByRole("list", { name: "Roles that hold it" });
  await expect(holders.getByRole("link")).toHaveText(["auditor"]);
  await expect(page.getByText(/Found by reading every role of the workspace \(1 role in 1 request/)).toBeVisible();
  await holders.getByRole("link", { name: "auditor" }).click();
  await page.getByRole("group", { name: "Role actions" }).getByRole("button", { name: "Delete role" }).click();
  dialog = page.getByRole("dialog", { name: "Delete role" });
  await expect(dialog).toContainText("Every key holding auditor loses it at once");
  await dialog.getByLabel(/^Type/).fill("auditor");
  await dialog.getByRole("button", { name: "Delete role" }).click();
  await expect(page.getByText("The workspace has no roles yet.")).toBeVisible();
  expect((await call(server, rootKey, "permissions.getRole", { role: "auditor" })).status).toBe(404);
});

test("a root key without rbac.*.read_role or rbac.*.read_permission is told which one each list needs, and one that may not create is told before the form", async ({
  page,
  server,
}) => {
  const workspace = await workspaceOf(server, "e2e-authz-refused");
  const readsNothing = await workspace.rootKey(KEYS);
  await connect(page, server, readsNothing);
  await page.goto(`${server.url}/authorization`);
  const roles = page.getByRole("region", { name: "This root key may not read roles" });
  await expect(roles).toContainText("Listing roles needs rbac.*.read_role, which this root key does not have");
  await page
    .getByRole("navigation", { name: "Roles and permissions" })
    .getByRole("link", { name: "Permissions" })
    .click();
  await expect(page.getByRole("region", { name: "This root key may not read permissions" })).toContainText(
    "Listing permissions needs rbac.*.read_permission",
  );
  // The header's link says it too, wherever one goes next.
  await expect(mainNav(page).getByRole("link", { name: "Authorization" })).toHaveAccessibleDescription(
    "Authorization: this root key may not read them (it needs rbac.*.read_permission)",
  );
  await saveScreenshot(page, "authorization-refused-read");

  const readsOnly = await workspace.rootKey([...KEYS, ...READ_CATALOGUE]);
  await workspace.admin(["roles", "create", "--name", "existing", "--permissions", "existing.read"]);
  await page.getByRole("button", { name: "Forget key" }).click();
  await connect(page, server, readsOnly);
  await page.goto(`${server.url}/authorization`);
  await expect(page.getByRole("list", { name: "Roles" }).getByRole("link")).toHaveText(["existing"]);
  await page.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByRole("note")).toContainText(
    "Creating a role needs rbac.*.create_role, which this root key does not have",
  );
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create role" })).toBeDisabled();
  // The probe changed nothing: the role is still the only one.
  const listed = await call(server, readsOnly, "permissions.listRoles", {});
  expect((listed.data as { name: string }[]).map((role) => role.name)).toEqual(["existing"]);
});

test("the Authorization pages work by keyboard alone at phone width, in both themes, with nothing serious for axe", async ({
  page,
  server,
}) => {
  const workspace = await workspaceOf(server, "e2e-authz-keys");
  const rootKey = await workspace.rootKey([...KEYS, ...READ_CATALOGUE, ...CHANGE_CATALOGUE]);
  await call(server, rootKey, "permissions.createRole", {
    name: "support",
    description: "Answers customers",
    permissions: ["tickets.read", "tickets.write"],
  });
  await call(server, rootKey, "permissions.createPermission", {
    name: "Read customers",
    slug: "customers.read",
    description: "Look a customer up",
  });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.emulateMedia({ colorScheme: "dark" });
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/authorization`);
  const list = page.getByRole("list", { name: "Roles" });
  await expect(list.getByRole("link")).toHaveText(["support"]);
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `authorization-roles-phone-${scheme}`)),
  ).toEqual({ dark: [], light: [] });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // Into the role by keyboard, then its permissions set with the pick list's keys alone.
  await tabTo(page, list.getByRole("link", { name: "support" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "support" })).toBeVisible();
  await tabTo(page, page.getByRole("button", { name: "Set permissions" }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Set the role’s permissions" });
  const search = dialog.getByRole("combobox", { name: "Find permissions" });
  await tabTo(page, search);
  await page.keyboard.type("customers");
  await expect(dialog.getByText("1 permission matching “customers”.", { exact: false })).toBeVisible();
  const entry = dialog.getByRole("option", { name: entryName("customers.read") });
  await page.keyboard.press("ArrowDown");
  await expect(search).toHaveAttribute("aria-activedescendant", (await entry.getAttribute("id")) ?? "");
  await page.keyboard.press("Enter");
  await expect(entry).toHaveAttribute("aria-selected", "true");
  await tabTo(page, dialog.getByRole("button", { name: "Remove permission tickets.write" }));
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("status", { name: "What saving does" })).toHaveText(
    "Adds 1: customers.readRemoves 1: tickets.write",
  );
  // Nothing wider than the phone: the dialog scrolls down only.
  expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `authorization-set-phone-${scheme}`)),
  ).toEqual({ dark: [], light: [] });
  await tabTo(page, dialog.getByRole("button", { name: "Save permissions" }));
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("list", { name: "The role’s permissions" }).getByRole("link")).toHaveText([
    "customers.read",
    "tickets.read",
  ]);
  const role = await call(server, rootKey, "permissions.getRole", { role: "support" });
  expect((role.data as { permissions: { slug: string }[] }).permissions.map((held) => held.slug).sort()).toEqual([
    "customers.read",
    "tickets.read",
  ]);
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `authorization-role-phone-${scheme}`)),
  ).toEqual({ dark: [], light: [] });

  // The permission's page, at desktop width: which roles hold it.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page
    .getByRole("list", { name: "The role’s permissions" })
    .getByRole("link", { name: "customers.read" })
    .click();
  await expect(page.getByRole("list", { name: "Roles that hold it" }).getByRole("link")).toHaveText(["support"]);
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `authorization-permission-${scheme}`)),
  ).toEqual({ dark: [], light: [] });
  await page.goto(`${server.url}/authorization?tab=permissions`);
  const permissions = page.getByRole("list", { name: "Permissions" }).getByRole("link");
  await expect(permissions).toHaveCount(3);
  // One entry of the list is in the tab order; the arrow keys move between them.
  await tabTo(page, permissions.first());
  await page.keyboard.press("ArrowDown");
  await expect(permissions.nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(permissions.nth(2)).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(permissions.nth(2)).not.toBeFocused();
  await page.keyboard.press("Tab");
  await expect(permissions.nth(2)).toBeFocused();
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `authorization-permissions-${scheme}`)),
  ).toEqual({ dark: [], light: [] });
});
