import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { seriousViolationsInBothThemes } from "./axe";
import { expect, saveScreenshot, test } from "./fixtures";
import { actingRootKey, adminKey, connect, openKey } from "./key-actions-helpers";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true, viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

/** The open dialog, at phone width in both themes: axe clean, named, inside the screen, the page not scrolling sideways. */
async function checkDialog(page: Page, name: string, shot: string, opener: Locator): Promise<void> {
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `phone-${shot}-${scheme}`)),
  ).toEqual({ light: [], dark: [] });
  const box = await dialog.boundingBox();
  expect(box?.x).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // Keyboard: Escape closes it and the focus returns to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

test("every key dialog at 375 px, light and dark: axe clean, inside the screen, closed by Escape with the focus back on its button", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-phone-dialogs", [
    "rbac.*.add_permission_to_key",
    "rbac.*.remove_permission_from_key",
    "rbac.*.add_role_to_key",
    "rbac.*.remove_role_from_key",
  ]);
  const key = await adminKey(server, ["--name", "On a phone", "--permissions", "documents.read"]);
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys`);
  const create = page.getByRole("button", { name: "Create key" });
  await create.click();
  await checkDialog(page, "Create key", "create", create);

  await openKey(page, server, key.keyId, "On a phone");
  for (const [button, name, shot] of [
    ["Edit", "Edit key", "edit"],
    ["Credits", "Credits", "credits"],
    ["Permissions and roles", "Permissions and roles", "access"],
    ["Reroll", "Reroll key", "reroll"],
    ["Delete", "Delete key", "delete"],
  ] as const) {
    const opener = page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: button, exact: true });
    await opener.click();
    await checkDialog(page, name, shot, opener);
  }
});

test("a refusal's note at 375 px wraps the service's words inside itself, where they can be read", async ({
  page,
  server,
}) => {
  const readOnly = await server.admin([
    "root-key",
    "create",
    "--name",
    "e2e-phone-refusal",
    "--permissions",
    "api.*.read_key,api.*.read_analytics",
  ]);
  const key = await adminKey(server, ["--name", "Refused on a phone"]);
  await connect(page, server, readOnly);
  await openKey(page, server, key.keyId, "Refused on a phone");
  await page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Edit", exact: true }).click();
  // The service's words name the permission as one long unbroken token (unkey:v1:ws_…:keyspaces/…#update_key).
  const note = page.getByRole("note");
  await expect(note).toContainText("the service refused it: “Missing one of these permissions");
  expect(await note.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, "phone-refusal-note");
});

test("the bulk progress at 375 px, light and dark: axe clean, inside the screen, its Cancel reachable by keyboard", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-phone-progress");
  // A prefix of its own: --repeat-each runs this again on the same server, beside the first run's keys.
  const prefix = `phone-progress-${randomUUID().slice(0, 6)}-`;
  for (const n of [0, 1]) await adminKey(server, ["--name", `${prefix}${n}`]);
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys`);
  await page.getByRole("searchbox", { name: "Filter keys" }).fill(prefix);
  await page.getByRole("button", { name: "Select", exact: true }).click();
  const bar = page.getByRole("group", { name: "Selected keys", exact: true });
  // No table header on a phone: the bar's button selects them.
  await bar.getByRole("button", { name: "Select all 2 shown" }).tap();
  await expect(bar.getByRole("status").first()).toHaveText("2 keys selected");
  // The changes are held until the progress has been looked at.
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/v2/keys.updateKey", async (route) => {
    await released;
    await route.continue();
  });
  await bar.getByRole("button", { name: "Disable" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disable 2 keys" }).click();
  const progress = page.getByRole("dialog", { name: "Disabling 2 keys" });
  const done = progress.getByRole("status").filter({ hasText: "done" });
  await expect(done).toHaveText("0 of 2 done");
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `phone-bulk-progress-${scheme}`)),
  ).toEqual({ light: [], dark: [] });
  const box = await progress.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? Infinity) <= 375).toBe(true);
  await progress.getByRole("button", { name: "Cancel" }).focus();
  await page.keyboard.press("Enter");
  await expect(done).toContainText("cancelling");
  release();
  await expect(page.getByRole("dialog", { name: /^Disabled/ })).toBeVisible();
});
