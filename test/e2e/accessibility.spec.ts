import { seriousViolations, seriousViolationsInBothThemes } from "./axe";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

// Each page is checked in the light theme and then the dark one (seriousViolationsInBothThemes).
test("key entry has no serious accessibility violation, light or dark", async ({ page, server }) => {
  await page.goto(`${server.url}/connect`);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveScreenshot(page, `key-entry-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });
});

test("the keys page has no serious accessibility violation, light or dark", async ({ page, server, rootKey }) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await expect(page.getByText(/\d+ keys?/).first()).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveScreenshot(page, `keys-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });
});

test("the keys table with usage bars, badges, the columns menu and the export panel has no serious violation, light or dark", async ({
  page,
  server,
}) => {
  await page.goto(server.url);
  await enterKey(page, server.rootKey ?? "");
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByText(/^36 h: /).first()).toBeAttached();
  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("button", { name: "Export…" }).click();
  await expect(page.getByRole("region", { name: "Export" })).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) =>
      saveScreenshot(page, `keys-usage-export-${colorScheme}`),
    ),
  ).toEqual({ light: [], dark: [] });
});

test("an error panel has no serious accessibility violation, light or dark", async ({ page, server }) => {
  await page.goto(server.url);
  await enterKey(page, "ks_root_ThisKeyDoesNotExist1234567");
  await expect(page.getByRole("alert")).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) =>
      saveScreenshot(page, `panel-key-not-found-${colorScheme}`),
    ),
  ).toEqual({ light: [], dark: [] });
});

test("the troubleshoot page with a diagnosis has no serious accessibility violation, light or dark", async ({
  page,
  server,
}) => {
  await page.goto(server.url);
  await enterKey(page, "ks_root_ThisKeyDoesNotExist1234567");
  await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
  await page.getByRole("button", { name: "Run diagnostics" }).click();
  await expect(page.getByRole("heading", { name: "Diagnosis" })).toBeFocused();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveScreenshot(page, `troubleshoot-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });
});

test("environments on key entry and in the header have no serious accessibility violation, light or dark", async ({
  page,
  server,
}) => {
  await page.goto(`${server.url}/connect`);
  const add = page.getByRole("form", { name: "Add an environment" });
  await add.getByLabel("Environment name").fill("Development");
  await add.getByRole("button", { name: "Add environment" }).click();
  await add.getByLabel("Environment name").fill("Production");
  await add.getByLabel("Environment URL").fill("https://api.example.com");
  await add.getByRole("button", { name: "Add environment" }).click();
  await expect(page.getByTestId("environment-badge")).toHaveText(/Development$/);
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveScreenshot(page, `environments-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });
});

test("the Logs page with its filters, overview, chart, table and a row's details has no serious violation, light or dark", async ({
  page,
  server,
}) => {
  await page.goto(server.url);
  await enterKey(page, server.rootKey ?? "");
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/logs?range=7d`);
  const table = page.getByRole("table", { name: "Verifications, newest first" });
  await table
    .getByRole("button", { name: /: details$/ })
    .first()
    .click();
  await expect(
    page.getByRole("complementary", { name: "Verification details" }).getByTestId("key-verdict"),
  ).toBeVisible();
  await page.getByText("All outcomes").click();
  await expect(page.getByTestId("log-total")).toBeVisible();
  await expect(
    page.getByRole("application", { name: "Verifications over time, by outcome" }).getByRole("img"),
  ).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveScreenshot(page, `logs-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });
});

test("the not-found page has no serious accessibility violation, light or dark", async ({ page, server }) => {
  await page.goto(`${server.url}/no/such/page`);
  await expect(page.getByRole("link", { name: /home|keys|back/i }).first()).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveScreenshot(page, `not-found-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test("the troubleshoot page fits and stays accessible", async ({ page, server }) => {
    await page.goto(server.url);
    await enterKey(page, "ks_root_ThisKeyDoesNotExist1234567");
    await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
    await page.getByRole("button", { name: "Run diagnostics" }).click();
    await expect(page.getByRole("heading", { name: "Diagnosis" })).toBeFocused();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "the page itself must not scroll sideways").toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "troubleshoot-phone");
  });

  test("the Logs page fits and stays accessible, its details over it", async ({ page, server }) => {
    await page.goto(server.url);
    await enterKey(page, server.rootKey ?? "");
    await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
    await page.goto(`${server.url}/logs`);
    await expect(page.getByTestId("log-total")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "the page itself must not scroll sideways").toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "logs-phone-light");
    await page
      .getByRole("table", { name: "Verifications, newest first" })
      .getByRole("button", { name: /: details$/ })
      .first()
      .click();
    await expect(page.getByRole("dialog", { name: "Verification details" })).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (colorScheme) =>
        saveScreenshot(page, `logs-phone-details-${colorScheme}`),
      ),
    ).toEqual({ light: [], dark: [] });
  });

  test("the keys page fits and stays accessible", async ({ page, server, rootKey }) => {
    await page.goto(server.url);
    await enterKey(page, rootKey);
    await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
    await expect(page.getByText(/\d+ keys?/).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "the page itself must not scroll sideways").toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "keys-phone");
  });
});
