import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

// axe runs as an injected script, which the page's CSP would refuse.
test.use({ bypassCSP: true });

async function addEnvironment(page: Page, name: string, url: string): Promise<void> {
  const add = page.getByRole("form", { name: "Add an environment" });
  await add.getByLabel("Environment name").fill(name);
  await add.getByLabel("Environment URL").fill(url);
  await add.getByRole("button", { name: "Add environment" }).click();
}

test("in the header's environment menu, arrow keys only move; Enter switches, and key entry says why the key is gone", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(`${server.url}/connect`);
  await addEnvironment(page, "Development", server.url);
  await addEnvironment(page, "Production", "https://api.example.com");
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();

  const switcher = page.getByRole("button", { name: "Switch environment" });
  await switcher.focus();
  await page.keyboard.press("ArrowDown");
  const menu = page.getByRole("menu", { name: "Environments" });
  await expect(menu.getByRole("menuitem", { name: /^Production/ })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await saveScreenshot(page, "environment-menu-open");
  expect(await seriousViolations(page)).toEqual([]);
  // Nothing switched: still the keys, still the key, still Development.
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByTestId("environment-badge")).toHaveText(/Development$/);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(switcher).toBeFocused();

  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/connect$/);
  await expect(page.getByTestId("environment-badge")).toHaveText(/Production$/);
  await expect(page.getByText(/^The key you had entered was for/)).toContainText(
    `The key you had entered was for ${server.url}, so it did not follow you to Production, which is at another address`,
  );
  await saveScreenshot(page, "environment-switched-key-dropped");
  expect(await seriousViolations(page)).toEqual([]);
});

test("two environments at the same address: the second is warned about, and each can be chosen", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(`${server.url}/connect`);
  await addEnvironment(page, "Local", server.url);
  await addEnvironment(page, "Local (demo data)", server.url);
  const add = page.getByRole("form", { name: "Add an environment" });
  await expect(add.getByRole("alert")).toContainText("Local already uses this address. Add it anyway?");
  await saveScreenshot(page, "environment-duplicate-warning");
  await add.getByRole("button", { name: "Add anyway" }).click();
  await expect(page.getByRole("list", { name: "Saved environments" }).getByRole("listitem")).toHaveCount(2);

  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  await expect(page.getByTestId("environment-badge")).toHaveText(/Local$/);
  await page.getByRole("button", { name: "Switch environment" }).click();
  await page.getByRole("menuitem", { name: /^Local \(demo data\)/ }).click();
  await expect(page.getByTestId("environment-badge")).toHaveText(/Local \(demo data\)$/);
  // The same origin: the key follows, and the keys list again.
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  await page.getByRole("button", { name: "Switch environment" }).click();
  await page.getByRole("menuitem", { name: /^Local(?! \()/ }).click();
  await expect(page.getByTestId("environment-badge")).toHaveText(/Local$/);
});

test("an environment name with a right-to-left override shows the override, in the list and the header", async ({
  page,
  server,
}) => {
  await page.goto(`${server.url}/connect`);
  await addEnvironment(page, "Prod \u202Eevil", server.url);
  await expect(page.getByTestId("environment-badge")).toHaveText("Environment: Prod ⟨U+202E⟩evil");
  await expect(page.getByRole("list", { name: "Saved environments" })).toContainText("Prod ⟨U+202E⟩evil");
  await saveScreenshot(page, "environment-bidi-name");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the environment menu fits the screen", async ({ page, server }) => {
    await page.goto(`${server.url}/connect`);
    await addEnvironment(page, "Development", server.url);
    await addEnvironment(page, "Production (billing, eu-west-1)", "https://api.example.com");
    await page.getByRole("button", { name: "Switch environment" }).click();
    const menu = page.getByRole("menu", { name: "Environments" });
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: "test-results/screenshots/environment-menu-phone.png" });
  });
});
