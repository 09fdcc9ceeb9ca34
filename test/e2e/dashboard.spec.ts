import { startGateway } from "../support/gateway";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("a valid key lists the workspace's keys", async ({ page, server, rootKey }) => {
  const demoKeyId =
    (await server.admin(["keys", "create", "--name", "Checkout service (production)"])).split(" ")[0] ?? "";
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  await page.getByLabel("Filter keys").fill("(production)");
  await expect(page.getByText("Checkout service (production)")).toBeVisible();
  await expect(page.getByText(demoKeyId)).toBeVisible();
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await expect(page.getByText(rootKey)).toHaveCount(0);
  await saveScreenshot(page, "keys");
});

test("a reload keeps the session and a new browser context asks for the key again", async ({
  page,
  browser,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  // The header offers Forget key as soon as the key is stored, before the move: reload once on the keys page.
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();

  const other = await browser.newContext();
  const fresh = await other.newPage();
  await fresh.goto(`${server.url}/keys`);
  await expect(fresh).toHaveURL(/\/connect$/);
  await expect(fresh.getByLabel("API key", { exact: true })).toBeVisible();
  await other.close();
});

test("Forget key removes the key and returns to key entry", async ({ page, server, rootKey }) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  // Forget from the keys page, as a person would: the header offers it as soon as the key is stored, before the move.
  await expect(page).toHaveURL(/\/keys$/);
  await page.getByRole("button", { name: "Forget key" }).click();
  await expect(page).toHaveURL(/\/connect$/);
  await expect(page.getByLabel("API key", { exact: true })).toHaveValue("");
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(rootKey);
  await page.goto(`${server.url}/keys`);
  await expect(page).toHaveURL(/\/connect$/);
});

test("an unknown key gets the key-not-found panel with its docs link", async ({ page, server }) => {
  await page.goto(server.url);
  await enterKey(page, "ks_root_ThisKeyDoesNotExist1234567");
  const panel = page.getByRole("alert");
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("heading", { level: 2 })).toBeFocused();
  await expect(panel.getByRole("link", { name: /docs/i })).toHaveAttribute(
    "href",
    `${server.url}/docs/errors/svc/authentication/key_not_found`,
  );
  await expect(panel.getByRole("button", { name: "Re-enter key" })).toBeVisible();
  await saveScreenshot(page, "panel-key-not-found");
  await panel.getByRole("button", { name: "Re-enter key" }).click();
  await expect(page).toHaveURL(/\/connect$/);
});

test("a gateway that strips Authorization gets the missing-credentials panel naming the stripping", async ({
  page,
  server,
  rootKey,
}) => {
  const gateway = await startGateway({ target: server.url, stripAuthorization: true });
  try {
    await page.goto(gateway.url);
    const answerArrives = page.waitForResponse((response) => response.url().endsWith("/v2/keys.listKeys"));
    await enterKey(page, rootKey);
    // Only the status: the page moves on (key entry to the keys page) as the answer lands, and a response's
    // body is not available once the page that made it navigated away. The type is checked on the page itself.
    expect((await answerArrives).status()).toBe(401);
    const panel = page.getByRole("alert");
    await expect(panel).toContainText(/stripp/i);
    await expect(panel).toContainText("Authorization: Bearer <API_KEY>");
    await expect(panel.getByRole("link", { name: /docs/i })).toHaveAttribute(
      "href",
      `${gateway.url}/docs/errors/svc/authentication/missing`,
    );
    expect(gateway.seenAuthorization).toContain(`Bearer ${rootKey}`);
    await saveScreenshot(page, "panel-missing-stripped");
  } finally {
    await gateway.stop();
  }
});
