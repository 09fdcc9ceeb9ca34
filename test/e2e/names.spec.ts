import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("a key name with a right-to-left override shows the override instead of reading as another name", async ({ page, server, rootKey }) => {
  await server.admin(["keys", "create", "--name", "\u202Egnp.exe\u202C invoice"]);
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await page.getByPlaceholder("Filter by name, key id or prefix").fill("invoice");
  const name = page.getByRole("cell").filter({ hasText: "invoice" });
  await expect(name).toHaveText("⟨U+202E⟩gnp.exe⟨U+202C⟩ invoice");
  await expect(name.locator("bdi")).toHaveCount(1);
  await saveScreenshot(page, "keys-bidi-name");
});
