import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import type { Page } from "@playwright/test";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("a new tab gets the key from an open tab, and Forget key in one tab forgets in both", async ({
  page,
  context,
  server,
  rootKey,
}) => {
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
  const stored = await tabB.evaluate(() => ({
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
  }));
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

test("a key's name opened in a new tab shows that key's page there, with the key handed over", async ({
  page,
  context,
  server,
  rootKey,
}) => {
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

/** Keep every core of this machine busy until stopped: the browser's tabs start and talk as slowly as they can. */
function busyCpu(): { [Symbol.dispose]: () => void } {
  const spinners: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["-e", "const end = Date.now() + 120_000; while (Date.now() < end);"], { stdio: "ignore" }),
  );
  return { [Symbol.dispose]: () => spinners.forEach((spinner) => spinner.kill()) };
}

/** Open the keys page in a new tab from this one, as a script does (`window.open`), and press Forget key `when`. */
async function openAndForget(page: Page, when: "at once" | "once it lists keys"): Promise<Page> {
  const opened = page.context().waitForEvent("page");
  if (when === "at once") {
    // In the same task as the opening: before the new tab has run a line of its code.
    await page.evaluate(() => {
      window.open("/keys");
      document.querySelector<HTMLButtonElement>(".app-header__forget")?.click();
    });
    return opened;
  }
  await page.evaluate(() => void window.open("/keys"));
  const tab = await opened;
  await expect(tab.getByText(/^\d+ keys$/)).toBeVisible();
  await page.getByRole("button", { name: "Forget key" }).click();
  return tab;
}

test("Forget key reaches a tab opened from this one however soon after it opened, also with the CPU busy", async ({
  page,
  server,
  rootKey,
}) => {
  test.setTimeout(120_000);
  using _busy = busyCpu();
  for (const when of [
    "at once",
    "once it lists keys",
    "at once",
    "once it lists keys",
    "at once",
    "once it lists keys",
  ] as const) {
    await page.goto(`${server.url}/connect`);
    await enterKey(page, rootKey);
    await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
    const tab = await openAndForget(page, when);
    await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
    await expect(tab.getByLabel("API key", { exact: true }), `forgotten ${when}`).toBeVisible();
    await expect(tab.getByRole("button", { name: "Forget key" })).toHaveCount(0);
    expect(await tab.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(rootKey);
    await tab.close();
  }
});
