import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("the keys table sorts by a column, remembers the chosen columns, and links each name to its page", async ({ page, server, rootKey }) => {
  await server.admin(["keys", "create", "--name", "aaa first by name"]);
  await server.admin(["keys", "create", "--name", "zzz last by name"]);
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  await saveScreenshot(page, "keys-table");

  // Other tests share this server: look at these two keys only.
  await page.getByLabel("Filter keys").fill("by name");
  await expect(table.getByRole("row")).toHaveCount(3);
  await table.getByRole("button", { name: "Name" }).click();
  await expect(table.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");
  await expect(table.getByRole("row").nth(1)).toContainText("aaa first by name");
  await table.getByRole("button", { name: "Name" }).click();
  await expect(table.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("row").nth(1)).toContainText("zzz last by name");

  const link = table.getByRole("link", { name: "zzz last by name" });
  await expect(link).toHaveAttribute("href", /^\/keys\/key_[A-Za-z0-9]+$/);

  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Key ID" }).uncheck();
  await expect(table.getByRole("columnheader", { name: "Key ID" })).toHaveCount(0);
  await page.reload();
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Key ID" })).toHaveCount(0);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  expect(stored).not.toContain(rootKey);
  expect(await page.evaluate(() => localStorage.getItem("keyscope.keys.columns"))).toContain('"keyId":false');
});

test("the demo root key sees last use, credits, identities, badges and a 36-hour usage bar per row", async ({ page, server }) => {
  const demoKey = server.rootKey;
  if (demoKey === undefined) throw new Error("the server printed no demo root key");
  await page.goto(server.url);
  await enterKey(page, demoKey);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  for (const header of ["Last used", "Usage, 36 h", "Credits", "External ID", "Status"]) {
    await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  }
  await expect(table.getByText(/^36 h: [\d,]+ valid, [\d,]+ refused$/).first()).toBeAttached();
  await expect(page.getByRole("group", { name: "Filter by status" })).toBeVisible();
  await saveScreenshot(page, "keys-table-usage");
});
