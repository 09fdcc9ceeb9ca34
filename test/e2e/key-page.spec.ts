import type { Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { seriousViolations, seriousViolationsInBothThemes } from "./axe";
import { createAnalyticsRootKey, enterKey, expect, saveScreenshot, test, verifyCode } from "./fixtures";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

/** The whole page in one picture: the app scrolls inside its main element, which a full-page screenshot does not unroll. */
async function saveWholePage(page: Page, name: string): Promise<void> {
  await page.addStyleTag({ content: ".app { height: auto !important } .app__main { overflow: visible !important }" });
  await saveScreenshot(page, name);
}

/** The id of a demo key, asked of the API as the dashboard would. */
async function demoKeyId(server: StartedServer, rootKey: string, name: string): Promise<string> {
  const response = await fetch(`${server.url}/v2/keys.listKeys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ limit: 100 }),
  });
  const body = (await response.json()) as { data: { keys: { keyId: string; name?: string }[] } };
  const key = body.data.keys.find((candidate) => candidate.name === name);
  if (key === undefined) throw new Error(`no demo key named ${name}`);
  return key.keyId;
}

/** Key entry, then the key's page in the same tab (the key stays in this tab's session). */
async function openKeyPage(page: Page, server: StartedServer, rootKey: string, name: string): Promise<string> {
  const keyId = await demoKeyId(server, rootKey, name);
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys/${keyId}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return keyId;
}

test("the key page explains its refusals from the demo data", async ({ page, server }) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-analytics");
  await openKeyPage(page, server, rootKey, "Nightly data export");
  await expect(page.getByTestId("key-verdict")).toHaveText(/^Refused because it expired 3 days ago \(\w{3} \d+\)/);
  const usage = page.getByRole("region", { name: "Usage by outcome" });
  await expect(usage.getByRole("img", { name: /Verifications per hour over the last 24 hours/ })).toBeVisible();
  await expect(usage.locator("canvas").first()).toBeVisible();
  const refusals = page.getByRole("region", { name: "Refused verifications" });
  await expect(refusals.getByRole("heading", { name: /EXPIRED Refused: the key has expired/ })).toBeVisible();
  await expect(refusals.getByRole("link", { name: /^Look up request req_/ }).first()).toBeVisible();
  await usage.getByRole("button", { name: "30 days" }).click();
  await expect(usage.getByRole("img", { name: /per day over the last 30 days/ })).toBeVisible();
  await saveWholePage(page, "key-page-expired");
});

test("a key refused by its API's IP whitelist says so on its page", async ({ page, server }) => {
  const apiId = await server.admin(["apis", "create", "--name", "Walled API", "--ip-whitelist", "203.0.113.7"]);
  const [keyId = "", secret = ""] = (
    await server.admin(["keys", "create", "--name", "Walled key", "--api", apiId])
  ).split(" ");
  const verifier = await server.admin([
    "root-key",
    "create",
    "--name",
    "e2e-verify",
    "--permissions",
    "api.*.verify_key",
  ]);
  // From this machine's loopback address, which the whitelist does not list.
  for (const _ of [1, 2, 3]) expect(await verifyCode(server, verifier, secret)).toBe("FORBIDDEN");
  const rootKey = await createAnalyticsRootKey(server, "e2e-walled");
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys/${keyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Walled key" })).toBeVisible();
  await expect(page.getByTestId("key-verdict")).toHaveText(
    /callers came from an address its API's IP whitelist does not list: 3 of 3 verifications/,
  );
  const refusals = page.getByRole("region", { name: "Refused verifications" });
  await expect(
    refusals.getByRole("heading", { name: /FORBIDDEN Refused: called from an address the API does not allow/ }),
  ).toBeVisible();
  await saveWholePage(page, "key-page-ip-whitelist");
});

test("a key's page shows the permissions its role grants and its identity's shared rate limit", async ({
  page,
  server,
}) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-analytics");
  await openKeyPage(page, server, rootKey, "CI pipeline");
  const fields = page.getByRole("region", { name: "Fields" });
  // The demo's CI key has no permission of its own: documents.read comes from its role "reader".
  await expect(fields.getByRole("listitem").filter({ hasText: /^documents\.read$/ })).toBeVisible();
  await expect(fields.getByRole("listitem").filter({ hasText: /^reader$/ })).toBeVisible();

  await openKeyPage(page, server, rootKey, "Acme Corp integration");
  await expect(fields).toContainText("org_acme");
  await expect(fields).toContainText(/Identity rate limits\s*requests: 100 per 1 minute, on every verification/);
  await saveWholePage(page, "key-page-identity-ratelimit");
});

test("a refused verification's request id is found, and so is one of the dashboard's own requests", async ({
  page,
  server,
}) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-analytics");
  // The answer's body is read in the test, as it passes to the page: Chromium drops a body once its page moves on,
  // and reading it from the browser failed that way under load. The last getKey is the shown page's.
  let ownRequestId = "";
  await page.route("**/v2/keys.getKey", async (route) => {
    const response = await route.fetch();
    ownRequestId = ((await response.json()) as { meta: { requestId: string } }).meta.requestId;
    await route.fulfill({ response });
  });
  const keyId = await openKeyPage(page, server, rootKey, "Nightly data export");
  await page.unroute("**/v2/keys.getKey");
  expect(ownRequestId).toMatch(/^req_/);

  const link = page
    .getByRole("region", { name: "Refused verifications" })
    .getByRole("link", { name: /^Look up request req_/ })
    .first();
  const requestId = (await link.textContent())?.trim() ?? "";
  await link.click();
  await expect(page).toHaveURL(/\/troubleshoot\?request=req_/);
  const found = page.getByRole("article", { name: "The verification" });
  await expect(found).toContainText("EXPIRED");
  await expect(found.getByRole("link", { name: /Nightly data export/ })).toHaveAttribute("href", `/keys/${keyId}`);
  await expect(found.getByRole("heading", { name: /Refused: the key has expired/ })).toBeVisible();
  await expect(page.getByLabel("Request id")).toHaveValue(requestId);
  await saveWholePage(page, "request-id-verification");

  await page.getByLabel("Request id").fill(ownRequestId);
  await page.getByRole("button", { name: "Look up" }).click();
  const own = page.getByRole("article", { name: "Keyscope's own request" });
  await expect(own).toContainText("/v2/keys.getKey");
  await expect(own).toContainText("Bearer [redacted]");
  await expect(own).toContainText(keyId);
  expect(await page.content()).not.toContain(rootKey);
  await saveWholePage(page, "request-id-own");
});

test("a root key without read_analytics gets the key's fields and the missing permission named", async ({
  page,
  server,
  rootKey,
}) => {
  await openKeyPage(page, server, rootKey, "Checkout service");
  await expect(page.getByRole("region", { name: "Fields" })).toContainText("Created");
  const notices = page.getByTestId("analytics-notice");
  await expect(notices).toHaveCount(2);
  await expect(notices.first()).toContainText("api.*.read_analytics");
  await expect(page.getByRole("alert")).toHaveCount(0);
  await saveWholePage(page, "key-page-no-analytics");
});

test("the key page and the request lookup have no serious accessibility violation, light or dark", async ({
  page,
  server,
}) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-analytics");
  await openKeyPage(page, server, rootKey, "Production backend");
  await expect(page.getByRole("region", { name: "Usage by outcome" }).getByRole("img")).toBeVisible();
  await page.getByText("The numbers as a table").click();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveWholePage(page, `key-page-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });

  await page.getByRole("link", { name: "Look up a request id" }).click();
  await page.getByLabel("Request id").fill("req_NotThere1");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByText(/No verification has the request id/)).toBeVisible();
  expect(
    await seriousViolationsInBothThemes(page, (colorScheme) => saveWholePage(page, `request-lookup-${colorScheme}`)),
  ).toEqual({ light: [], dark: [] });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test("the key page fits 360 px and stays accessible", async ({ page, server }) => {
    const rootKey = await createAnalyticsRootKey(server, "e2e-analytics");
    await openKeyPage(page, server, rootKey, "Nightly data export");
    await expect(page.getByRole("region", { name: "Refused verifications" }).getByRole("table")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "the page itself must not scroll sideways").toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "key-page-phone-first-screen");
    await saveWholePage(page, "key-page-phone");
  });
});

