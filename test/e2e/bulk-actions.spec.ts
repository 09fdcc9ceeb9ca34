import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { seriousViolationsInBothThemes } from "./axe";
import { enterKey, expect, saveScreenshot, test, verifyCode } from "./fixtures";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

const bothThemesClean = { light: [], dark: [] };

/** May list, change, delete and verify every API's keys. */
function actingRootKey(server: StartedServer, name: string): Promise<string> {
  return server.admin([
    "root-key",
    "create",
    "--name",
    name,
    "--permissions",
    "api.*.read_key,api.*.update_key,api.*.delete_key,api.*.verify_key",
  ]);
}

/**
 * A name prefix of this test's own: the tests of this file run in either worker, in any order, and again with
 * --repeat-each, on a server that keeps every earlier test's keys ("bulk-" would match "phone-bulk-00").
 */
function ownPrefix(word: string): string {
  return `${word}-${randomUUID().slice(0, 6)}-`;
}

/** The keys this file's current test made, deleted after it (below). */
const made: string[] = [];

async function createKeys(
  server: StartedServer,
  prefix: string,
  count: number,
  extra: string[] = [],
): Promise<{ keyId: string; secret: string }[]> {
  const keys: { keyId: string; secret: string }[] = [];
  for (let n = 0; n < count; n += 1) {
    const [keyId = "", secret = ""] = (
      await server.admin(["keys", "create", "--name", `${prefix}${String(n).padStart(2, "0")}`, ...extra])
    ).split(" ");
    keys.push({ keyId, secret });
    made.push(keyId);
  }
  return keys;
}

// Seventy keys left on the worker's server would push the demo keys, which other files' tests look for, past the
// list's first page: each test's keys go when it ends.
test.afterEach(async ({ server, request }) => {
  if (made.length === 0) return;
  const rootKey = await actingRootKey(server, "e2e-bulk-cleanup");
  for (const keyId of made.splice(0)) {
    const answer = await request.post(`${server.url}/v2/keys.deleteKey`, {
      headers: { Authorization: `Bearer ${rootKey}` },
      data: { keyId },
    });
    // 404: the test deleted it already.
    expect([200, 404], keyId).toContain(answer.status());
  }
});

