import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("a key name with a right-to-left override shows the override instead of reading as another name", async ({
  page,
  server,
  rootKey,
}) => {
  await server.admin(["keys", "create", "--name", "\u202Egnp.exe\u202C invoice"]);
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await page.getByPlaceholder("Filter by name, key id or prefix").fill("invoice");
  const name = page.getByRole("cell").filter({ hasText: "invoice" });
  await expect(name).toHaveText("⟨U+202E⟩gnp.exe⟨U+202C⟩ invoice");
  await expect(name.locator("bdi")).toHaveCount(1);
  await saveScreenshot(page, "keys-bidi-name");
});

test("names that are also properties of every object (toString, __proto__, constructor) read as plain names", async ({
  page,
  server,
  rootKey,
}) => {
  const created = await server.admin([
    "keys",
    "create",
    "--name",
    "toString",
    "--meta",
    '{"__proto__":"a","constructor":"b"}',
  ]);
  const keyId = /key_\w+/.exec(created)?.[0];
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await page.getByPlaceholder("Filter by name, key id or prefix").fill("toString");
  await expect(page.getByRole("cell", { name: "toString", exact: true })).toBeVisible();
  await page.goto(`${server.url}/keys/${keyId ?? ""}`);
  await expect(page.getByRole("heading", { level: 1, name: "toString", exact: true })).toBeVisible();
  await expect(page.getByRole("group", { name: /meta/i }).getByText("__proto__")).toBeVisible();
  await expect(page.getByRole("group", { name: /meta/i }).getByText("constructor")).toBeVisible();
  await expect(page.locator(".bidi-control")).toHaveCount(0);
});