test("a key's page for an id the API answers 404 says both readings and the permission to check", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys/key_2vVnWkL7gHUwbUkXUf8sBm`);
  const panel = page.getByRole("alert");
  await expect(
    panel.getByRole("heading", { level: 2, name: "The key was not found, or this root key may not read it" }),
  ).toBeVisible();
  await expect(panel).toContainText("this root key lacks api.*.read_key on the key's API");
  await saveWholePage(page, "key-page-not-found");
});

test("a link to a key's page, opened in a tab without a key, leads there after key entry", async ({ page, server }) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-analytics");
  const keyId = await demoKeyId(server, rootKey, "CI pipeline");
  await page.goto(`${server.url}/keys/${keyId}?window=30d#usage`);
  await expect(page).toHaveURL(/\/connect$/);
  await enterKey(page, rootKey);
  await expect(page).toHaveURL(new RegExp(`/keys/${keyId}\\?window=30d#usage$`));
  await expect(page.getByRole("heading", { level: 1, name: "CI pipeline" })).toBeVisible();
  // Forget key there, and key entry leads back to the same page; key entry opened by itself, to the keys.
  await page.getByRole("button", { name: "Forget key" }).click();
  await enterKey(page, rootKey);
  await expect(page.getByRole("heading", { level: 1, name: "CI pipeline" })).toBeVisible();
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page).toHaveURL(/\/keys$/);
});