/** The keys page, connected, showing only the keys whose name holds `filter` (the worker's server holds other tests' keys too). */
async function openKeys(page: Page, server: StartedServer, rootKey: string, filter: string): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys`);
  await page.getByRole("searchbox", { name: "Filter keys" }).fill(filter);
}

const selectionBar = (page: Page) => page.getByRole("group", { name: "Selected keys", exact: true });

test("a bulk disable of 50 keys with one refused reports 49 and the one, with why; the 49 verify DISABLED", async ({
  page,
  server,
}) => {
  const allowedApi = await server.admin(["apis", "create", "--name", "e2e-bulk-allowed"]);
  const otherApi = await server.admin(["apis", "create", "--name", "e2e-bulk-other"]);
  // May list every key, but change only the keys of one API.
  const rootKey = await server.admin([
    "root-key",
    "create",
    "--name",
    "e2e-bulk",
    "--permissions",
    `api.*.read_key,api.${allowedApi}.update_key`,
  ]);
  const prefix = ownPrefix("bulk");
  const allowed = await createKeys(server, prefix, 49, ["--api", allowedApi]);
  const [keyId = "", secret = ""] = (
    await server.admin(["keys", "create", "--name", `${prefix}49 elsewhere`, "--api", otherApi])
  ).split(" ");
  const refused = { keyId, secret };
  made.push(keyId);
  const verifier = await actingRootKey(server, "e2e-bulk-verifier");
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  const bulkCode = (path: string) => /\/bulk-key-actions-[\w-]+\.js$/.test(path);

  await openKeys(page, server, rootKey, prefix);
  await page.getByRole("button", { name: "Select", exact: true }).click();
  await expect(page.getByRole("checkbox", { name: "Select all 50 shown" })).toBeVisible();
  // The actions' code comes with the first key selected, not before.
  expect(scripts.filter(bulkCode)).toEqual([]);

  // Shift-click selects a range.
  const rows = page.getByRole("table").getByRole("row");
  await rows.nth(1).getByRole("checkbox").click();
  await rows
    .nth(5)
    .getByRole("checkbox")
    .click({ modifiers: ["Shift"] });
  await expect(selectionBar(page).getByRole("status").first()).toHaveText("5 keys selected");
  await expect(selectionBar(page).getByRole("button", { name: "Disable" })).toBeVisible();
  expect(scripts.filter(bulkCode)).not.toEqual([]);

  await page.getByRole("checkbox", { name: "Select all 50 shown" }).check();
  await expect(selectionBar(page).getByRole("status").first()).toHaveText("50 keys selected");
  expect(
    await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `bulk-selection-${scheme}`)),
  ).toEqual(bothThemesClean);

  await selectionBar(page).getByRole("button", { name: "Disable" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading")).toHaveText("Disable 50 keys?");
  expect(await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `bulk-confirm-${scheme}`))).toEqual(
    bothThemesClean,
  );
  await dialog.getByRole("button", { name: "Disable 50 keys" }).click();

  await expect(dialog.getByRole("heading", { name: "Disabled 49 of 50 keys" })).toBeVisible();
  await expect(dialog.getByText("49 succeeded, 1 failed.")).toBeVisible();
  const failed = dialog.getByRole("list", { name: "Failed" }).getByRole("listitem");
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText(`${prefix}49 elsewhere ${refused.keyId}`);
  await expect(failed).toContainText("This root key may not change keys");
  await expect(failed).toContainText("403");
  await expect(dialog.getByRole("button", { name: "Retry the 1 not changed" })).toBeVisible();
  expect(await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `bulk-result-${scheme}`))).toEqual(
    bothThemesClean,
  );

  for (const key of allowed) expect(await verifyCode(server, verifier, key.secret), key.keyId).toBe("DISABLED");
  expect(await verifyCode(server, verifier, refused.secret)).toBe("VALID");
  // The list follows, and the failed one stays selected to be looked at.
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(selectionBar(page).getByRole("button", { name: "Disable" })).toBeFocused();
  // (Only the rows in view are drawn: the filter brings one forward.)
  await page.getByRole("searchbox", { name: "Filter keys" }).fill(`${prefix}00`);
  await expect(
    page
      .getByRole("table")
      .getByRole("row")
      .filter({ hasText: `${prefix}00` }),
  ).toContainText("Disabled");
  await expect(selectionBar(page).getByRole("status").first()).toHaveText(
    "50 keys selected · 49 of them hidden by the filters",
  );
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test("by touch and keyboard: Select all shown from the bar, unselect one, enable the rest", async ({
    page,
    server,
  }) => {
    const rootKey = await actingRootKey(server, "e2e-bulk-phone");
    const prefix = ownPrefix("phone-bulk");
    const keys = await createKeys(server, prefix, 6);
    await openKeys(page, server, rootKey, prefix);
    await page.getByRole("button", { name: "Select", exact: true }).click();
    await expect(selectionBar(page).getByRole("status").first()).toHaveText("No keys selected");
    // No header on a phone: the bar's button is what a finger reaches.
    await selectionBar(page).getByRole("button", { name: "Select all 6 shown" }).tap();
    await expect(selectionBar(page).getByRole("status").first()).toHaveText("6 keys selected");
    await page.getByRole("checkbox", { name: `Select ${prefix}00` }).focus();
    await page.keyboard.press("Space");
    await expect(selectionBar(page).getByRole("status").first()).toHaveText("5 keys selected");
    await saveScreenshot(page, "bulk-phone-selection");
    expect(await seriousViolationsInBothThemes(page)).toEqual(bothThemesClean);

    await selectionBar(page).getByRole("button", { name: "Enable" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading")).toHaveText("Enable 5 keys?");
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `bulk-phone-confirm-${scheme}`)),
    ).toEqual(bothThemesClean);
    await dialog.getByRole("button", { name: "Enable 5 keys" }).focus();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("heading", { name: "Enabled 5 keys" })).toBeVisible();
    await saveScreenshot(page, "bulk-phone-result");
    for (const key of keys.slice(1)) expect(await verifyCode(server, rootKey, key.secret), key.keyId).toBe("VALID");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    // Focus is back on the button that opened the dialogs; the selection stays for the next action.
    await expect(selectionBar(page).getByRole("button", { name: "Enable" })).toBeFocused();
    await expect(selectionBar(page).getByRole("status").first()).toHaveText("5 keys selected");
  });
});

test("deleting many: a typed confirmation; a key deleted elsewhere meanwhile is named; the result stays until closed, then the deleted leave the list", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-bulk-delete");
  const prefix = ownPrefix("delete-bulk");
  const keys = await createKeys(server, prefix, 5);
  const gone = keys[2];
  if (gone === undefined) throw new Error("no third key");
  await openKeys(page, server, rootKey, prefix);
  await page.getByRole("button", { name: "Select", exact: true }).click();
  await page.getByRole("checkbox", { name: "Select all 5 shown" }).check();
  // Deleted behind the dashboard's back, between selection and run: its delete answers 404.
  await server.admin(["keys", "delete", gone.keyId]);
  await selectionBar(page).getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "Delete 5 keys" })).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill("delete 5 keys");
  expect(await seriousViolationsInBothThemes(page)).toEqual(bothThemesClean);
  await dialog.getByRole("button", { name: "Delete 5 keys" }).click();
  await expect(dialog.getByRole("heading", { name: "Deleted 4 of 5 keys" })).toBeVisible();
  const failed = dialog.getByRole("list", { name: "Failed" }).getByRole("listitem");
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText(`${prefix}02 ${gone.keyId}: `);
  await expect(failed).toContainText("404");
  // Still listed behind the result, which they would take with them.
  await expect(page.getByRole("table").getByRole("link", { name: `${prefix}00` })).toBeAttached();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("link", { name: `${prefix}00` })).toHaveCount(0);
  await expect(page.getByRole("link", { name: `${prefix}04` })).toHaveCount(0);
  for (const key of keys) expect(await verifyCode(server, rootKey, key.secret), key.keyId).toBe("NOT_FOUND");
});

test("a run rate limited, then cut off from the API, says so in place; its retry repeats none of the keys that changed", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-bulk-offline");
  const prefix = ownPrefix("offline-bulk");
  const keys = await createKeys(server, prefix, 8);
  await openKeys(page, server, rootKey, prefix);
  await page.getByRole("button", { name: "Select", exact: true }).click();
  await page.getByRole("checkbox", { name: "Select all 8 shown" }).check();

  // The first change is answered 429 (wait 2 s); once three keys have changed, the connection goes. Every change
  // that reaches the API is counted.
  const sent: string[] = [];
  let connected = true;
  let rateLimited = false;
  let restored = false;
  await page.route("**/v2/keys.updateKey", async (route) => {
    const body = route.request().postDataJSON() as { keyId?: unknown } | null;
    if (!rateLimited) {
      rateLimited = true;
      return route.fulfill({
        status: 429,
        headers: { "content-type": "application/json", "retry-after": "2" },
        body: JSON.stringify({
          meta: { requestId: "req_429" },
          error: {
            status: 429,
            title: "Too Many Requests",
            detail: "Slow down",
            type: "https://unkey.com/docs/errors/unkey/application/too_many_requests",
          },
        }),
      });
    }
    if (!restored && sent.length >= 3) connected = false;
    if (!connected) return route.abort("internetdisconnected");
    if (typeof body?.keyId === "string") sent.push(body.keyId);
    return route.continue();
  });

  await selectionBar(page).getByRole("button", { name: "Disable" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Disable 8 keys" }).click();
  await expect(dialog.getByText(/rate limited: the API asked to wait/)).toBeVisible();
  await expect(dialog.getByRole("heading", { name: /^Disabled \d of 8 keys$/ })).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText(/Stopped at the first lost connection/)).toBeVisible();
  await saveScreenshot(page, "bulk-connection-lost");
  const changedFirst = [...sent];
  expect(changedFirst.length).toBeGreaterThan(0);

  restored = true;
  connected = true;
  sent.length = 0;
  await dialog.getByRole("button", { name: `Retry the ${8 - changedFirst.length} not changed` }).click();
  await expect(dialog.getByRole("heading", { name: "Disabled 8 keys" })).toBeVisible();
  expect(sent.filter((keyId) => changedFirst.includes(keyId))).toEqual([]);
  expect([...changedFirst, ...sent].sort()).toEqual(keys.map((key) => key.keyId).sort());
  for (const key of keys) expect(await verifyCode(server, rootKey, key.secret), key.keyId).toBe("DISABLED");
});

test("a bulk change made in one tab shows in the others, carried in the tabs' message: no tab reloads the keys one by one", async ({
  page,
  server,
  context,
}) => {
  const rootKey = await actingRootKey(server, "e2e-bulk-tabs");
  const prefix = ownPrefix("tabs-bulk");
  await createKeys(server, prefix, 3);
  await openKeys(page, server, rootKey, prefix);
  const firstTabRows = () => page.getByRole("table").getByRole("row").filter({ hasText: prefix });
  await expect(firstTabRows()).toHaveCount(3);
  // A second tab of the same session: the key travels in the tab's session, so it is opened from the first.
  const [other] = await Promise.all([
    context.waitForEvent("page"),
    page.evaluate((href) => window.open(href), `${server.url}/keys`),
  ]);
  if (other === undefined) throw new Error("no second tab");
  const keyReloads: string[] = [];
  for (const tab of [page, other])
    tab.on("request", (request) => void (request.url().endsWith("/v2/keys.getKey") && keyReloads.push(request.url())));
  await other.getByRole("searchbox", { name: "Filter keys" }).fill(prefix);
  await other.getByRole("button", { name: "Select", exact: true }).click();
  // A new tab's list may draw its rows again as its first reads settle (on a busy machine, after the click), which
  // clears a selection: check until it holds.
  const selectAll = other.getByRole("checkbox", { name: "Select all 3 shown" });
  await expect(async () => {
    await selectAll.check({ timeout: 2_000 });
    await expect(selectAll).toBeChecked({ timeout: 500 });
  }).toPass();
  await selectionBar(other).getByRole("button", { name: "Disable" }).click();
  await other.getByRole("dialog").getByRole("button", { name: "Disable 3 keys" }).click();
  await expect(other.getByRole("dialog").getByRole("heading", { name: "Disabled 3 keys" })).toBeVisible();
  for (const row of await firstTabRows().all()) await expect(row).toContainText("Disabled");
  expect(keyReloads).toEqual([]);
  await other.close();
});
