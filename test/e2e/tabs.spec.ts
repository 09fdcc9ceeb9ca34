import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("a new tab gets the key from an open tab, and Forget key in one tab forgets in both", async ({ page, context, server, rootKey }) => {
  // Tab A: key entry, then the keys.
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();

  // Tab B, opened in the same browser: no key in its own sessionStorage, yet it lists the keys.
  const tabB = await context.newPage();
  await tabB.goto(`${server.url}/keys`);
  await expect(tabB.getByText(/^\d+ keys$/)).toBeVisible();
  await expect(tabB).toHaveURL(/\/keys$/);
  await expect(tabB.getByLabel("API key", { exact: true })).toHaveCount(0);
  // Handed over in memory: nothing persistent holds it, and the URL never did.
  const stored = await tabB.evaluate(() => ({ local: JSON.stringify({ ...localStorage }), session: JSON.stringify({ ...sessionStorage }) }));
  expect(stored.local).not.toContain(rootKey);
  expect(stored.session).toContain(rootKey);
  await saveScreenshot(tabB, "tabs-handed-over");

  // Forget in B: A goes to key entry too, and a third tab finds no key to take.
  await tabB.getByRole("button", { name: "Forget key" }).click();
  await expect(tabB.getByLabel("API key", { exact: true })).toBeVisible();
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/connect$/);
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(rootKey);
  await saveScreenshot(page, "tabs-forgotten-elsewhere");

  const tabC = await context.newPage();
  await tabC.goto(`${server.url}/keys`);
  await expect(tabC.getByLabel("API key", { exact: true })).toBeVisible();
  await expect(tabC).toHaveURL(/\/connect$/);
  await tabB.close();
  await tabC.close();
});

test("a tab in another browser context (another profile) gets no key", async ({ browser, page, server, rootKey }) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    await stranger.goto(`${server.url}/keys`);
    await expect(stranger.getByLabel("API key", { exact: true })).toBeVisible();
  } finally {
    await other.close();
  }
});

test("a key's name opened in a new tab shows that key's page there, with the key handed over", async ({ page, context, server, rootKey }) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const table = page.getByRole("table", { name: "API keys" });
  const link = table.getByRole("row").nth(1).getByRole("link").first();
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/keys\/key_/);
  // The key is named by its id: the first row is whichever key sorts first on this worker's shared server, and a
  // hostile name's marks read differently in a link and in a heading.
  const keyId = href.slice("/keys/".length);

  // As a person opens a link in a new tab: with the modifier key held.
  const opened = context.waitForEvent("page");
  await link.click({ modifiers: ["ControlOrMeta"] });
  const tab = await opened;
  await expect(tab).toHaveURL(new RegExp(`${href}$`));
  await expect(tab.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(tab.getByRole("region", { name: "Fields" }).getByText(keyId, { exact: true })).toBeVisible();
  await expect(tab.getByLabel("API key", { exact: true })).toHaveCount(0);
  // The first tab stayed where it was.
  await expect(page).toHaveURL(/\/keys$/);
  await saveScreenshot(tab, "tabs-key-page-in-new-tab");
  await tab.close();
});