test("the usage chart is drawn again in the dark theme's colours when the system switches to dark", async ({
  page,
  server,
}) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-theme");
  const [keyId = "", secret = ""] = (await server.admin(["keys", "create", "--name", "Themed key"])).split(" ");
  const verifier = await server.admin([
    "root-key",
    "create",
    "--name",
    "e2e-theme-verify",
    "--permissions",
    "api.*.verify_key",
  ]);
  expect(await verifyCode(server, verifier, secret)).toBe("VALID");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys/${keyId}`);
  const canvas = page.getByRole("region", { name: "Usage by outcome" }).locator(".usage-chart canvas").first();
  // The VALID colour the theme gives now (key-page.css), and how many of the chart's pixels are exactly that colour.
  const validColour = () =>
    canvas.evaluate((element) => getComputedStyle(element).getPropertyValue("--outcome-valid").trim());
  const pixelsOf = (hex: string) =>
    canvas.evaluate((element, colour) => {
      if (!(element instanceof HTMLCanvasElement)) throw new Error("the chart is not a canvas");
      const context = element.getContext("2d");
      if (context === null) throw new Error("no 2d context");
      const [r, g, b] = [1, 3, 5].map((start) => Number.parseInt(colour.slice(start, start + 2), 16));
      const { data } = context.getImageData(0, 0, element.width, element.height);
      let count = 0;
      for (let index = 0; index < data.length; index += 4)
        if (data[index] === r && data[index + 1] === g && data[index + 2] === b) count++;
      return count;
    }, hex);

  const light = await validColour();
  await expect.poll(() => pixelsOf(light)).toBeGreaterThan(0);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(validColour).not.toBe(light);
  const dark = await validColour();
  await expect.poll(() => pixelsOf(dark)).toBeGreaterThan(0);
  expect(await pixelsOf(light)).toBe(0);
});

test("a burst of refusals is paged with Show older, each shown once, and the focus goes on to the first older row", async ({
  page,
  server,
}) => {
  const [keyId = "", secret = ""] = (await server.admin(["keys", "create", "--name", "Burst key", "--disabled"])).split(
    " ",
  );
  const verifier = await server.admin([
    "root-key",
    "create",
    "--name",
    "e2e-burst",
    "--permissions",
    "api.*.verify_key",
  ]);
  // At once: many of them share a millisecond, where a page's edge used to show some twice and skip others.
  const codes = await Promise.all(Array.from({ length: 120 }, () => verifyCode(server, verifier, secret)));
  expect(new Set(codes)).toEqual(new Set(["DISABLED"]));
  const rootKey = await createAnalyticsRootKey(server, "e2e-burst-reader");
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys/${keyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Burst key" })).toBeVisible();

  const refusals = page.getByRole("region", { name: "Refused verifications" });
  const lookups = refusals.getByRole("link", { name: /^Look up request req_/ });
  await expect(lookups).toHaveCount(50);
  await refusals.getByRole("button", { name: "Show older" }).click();
  await expect(lookups).toHaveCount(100);
  await refusals.getByRole("button", { name: "Show older" }).click();
  await expect(lookups).toHaveCount(120);
  await expect(refusals.getByRole("button", { name: "Show older" })).toHaveCount(0);
  // The last page took its button away: the keyboard goes on from the first row it brought.
  await expect(lookups.nth(100)).toBeFocused();
  const names = await lookups.evaluateAll((links) =>
    links.map((link) => link.getAttribute("aria-label") ?? link.textContent ?? ""),
  );
  expect(new Set(names).size).toBe(120);
});
