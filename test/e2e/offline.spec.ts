import { enterKey, expect, saveScreenshot, test } from "./fixtures";

const ROOT_KEY = [
  "root-key",
  "create",
  "--name",
  "e2e-offline",
  "--permissions",
  "api.*.read_key,api.*.read_analytics",
];

test("offline, a key's page says so within two seconds instead of loading forever, and loads by itself once back", async ({
  page,
  server,
  context,
}) => {
  const rootKey = await server.admin(ROOT_KEY);
  const [keyId = ""] = (await server.admin(["keys", "create", "--name", "Offline reader"])).split(" ");
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys/${keyId}`);
  const usage = page.getByRole("region", { name: "Usage by outcome" });
  await expect(usage.getByText("No verifications in the last 24 hours.")).toBeVisible();
  await expect(page.getByText("You are offline.")).toHaveCount(0);

  await context.setOffline(true);
  await usage.getByRole("button", { name: "30 days" }).click();
  // Where the chart was to load, and at the top of the page.
  await expect(usage.getByRole("status")).toHaveText("Offline: this loads once the connection is back.", {
    timeout: 2000,
  });
  await expect(page.getByRole("status").filter({ hasText: "You are offline." })).toBeAttached({ timeout: 2000 });
  await saveScreenshot(page, "key-page-offline");

  await context.setOffline(false);
  await expect(usage.getByText("No verifications in the last 30 days.")).toBeVisible();
  await expect(page.getByText("You are offline.")).toHaveCount(0);
});

test("offline, the request-id lookup says so, and answers by itself once back", async ({ page, server, context }) => {
  const rootKey = await server.admin(ROOT_KEY);
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/troubleshoot`);
  await expect(page.getByLabel("Request id")).toBeVisible();

  await context.setOffline(true);
  await page.getByLabel("Request id").fill("req_NotThere1");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByText("Offline: this loads once the connection is back.")).toBeVisible({ timeout: 2000 });
  await expect(page.getByRole("status").filter({ hasText: "You are offline." })).toBeAttached({ timeout: 2000 });

  await context.setOffline(false);
  await expect(page.getByText(/No verification has the request id/)).toBeVisible();
  await expect(page.getByText("You are offline.")).toHaveCount(0);
});

test("offline, the keys list opened from another page says so, and lists the keys by itself once back", async ({
  page,
  server,
  context,
}) => {
  const rootKey = await server.admin(ROOT_KEY);
  const [keyId = ""] = (await server.admin(["keys", "create", "--name", "Offline lister"])).split(" ");
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  // A key's page first, so that no list is loaded when the connection goes.
  await page.goto(`${server.url}/keys/${keyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Offline lister" })).toBeVisible();

  await context.setOffline(true);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Keys" }).click();
  await expect(page.getByRole("heading", { name: /offline/i }).first()).toBeVisible({ timeout: 5000 });
  await saveScreenshot(page, "keys-list-offline-first-load");

  await context.setOffline(false);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table).toBeVisible();
  await expect(page.getByRole("heading", { name: /offline/i })).toHaveCount(0);
  // The server holds other tests' keys too: the filter finds this one wherever the table puts it.
  await page.getByLabel("Filter keys").fill("Offline lister");
  await expect(table.getByRole("link", { name: "Offline lister" })).toBeVisible();
});
