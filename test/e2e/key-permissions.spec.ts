import type { Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { seriousViolationsInBothThemes } from "./axe";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

/**
 * A root key is told what an action needs before its form, against the reference server, which answers the
 * dashboard's probes as the real service does (a createKey refused after its create_key check, an addPermissions
 * of a permission the key holds) and, like it, hides a refused createKey as a missing API.
 */

async function rootKeyWith(server: StartedServer, name: string, permissions: string[]): Promise<string> {
  return server.admin(["root-key", "create", "--name", name, "--permissions", permissions.join(",")]);
}

async function adminKey(server: StartedServer, args: string[]): Promise<{ keyId: string; secret: string }> {
  const [keyId = "", secret = ""] = (await server.admin(["keys", "create", ...args])).split(" ");
  return { keyId, secret };
}

/** Connects as a person would, with no API id (as on `npm start`), and lands on the keys. */
async function connect(page: Page, server: StartedServer, rootKey: string): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys`);
  await expect(page.getByRole("table")).toBeVisible();
}

/** Opens a key's page from the list, without reloading the page: what the session learnt stays. */
async function openFromList(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Keys" }).click();
  await page.getByRole("searchbox").fill(name);
  // Exact: other files' keys share the worker's server ("Clock reader" beside "Reader").
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();
}

const keyActions = (page: Page) => page.getByRole("group", { name: "Key actions" });

test("a root key that may only read keys is told api.*.create_key and api.*.delete_key before the forms", async ({
  page,
  server,
}) => {
  const apiId = await server.admin(["apis", "create", "--name", "e2e-read-only"]);
  const readOnly = await rootKeyWith(server, "e2e-read-only", ["api.*.read_key", "api.*.read_analytics"]);
  const key = await adminKey(server, ["--name", "Guarded", "--api", apiId]);
  await connect(page, server, readOnly);

  // An API typed that nothing says exists: createKey's 404 reads both ways.
  await page.getByRole("button", { name: "Create key" }).click();
  let dialog = page.getByRole("dialog", { name: "Create key" });
  await dialog.getByLabel("API id").fill(apiId);
  await dialog.getByLabel("API id").press("Tab");
  await expect(dialog.getByText(/Either that API id is wrong/)).toContainText("api.*.create_key");
  await dialog.getByRole("button", { name: "Close" }).click();

  await openFromList(page, "Guarded");
  // Delete has no probe: the form says what it needs and that only trying tells.
  await keyActions(page).getByRole("button", { name: "Delete" }).click();
  dialog = page.getByRole("dialog", { name: "Delete key" });
  await expect(dialog.getByRole("note")).toContainText("Deleting a key needs api.*.delete_key (every API) or");
  await expect(dialog.getByRole("note")).toContainText("known only by trying");
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await dialog.getByRole("button", { name: "Close" }).click();
  // Edit is probed: the refusal names the key's API, which the dashboard now knows exists.
  await keyActions(page).getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("note")).toContainText(
    `Changing this key needs api.*.update_key (every API) or api.${apiId}.update_key (this API only)`,
  );
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await saveScreenshot(page, "key-permissions-read-only-key");

  // Back on the keys: the API is offered, and its createKey 404 is now the refusal, said before the form.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Keys" }).click();
  await page.getByRole("button", { name: "Create key" }).click();
  dialog = page.getByRole("dialog", { name: "Create key" });
  await dialog.getByRole("list", { name: "APIs this dashboard knows" }).getByRole("button", { name: apiId }).click();
  await expect(dialog.getByRole("note")).toContainText(
    `Creating a key in this API needs api.*.create_key (every API) or api.${apiId}.create_key (this API only)`,
  );
  await expect(dialog.getByLabel("Name", { exact: true })).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Create key" })).toBeDisabled();
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await saveScreenshot(page, "key-permissions-create-refused");

  // The probes changed nothing: the key verifies as before, and no key was made.
  const verifier = await rootKeyWith(server, "e2e-read-only-verifier", ["api.*.verify_key"]);
  const verified = await fetch(`${server.url}/v2/keys.verifyKey`, {
    method: "POST",
    headers: { Authorization: `Bearer ${verifier}`, "Content-Type": "application/json" },
    body: JSON.stringify({ key: key.secret }),
  });
  expect(((await verified.json()) as { data: { code: string } }).data.code).toBe("VALID");
  const listed = await fetch(`${server.url}/v2/keys.listKeys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${readOnly}`, "Content-Type": "application/json" },
    body: JSON.stringify({ apiId }),
  });
  expect(
    ((await listed.json()) as { data: { keys: { keyId: string }[] } }).data.keys.map((listedKey) => listedKey.keyId),
  ).toEqual([key.keyId]);
});

test("a root key that may change keys but not their permissions is told rbac.*.add_permission_to_key before the permission dialog", async ({
  page,
  server,
}) => {
  const apiId = await server.admin(["apis", "create", "--name", "e2e-rbac"]);
  const changer = await rootKeyWith(server, "e2e-changer", [
    "api.*.read_key",
    "api.*.read_analytics",
    "api.*.update_key",
    "api.*.verify_key",
  ]);
  const key = await adminKey(server, ["--name", "Reader", "--api", apiId, "--permissions", "documents.read"]);
  // Refused for a permission it lacks, so that its page offers Add permission.
  for (let attempt = 0; attempt < 3; attempt++) {
    await fetch(`${server.url}/v2/keys.verifyKey`, {
      method: "POST",
      headers: { Authorization: `Bearer ${changer}`, "Content-Type": "application/json" },
      body: JSON.stringify({ key: key.secret, permissions: "documents.write" }),
    });
  }
  await connect(page, server, changer);
  await openFromList(page, "Reader");

  await page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Add permission" }).click();
  await expect(page.getByRole("note")).toContainText(
    "Adding a permission needs rbac.*.add_permission_to_key together with api.*.update_key",
  );
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // Its permission is unchanged by the probe, which re-added the one it holds.
  await expect(page.getByRole("main")).toContainText("documents.read");
});

test("a root key limited to one API may change and create keys there only, and is told so for the other API", async ({
  page,
  server,
}) => {
  const allowedApi = await server.admin(["apis", "create", "--name", "e2e-one-api"]);
  const otherApi = await server.admin(["apis", "create", "--name", "e2e-other-api"]);
  const limited = await rootKeyWith(server, "e2e-limited", [
    "api.*.read_key",
    "api.*.read_analytics",
    `api.${allowedApi}.update_key`,
    `api.${allowedApi}.create_key`,
  ]);
  await adminKey(server, ["--name", "Mine", "--api", allowedApi]);
  await adminKey(server, ["--name", "Theirs", "--api", otherApi]);
  await connect(page, server, limited);

  await openFromList(page, "Theirs");
  await keyActions(page).getByRole("button", { name: "Edit", exact: true }).click();
  const note = page.getByRole("note");
  await expect(note).toContainText(
    `Changing this key needs api.*.update_key (every API) or api.${otherApi}.update_key (this API only)`,
  );
  await expect(note).toContainText(`for ${otherApi}`);

  // The other API's refusal does not hold back a key of the allowed one.
  await openFromList(page, "Mine");
  await expect(page.getByRole("note")).toHaveCount(0);
  await keyActions(page).getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Edit key" })).toBeVisible();
  await page.getByRole("dialog", { name: "Edit key" }).getByRole("button", { name: "Close" }).click();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Keys" }).click();
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create key" });
  await dialog.getByLabel("API id").fill(allowedApi);
  await dialog.getByLabel("API id").press("Tab");
  await expect(dialog.getByText("This root key may create keys in it.")).toBeVisible();
  await expect(dialog.getByLabel("Name", { exact: true })).toBeEnabled();
  await dialog.getByRole("list", { name: "APIs this dashboard knows" }).getByRole("button", { name: otherApi }).click();
  await expect(dialog.getByRole("note")).toContainText(
    `Creating a key in this API needs api.*.create_key (every API) or api.${otherApi}.create_key (this API only)`,
  );
  await expect(dialog.getByLabel("Name", { exact: true })).toBeDisabled();
  await saveScreenshot(page, "key-permissions-one-api");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog.getByRole("note")).toBeVisible();
  await saveScreenshot(page, "key-permissions-one-api-phone");
});
