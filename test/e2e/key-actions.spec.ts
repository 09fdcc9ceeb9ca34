import type { Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { seriousViolationsInBothThemes } from "./axe";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

/** A root key that may do everything the key actions do, and verify keys to check what they did. */
const ACTING_PERMISSIONS = [
  "api.*.read_key",
  "api.*.read_analytics",
  "api.*.verify_key",
  "api.*.create_key",
  "api.*.update_key",
  "api.*.delete_key",
  "rbac.*.read_permission",
  "rbac.*.read_role",
].join(",");

function actingRootKey(server: StartedServer, name: string): Promise<string> {
  return server.admin(["root-key", "create", "--name", name, "--permissions", ACTING_PERMISSIONS]);
}

/** Verifies a key as a caller would; resolves the answer's code. */
async function verifyCode(server: StartedServer, rootKey: string, secret: string): Promise<string> {
  const response = await fetch(`${server.url}/v2/keys.verifyKey`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ key: secret }),
  });
  const body = (await response.json()) as { data: { code: string } };
  return body.data.code;
}

async function connect(page: Page, server: StartedServer, rootKey: string): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
}

test("a key created from the dashboard shows its secret once, verifies with it, and is in the list at once", async ({ page, server }) => {
  const rootKey = await actingRootKey(server, "e2e-create");
  const apiId = await server.admin(["apis", "create", "--name", "e2e-create"]);
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys`);
  await expect(page.getByRole("table")).toBeVisible();

  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create key" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("API id").fill(apiId);
  await dialog.getByLabel("Name", { exact: true }).fill("Created in the dashboard");
  await dialog.getByLabel("Prefix").fill("dash");
  await dialog.getByLabel("Credits", { exact: true }).fill("5");
  await dialog.getByLabel("Meta (JSON)").fill('{"plan": ');
  await expect(dialog.getByText(/^Not JSON/)).toBeVisible();
  await dialog.getByLabel("Meta (JSON)").fill('{"plan": "pro"}');
  await expect(dialog.getByText(/^Not JSON/)).toHaveCount(0);
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await dialog.getByRole("button", { name: "Create key" }).click();

  const created = page.getByRole("dialog", { name: "Key created" });
  const secretField = created.getByLabel("Secret", { exact: true });
  await expect(secretField).toHaveValue(/^dash_/);
  await expect(created.getByText("it will not be shown again")).toBeVisible();
  await expect(created.getByRole("button", { name: "Copy secret" })).toBeVisible();
  const secret = await secretField.inputValue();
  expect(await verifyCode(server, rootKey, secret)).toBe("VALID");
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await saveScreenshot(page, "key-actions-created");

  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toHaveCount(0);
  await expect(page.getByRole("table").getByText("Created in the dashboard")).toBeVisible();
  // Nothing kept it: no storage, no URL, no journal (the troubleshoot page lists the journal).
  expect(page.url()).not.toContain(secret);
  const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
  expect(stored).not.toContain(secret);
  expect(await page.content()).not.toContain(secret);
});
