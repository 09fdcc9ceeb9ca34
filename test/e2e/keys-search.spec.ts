import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("with an API id, an external id typed in the keys filter is asked of apis.listKeys and its keys are shown", async ({
  page,
  server,
}) => {
  // A workspace of its own: its 150 keys would push the worker's other tests' keys past the first page.
  const workspace = await server.admin(["workspaces", "create", "--name", "e2e-search"]);
  const admin = (args: string[]) => server.admin([...args, "--workspace", workspace]);
  const rootKey = await admin(["root-key", "create", "--name", "e2e-search"]);
  const apiId = await admin(["apis", "create", "--name", "e2e-search"]);
  await admin(["keys", "seed", "--count", "150", "--api", apiId]);
  const external = `org_search${Date.now().toString(36)}`;
  await admin(["identities", "create", "--external-id", external]);
  await admin(["keys", "create", "--name", "Identity's key", "--api", apiId, "--external-id", external]);

  await page.goto(`${server.url}/connect`);
  await page.getByRole("textbox", { name: /^API ID/ }).fill(apiId);
  await enterKey(page, rootKey);
  await expect(page.locator(".keys-toolbar__count")).toHaveText(/100 keys loaded, more available/);
  const asked = page.waitForRequest(
    (request) =>
      request.url().endsWith("/v2/apis.listKeys") &&
      (request.postDataJSON() as { externalId?: string }).externalId === external,
  );
  await page.getByRole("searchbox", { name: "Filter keys" }).fill(external);
  expect((await asked).postDataJSON()).toMatchObject({ apiId, externalId: external });
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByRole("link", { name: "Identity's key" })).toBeVisible();
  await expect(page.getByText(/Found with apis\.listKeys: 1 key of the external id/)).toBeVisible();
  await expect(page.locator(".keys-toolbar__count")).toHaveText(/^1 key/);
  await expect(table.getByRole("row")).toHaveCount(2);
  await saveScreenshot(page, "keys-search-external-id");
});
