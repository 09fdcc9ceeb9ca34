import { expect, saveScreenshot, test } from "./fixtures";

test("the served page loads in Chromium and asks for a key", async ({ page, server }) => {
  await page.goto(server.url);
  await expect(page).toHaveURL(/\/connect$/);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Base URL")).toHaveValue(server.url);
  await saveScreenshot(page, "key-entry");
});
