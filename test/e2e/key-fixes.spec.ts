import type { Locator, Page } from "@playwright/test";
import { seriousViolationsInBothThemes } from "./axe";
import { DAY_MS, expect, HOUR_MS, saveScreenshot, test, verifyCode, withinOnePeriod } from "./fixtures";
import { actingRootKey, adminKey, connect, fieldValue, openKey } from "./key-actions-helpers";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

/** Besides the key actions': change a key's own permissions (creating a new one) and add roles to it. */
const RBAC = [
  "rbac.*.add_permission_to_key",
  "rbac.*.remove_permission_from_key",
  "rbac.*.create_permission",
  "rbac.*.add_role_to_key",
];

/** Presses Tab until `target` has the focus, as a keyboard user moves through the page. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let step = 0; step < 60; step += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the control");
}

test("a rate-limited key's verdict names the limit and its reset; Raise limit opens Edit there, and the key then verifies VALID", async ({
  page,
  server,
}, testInfo) => {
  // The limit's window is the UTC hour: the refusals and the raise must happen in one.
  await withinOnePeriod(testInfo, HOUR_MS);
  const rootKey = await actingRootKey(server, "e2e-raise");
  const key = await adminKey(server, ["--name", "Throttled", "--ratelimit", "1/1h"]);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");
  expect(await verifyCode(server, rootKey, key.secret)).toBe("RATE_LIMITED");
  expect(await verifyCode(server, rootKey, key.secret)).toBe("RATE_LIMITED");
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Throttled");
  const verdict = page.getByTestId("key-verdict");
  await expect(verdict).toContainText("rate limit “requests” (1 per 1 hour)");
  await expect(verdict).toContainText(/the window that refused last resets at \d{4}-\d\d-\d\d \d\d:00:00 UTC/);

  await page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Raise limit" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit key" });
  const requests = dialog.getByLabel("Requests", { exact: true });
  await expect(requests).toHaveValue("2");
  await expect(requests).toBeFocused();
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await page.setViewportSize({ width: 375, height: 812 });
  await saveScreenshot(page, "key-fixes-raise-limit-phone");
  // Keyboard only: the focused field, a new number, Enter submits the form.
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("100");
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  // Focus is back on the button that opened it.
  await expect(page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Raise limit" })).toBeFocused();
  await expect(page.getByText("100 per 1 hour").first()).toBeVisible();
  // The verdict follows: the limit as it is now, and that the key changed after the refusals it counts.
  await expect(verdict).toContainText("rate limit “requests” (100 per 1 hour)");
  await expect(verdict).toContainText("the key was changed since");
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");
});

test("Add permission from a refused key's verdict grants the one picked, and it verifies VALID; removed, it is refused again", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-permission", RBAC);
  const key = await adminKey(server, ["--name", "Lacks a permission", "--permissions", "e2e.documents.read"]);
  const query = "e2e.documents.write";
  expect(await verifyCode(server, rootKey, key.secret, query)).toBe("INSUFFICIENT_PERMISSIONS");
  expect(await verifyCode(server, rootKey, key.secret, query)).toBe("INSUFFICIENT_PERMISSIONS");
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Lacks a permission");
  await expect(page.getByTestId("key-verdict")).toContainText("INSUFFICIENT_PERMISSIONS");

  await page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Add permission" }).click();
  const dialog = page.getByRole("dialog", { name: "Permissions and roles" });
  await expect(dialog).toContainText("Which permission they asked for is not recorded");
  await expect(dialog.getByRole("list", { name: "Permissions picked" })).toHaveText(/^e2e\.documents\.readRemove$/);
  // Picked from the workspace's catalogue, searched on the server: one the workspace lacks is offered as new.
  await dialog.getByRole("combobox", { name: "Find permissions" }).fill(query);
  await dialog
    .getByRole("option", { name: new RegExp(`^${query.replaceAll(".", "\\.")}(\\s|$)`) })
    .or(dialog.getByRole("button", { name: `Pick “${query}”, a new permission (the change creates it)` }))
    .click();
  await expect(dialog).toContainText(`Adds ${query} (permissions).`);
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `key-fixes-add-permission-${scheme}`)),
  ).toEqual({ dark: [], light: [] });
  await dialog.getByRole("button", { name: "Save permissions and roles" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(query).first()).toBeVisible();
  expect(await verifyCode(server, rootKey, key.secret, query)).toBe("VALID");

  // Removed again, keyboard only, at phone width.
  await page.setViewportSize({ width: 375, height: 812 });
  const open = page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Permissions and roles" });
  await open.focus();
  await page.keyboard.press("Enter");
  const again = page.getByRole("dialog", { name: "Permissions and roles" });
  const granted = again.getByRole("button", { name: `Remove permission ${query}` });
  await tabTo(page, granted);
  await page.keyboard.press("Enter");
  await expect(again).toContainText(`Removes ${query} (permissions).`);
  await saveScreenshot(page, "key-fixes-permissions-phone");
  await tabTo(page, again.getByRole("button", { name: "Save permissions and roles" }));
  await page.keyboard.press("Enter");
  await expect(again).toHaveCount(0);
  expect(await verifyCode(server, rootKey, key.secret, query)).toBe("INSUFFICIENT_PERMISSIONS");
  expect(await verifyCode(server, rootKey, key.secret, "e2e.documents.read")).toBe("VALID");
});

test("what a key's role gives is shown as the role's and is not offered for removal", async ({ page, server }) => {
  const rootKey = await actingRootKey(server, "e2e-roles", RBAC);
  await server.admin(["roles", "create", "--name", "e2e-auditor", "--permissions", "e2e.audit.read"]);
  const key = await adminKey(server, ["--name", "Has a role", "--roles", "e2e-auditor", "--permissions", "e2e.own"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Has a role");
  await page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Permissions and roles" }).click();
  const dialog = page.getByRole("dialog", { name: "Permissions and roles" });
  await expect(dialog.getByText("not removable here: remove the role to take them away")).toBeVisible();
  await expect(dialog.locator(".access-fields__given li")).toHaveText(["e2e.audit.read from e2e-auditor"]);
  await expect(dialog.getByRole("list", { name: "Permissions picked" })).toHaveText(/^e2e\.ownRemove$/);
  await expect(dialog.getByRole("list", { name: "Roles picked" })).toHaveText(/^e2e-auditorRemove$/);
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await saveScreenshot(page, "key-fixes-roles");
});

test("Edit shows every field updateKey takes, usable at phone width, axe clean in both themes", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-edit-all");
  const key = await adminKey(server, [
    "--name",
    "Everything",
    "--credits",
    "10",
    "--refill",
    "monthly:50",
    "--ratelimit",
    "10/1m",
    "--permissions",
    "e2e.x",
  ]);
  await connect(page, server, rootKey);
  await page.setViewportSize({ width: 375, height: 812 });
  await openKey(page, server, key.keyId, "Everything");
  await page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit key" });
  await expect(dialog.getByLabel("Refill", { exact: true })).toHaveValue("monthly");
  await expect(dialog.getByLabel("Refill day")).toHaveValue("1");
  await expect(dialog.getByLabel("Limit name")).toHaveValue("requests");
  await expect(dialog.getByRole("list", { name: "Permissions picked" })).toHaveText(/^e2e\.xRemove$/);
  const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await saveScreenshot(page, "key-fixes-edit-phone");
  await dialog.getByLabel("Refill amount").fill("75");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);
  const answer = await fetch(`${server.url}/v2/keys.getKey`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ keyId: key.keyId }),
  });
  const { data } = (await answer.json()) as { data: { credits: unknown; ratelimits: unknown[] } };
  expect(data.credits).toEqual({ remaining: 10, refill: { interval: "monthly", amount: 75, refillDay: 1 } });
  expect(data.ratelimits).toHaveLength(1);
});

test("an expired key's verdict offers Extend expiry: Edit opens 30 days ahead, only expires is sent, and the key verifies VALID", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-extend");
  const key = await adminKey(server, ["--name", "Expired yesterday", "--expires=-1d"]);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("EXPIRED");
  expect(await verifyCode(server, rootKey, key.secret)).toBe("EXPIRED");
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Expired yesterday");
  const verdict = page.getByTestId("key-verdict");
  await expect(verdict).toContainText("it expired yesterday");

  const fix = page.getByRole("group", { name: "Fix" });
  await fix.getByRole("button", { name: "Extend expiry" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit key" });
  await expect(dialog).toBeVisible();
  // Listened to from here: opening the dialog asked (with a refused change) whether this root key may update keys.
  const sent: unknown[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/v2/keys.updateKey")) sent.push(request.postDataJSON());
  });
  const expires = dialog.getByLabel("Expires", { exact: true });
  // A datetime-local value in the browser's time zone, to the minute: read back as an instant by the browser.
  const prefilled = await page.evaluate((value) => new Date(value).getTime(), await expires.inputValue());
  const thirtyDays = 30 * DAY_MS;
  expect(Math.abs(prefilled - (Date.now() + thirtyDays))).toBeLessThan(5 * 60_000);
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);

  expect(sent).toEqual([{ keyId: key.keyId, expires: prefilled }]);
  await expect(fix.getByRole("button", { name: "Extend expiry" })).toHaveCount(0);
  await expect(verdict).not.toContainText("it expired");
  const shown = new Date(prefilled)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
  await expect(fieldValue(page, "Expires")).toContainText(shown);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");
});

test("Remove expiry on an expired key's verdict: the page says it never expires, and the key verifies VALID", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-remove-expiry");
  const key = await adminKey(server, ["--name", "Expired an hour ago", "--expires=-1h"]);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("EXPIRED");
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Expired an hour ago");
  await expect(fieldValue(page, "Expires")).not.toHaveText("Never");

  const fix = page.getByRole("group", { name: "Fix" });
  await fix.getByRole("button", { name: "Remove expiry" }).click();
  await expect(fieldValue(page, "Expires")).toHaveText("Never");
  await expect(fix).toHaveCount(0);
  await expect.poll(() => verifyCode(server, rootKey, key.secret)).toBe("VALID");
  // Said by the server too, not only by the page's optimistic copy.
  await page.reload();
  await expect(fieldValue(page, "Expires")).toHaveText("Never");
});
