import { randomUUID } from "node:crypto";
import { enterKey, expect, HOUR_MS, loadAllKeys, saveScreenshot, test, withinOnePeriod } from "./fixtures";

test("the keys table sorts by a column, remembers the chosen columns, and links each name to its page", async ({
  page,
  server,
  rootKey,
}) => {
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

test("a key's name opens its page inside the app, without loading the document again", async ({
  page,
  server,
  rootKey,
}) => {
  await server.admin(["keys", "create", "--name", "opened by its name"]);
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const table = page.getByRole("table", { name: "API keys" });
  await page.getByLabel("Filter keys").fill("opened by its name");
  await expect(table.getByRole("row")).toHaveCount(2);
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await table.getByRole("link", { name: "opened by its name" }).click();
  await expect(page).toHaveURL(/\/keys\/key_[A-Za-z0-9]+$/);
  await expect(page.getByRole("heading", { name: "opened by its name" })).toBeVisible();
  expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
});

test("the demo root key sees last use, credits, identities, badges and a 36-hour usage bar per row", async ({
  page,
  server,
}) => {
  const demoKey = server.rootKey;
  if (demoKey === undefined) throw new Error("the server printed no demo root key");
  await page.goto(server.url);
  await enterKey(page, demoKey);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  await loadAllKeys(page);
  for (const header of ["Last used", "Usage, 36 h", "Credits", "External ID", "Status"]) {
    await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  }
  await expect(table.getByText(/^36 h: [\d,]+ valid, [\d,]+ refused$/).first()).toBeAttached();
  // Last use in words, the exact time beside it for screen readers.
  await expect(
    table
      .getByRole("cell")
      .filter({ hasText: / ago \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/ })
      .first(),
  ).toBeAttached();
  // A key refused often enough to say so: the demo's disabled "Legacy v1 client" is refused at every verification.
  // Found by name: other tests add keys to this worker's server, so a given key need not be among the rows in view.
  const filter = page.getByLabel("Filter keys");
  await filter.fill("Legacy v1 client");
  await expect(table.getByRole("row").filter({ hasText: "Legacy v1 client" })).toContainText("Many refusals");
  await filter.fill("");
  const statuses = page.getByRole("group", { name: "Filter by status" });
  await expect(statuses).toContainText(/Counted among all \d+ keys\./);
  await saveScreenshot(page, "keys-table-usage");

  // Filtering by a status keeps only the keys that have it, each with its badge (the demo data has expired keys).
  await statuses.getByRole("button", { name: /^Expired \d+$/ }).click();
  await expect(statuses.getByRole("button", { name: /^Expired \d+$/ })).toHaveAttribute("aria-pressed", "true");
  const rows = table.getByRole("row").filter({ has: page.getByRole("cell") });
  await expect(rows.first()).toBeVisible();
  const shown = await rows.count();
  expect(shown).toBeGreaterThan(0);
  for (let index = 0; index < shown; index += 1) await expect(rows.nth(index)).toContainText("Expired");
});

/** "36 h: 1,204 valid, 31 refused" → 1235. */
function usageTotal(text: string): number {
  const match = /^36 h: ([\d,]+) valid, ([\d,]+) refused$/.exec(text.trim());
  if (!match) return 0;
  return Number(match[1]?.replaceAll(",", "")) + Number(match[2]?.replaceAll(",", ""));
}

test("sorting by usage puts the busiest of all the loaded keys first and says what the order is based on", async ({
  page,
  server,
}, testInfo) => {
  // The page's sums and the ones asked below are over `now() - INTERVAL 36 HOUR`, whose oldest hour drops out on the hour.
  await withinOnePeriod(testInfo, HOUR_MS);
  const demoKey = server.rootKey ?? "";
  // Small enough that most of the demo keys are out of view, where no usage bar is asked for.
  await page.setViewportSize({ width: 1400, height: 600 });
  await page.goto(server.url);
  await enterKey(page, demoKey);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByText(/^36 h: /).first()).toBeAttached();
  // All loaded, so that the busiest key of the workspace is among them.
  await loadAllKeys(page);

  // The busiest key of the workspace over the same window, asked of the API directly.
  const answer = await page.request.post(`${server.url}/v2/analytics.getVerifications`, {
    headers: { authorization: `Bearer ${demoKey}` },
    data: {
      query:
        "SELECT key_id, SUM(count) AS total FROM key_verifications_per_hour_v1 WHERE time >= now() - INTERVAL 36 HOUR GROUP BY key_id ORDER BY total DESC LIMIT 1",
    },
  });
  const busiest = ((await answer.json()) as { data: { key_id: string; total: number | string }[] }).data[0];
  if (busiest === undefined) throw new Error("the demo data has no verification in the last 36 hours");

  await table.getByRole("button", { name: "Usage, 36 h" }).click();
  await expect(table.getByRole("columnheader", { name: "Usage, 36 h" })).toHaveAttribute("aria-sort", "descending");
  // Other tests add keys to this server: every loaded one counts.
  await expect(page.getByText(/^Sorted by the 36-hour usage of the [\d,]+ loaded keys\./)).toBeVisible();
  const first = table.getByRole("row").nth(1);
  await expect(first).toContainText(busiest.key_id.slice(0, 8));
  expect(usageTotal((await first.getByText(/^36 h: /).textContent()) ?? "")).toBe(Number(busiest.total));

  // Every row in view, top to bottom, is used no more than the one above it.
  // The rows' usage bars come a moment after the sort: wait until more than three are drawn.
  const usageTexts = table.locator(".keys-table__body").getByText(/^36 h: /);
  await expect.poll(async () => (await usageTexts.allTextContents()).length).toBeGreaterThan(3);
  const totals = (await usageTexts.allTextContents()).map(usageTotal);
  expect(totals).toEqual([...totals].sort((a, b) => b - a));
  await saveScreenshot(page, "keys-table-sorted-by-usage");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test("a Sort by control and its direction sort the cards, with no sideways scroll", async ({
    page,
    server,
    rootKey,
  }) => {
    // A word of this test's own: other files' keys share the worker's server ("On a phone" matched "phone").
    const tag = `sortcard${randomUUID().slice(0, 8)}`;
    await server.admin(["keys", "create", "--name", `aaa ${tag} first`]);
    await server.admin(["keys", "create", "--name", `zzz ${tag} last`]);
    await page.goto(server.url);
    await enterKey(page, rootKey);
    const table = page.getByRole("table", { name: "API keys" });
    await expect(table.getByRole("row").nth(1)).toBeVisible();
    await page.getByLabel("Filter keys").fill(tag);
    await expect(table.getByRole("row")).toHaveCount(3);

    await page.getByLabel("Sort by").selectOption({ label: "Name" });
    await expect(page.getByLabel("Sort direction")).toHaveValue("asc");
    await expect(table.getByRole("row").nth(1)).toContainText(`aaa ${tag} first`);
    await page.getByLabel("Sort direction").selectOption({ label: "Z to A" });
    await expect(table.getByRole("row").nth(1)).toContainText(`zzz ${tag} last`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await saveScreenshot(page, "keys-table-phone-sorted");
  });
});
