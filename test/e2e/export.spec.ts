import { readFile } from "node:fs/promises";
import { createAnalyticsRootKey, DAY_MS, enterKey, expect, test, withinOnePeriod } from "./fixtures";

test("the Keys toolbar exports the loaded keys as CSV and JSON files named with the date", async ({
  page,
  server,
  rootKey,
}, testInfo) => {
  const today = new Date(await withinOnePeriod(testInfo, DAY_MS)).toISOString().slice(0, 10);
  await server.admin(["keys", "create", "--name", '=HYPERLINK("http://evil.example")']);
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  const count = Number((await page.getByText(/^\d+ keys$/).textContent())?.split(" ")[0]);

  await page.getByRole("button", { name: "Export…" }).click();
  const csvDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe(`keyscope-keys-${today}.csv`);
  const csvText = await readFile(await csv.path(), "utf8");
  expect(csvText.startsWith("\uFEFF")).toBe(true);
  const lines = csvText.slice(1).trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^name,keyId,/);
  expect(lines).toHaveLength(count + 1);
  expect(csvText).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
  expect(csvText).not.toContain(rootKey);

  const jsonDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export JSON" }).click();
  const json = await jsonDownload;
  expect(json.suggestedFilename()).toBe(`keyscope-keys-${today}.json`);
  const parsed = JSON.parse(await readFile(await json.path(), "utf8")) as { count: number; keys: { name: string }[] };
  expect(parsed.count).toBe(count);
  expect(parsed.keys.map((key) => key.name)).toContain('=HYPERLINK("http://evil.example")');
});

test("the CSV status column holds the statuses the table shows, usage's included (#28.13)", async ({
  page,
  server,
}) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-export");
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const table = page.getByRole("table", { name: "API keys" });
  const csvStatus = async (): Promise<string> => {
    await page.getByRole("button", { name: "Export…" }).click();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const [header, row] = (await readFile(await (await download).path(), "utf8")).slice(1).trimEnd().split("\r\n");
    await page.getByRole("button", { name: "Export…" }).click();
    if (header === undefined || row === undefined) throw new Error("the CSV has no key row");
    const status = row.split(",")[header.split(",").indexOf("status")];
    if (status === undefined) throw new Error(`the CSV has no status column: ${header}`);
    return status;
  };

  // A demo key refused often: "Many refusals" comes from its usage, once that is in.
  await page.getByRole("searchbox", { name: "Filter keys" }).fill("Nightly data export");
  const statusCell = table.getByRole("row").nth(1).getByRole("cell").nth(2);
  await expect(statusCell).toHaveText("ExpiredMany refusals");
  expect(await csvStatus()).toBe("Expired; Many refusals");

  // A key with nothing wrong is "Active" in both.
  await page.getByRole("searchbox", { name: "Filter keys" }).fill("Preview deployments");
  await expect(statusCell).toHaveText("Active");
  expect(await csvStatus()).toBe("Active");
});
