import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { startServer, type StartedServer } from "../support/server-process";
import { createAnalyticsRootKey, enterKey, expect, saveScreenshot, test } from "./fixtures";

/** Counts the requests the page sends to one operation from now on. */
function countRequests(page: Page, operation: string): { count: () => number } {
  let count = 0;
  page.on("request", (request) => {
    if (request.url().endsWith(`/v2/${operation}`)) count += 1;
  });
  return { count: () => count };
}

interface ListedKey {
  keyId: string;
  name: string;
}

/** Every key of the workspace, through the API itself, in the list's order. */
async function allKeys(page: Page, baseUrl: string, rootKey: string): Promise<ListedKey[]> {
  const keys: ListedKey[] = [];
  let cursor: string | undefined;
  for (;;) {
    const response = await page.request.post(`${baseUrl}/v2/keys.listKeys`, {
      headers: { Authorization: `Bearer ${rootKey}` },
      data: cursor === undefined ? {} : { cursor },
    });
    const body = (await response.json()) as {
      data: { keys: ListedKey[] };
      pagination?: { cursor?: string; hasMore: boolean };
    };
    keys.push(...body.data.keys);
    if (!body.pagination?.hasMore) return keys;
    cursor = body.pagination.cursor;
  }
}

const count = (page: Page) => page.locator(".keys-toolbar__count");

test.describe("with a few hundred keys", () => {
  // A server of its own: the seeded keys must not reach the other files' tests, which share the worker's server.
  let seeded: StartedServer;
  let seededKey: string;
  test.beforeAll(async () => {
    seeded = await startServer();
    await seeded.admin(["keys", "seed", "--count", "320"]);
    seededKey = await seeded.admin(["root-key", "create", "--name", "e2e"]);
  });
  test.afterAll(async () => {
    await seeded.stop();
  });

  test("export holds what the table shows, says how many of how many, and can load the rest first (14.5, 14.16)", async ({
    page,
  }) => {
    await page.goto(seeded.url);
    await enterKey(page, seededKey);
    await expect(count(page)).toHaveText("100 keys loaded, more available");
    await page
      .getByRole("group", { name: "Filter by status" })
      .getByRole("button", { name: /^Disabled/ })
      .click();
    await page.getByRole("button", { name: "Export…" }).click();
    const panel = page.getByRole("region", { name: "Export" });
    // Not always 100: a filter that leaves the view short loads the next page, as scrolling to its end would.
    await expect(panel).toContainText(/Exports \d+ of [1-3]00 keys loaded, as filtered/);
    await expect(panel).toContainText("The server holds more keys that are not loaded yet");
    await saveScreenshot(page, "keys-export-partial");

    const pages = countRequests(page, "keys.listKeys");
    await panel.getByRole("button", { name: "Load the rest first" }).click();
    await expect(page.getByText(/^All [\d,]+ keys loaded\.$/)).toBeVisible();
    expect(pages.count()).toBeGreaterThanOrEqual(1);
    await expect(panel).not.toContainText("not loaded yet");
    // The count says "N of M" once the filter has run over every loaded key: read it only then.
    await expect(count(page)).toHaveText(/^[\d,]+ of [\d,]+/);
    const shown = Number((await count(page).textContent())?.match(/^([\d,]+) of/)?.[1]?.replace(/,/g, ""));
    expect(shown).toBeGreaterThan(0);

    const download = page.waitForEvent("download");
    await panel.getByRole("button", { name: "Export CSV" }).click();
    const csv = await readFile(await (await download).path(), "utf8");
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const lines = csv.slice(1).trimEnd().split("\r\n");
    // The table's visible columns, in its order; usage bars are not exported.
    expect(lines[0]).toMatch(/^name,keyId,status,lastUsedAt,/);
    expect(lines[0]).not.toContain("usage");
    expect(lines).toHaveLength(shown + 1);
    for (const line of lines.slice(1)) expect(line).toContain("Disabled");
    expect(csv).not.toContain(seededKey);
  });

  test("Refresh reloads as many pages as were loaded, one after another with its progress (14.6, #28.6)", async ({
    page,
  }) => {
    await page.goto(seeded.url);
    await enterKey(page, seededKey);
    await expect(count(page)).toHaveText("100 keys loaded, more available");
    await page.getByRole("button", { name: "Load more", exact: true }).click();
    await expect(count(page)).toHaveText("200 keys loaded, more available");
    await page.getByRole("button", { name: "Load more", exact: true }).click();
    await expect(count(page)).toHaveText("300 keys loaded, more available");

    const pages = countRequests(page, "keys.listKeys");
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByText("300 keys refreshed.")).toBeVisible();
    await expect(count(page)).toHaveText("300 keys loaded, more available");
    expect(pages.count()).toBe(3);
    await page.getByRole("button", { name: "Load more", exact: true }).click();
    await expect(count(page)).toHaveText(/^3\d\d keys$/);
  });

  test("Refresh with every key loaded and sorted by usage keeps them all and the sort (#28.6)", async ({ page }) => {
    const analyticsKey = await createAnalyticsRootKey(seeded, "e2e-usage");
    const pages = countRequests(page, "keys.listKeys");
    await page.goto(seeded.url);
    await enterKey(page, analyticsKey);
    await expect(count(page)).toHaveText("100 keys loaded, more available");
    await page.getByRole("group", { name: "Filter by status" }).getByRole("button", { name: "Load all keys" }).click();
    await expect(page.getByText(/^All [\d,]+ keys loaded\.$/)).toBeVisible();
    const total = (await count(page).textContent()) ?? "";
    expect(total).toMatch(/^3\d\d keys$/);
    const loadedWith = pages.count();

    await page.getByRole("button", { name: "Usage, 36 h" }).click();
    await expect(
      page.getByText(`Sorted by the 36-hour usage of the ${total.replace("keys", "loaded keys")}.`),
    ).toBeVisible();
    const table = page.getByRole("table", { name: "API keys" });
    const topKey = table.getByRole("row").nth(1).getByRole("link").first();
    const top = (await topKey.textContent()) ?? "";
    expect(top).not.toBe("");

    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByText(`${total} refreshed.`)).toBeVisible();
    await expect(count(page)).toHaveText(total);
    expect(pages.count()).toBe(2 * loadedWith);
    await expect(page.getByRole("columnheader", { name: "Usage, 36 h" })).toHaveAttribute("aria-sort", "descending");
    await expect(topKey).toHaveText(top);
    await saveScreenshot(page, "keys-refreshed-all-sorted-by-usage");
  });

  test("offline is said at once, the list is marked not current, and it refreshes when the connection is back (14.7)", async ({
    page,
    context,
  }) => {
    await page.goto(seeded.url);
    await enterKey(page, seededKey);
    await expect(count(page)).toHaveText("100 keys loaded, more available");
    await context.setOffline(true);
    await expect(page.getByText("You are offline.")).toBeVisible({ timeout: 2_000 });
    await expect(count(page)).toContainText("not current");
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByText("Keyscope will refresh them as soon as the connection is back.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Load more (offline)" })).toBeVisible();
    await saveScreenshot(page, "keys-offline");

    const pages = countRequests(page, "keys.listKeys");
    await context.setOffline(false);
    await expect(page.getByText("You are offline.")).toHaveCount(0);
    await expect.poll(() => pages.count()).toBe(1);
    await expect(count(page)).toHaveText("100 keys loaded, more available");
  });

  test("a filter that finds nothing keeps loading until it does; an exact key id is asked for directly (14.8)", async ({
    page,
  }) => {
    const last = (await allKeys(page, seeded.url, seededKey)).at(-1);
    if (last === undefined) throw new Error("no keys");
    await page.goto(seeded.url);
    await enterKey(page, seededKey);
    await expect(count(page)).toHaveText("100 keys loaded, more available");

    const lookups = countRequests(page, "keys.getKey");
    const pages = countRequests(page, "keys.listKeys");
    await page.getByLabel("Filter keys").fill(last.keyId);
    const table = page.getByRole("table", { name: "API keys" });
    await expect(table.getByText(last.keyId)).toBeVisible();
    await expect(page.getByText("Found with keys.getKey")).toBeVisible();
    // Not "1 of 100 loaded keys shown": the key found is not one of them.
    await expect(count(page)).toHaveText("1 key, found by its id");
    expect(lookups.count()).toBe(1);
    expect(pages.count()).toBe(0);
    await saveScreenshot(page, "keys-found-by-id");

    // Part of the last key's id: matched by no key of the first page, and not an exact id to look up.
    // The found row stays on screen until the new filter renders (it is deferred): the notice goes with it first.
    await page.getByLabel("Filter keys").fill(last.keyId.slice(4));
    await expect(page.getByText("Found with keys.getKey")).toHaveCount(0);
    await expect(table.getByText(last.keyId)).toBeVisible();
    await expect.poll(() => pages.count()).toBeGreaterThanOrEqual(2);
  });

  test("a rate limit paces loading with a countdown, Refresh waits for it, and it is not called a failed refresh (14.6, 14.11)", async ({
    page,
  }) => {
    const limited = await seeded.admin(["root-key", "create", "--name", "paced", "--ratelimit", "3/60s"]);
    await page.goto(seeded.url);
    await enterKey(page, limited);
    await expect(count(page)).toHaveText("100 keys loaded, more available");
    const progress = page.locator(".keys-progress");
    await expect(async () => {
      const more = page.getByRole("button", { name: "Load more", exact: true });
      if (await more.isVisible()) await more.click();
      await expect(progress).toContainText("rate limit is reached", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(progress).toContainText(/loading goes on in \d+ s/);
    const refresh = page.getByRole("button", { name: /^Refresh in \d+ s$/ });
    await expect(refresh).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByText("Refresh failed")).toHaveCount(0);
    await saveScreenshot(page, "keys-rate-limited-loading");
    await progress.getByRole("button", { name: "Stop" }).click();
    await expect(progress).toContainText(/Stopped at [\d,]+ keys; more keys are not loaded\./);
    await expect(progress.getByRole("button", { name: "Continue" })).toBeVisible();
  });
});

test("a root key without read_analytics lists its keys, with one notice naming the permission instead of usage (12.5)", async ({
  page,
  server,
  rootKey,
}) => {
  const analytics = countRequests(page, "analytics.getVerifications");
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const notice = page.getByRole("note", { name: "Usage not shown" });
  await expect(notice).toContainText("api.*.read_analytics");
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Usage, 36 h" })).toHaveCount(0);
  expect(analytics.count()).toBe(1);
  await saveScreenshot(page, "keys-no-analytics");
});

test("a key revoked while its list is on screen: the list goes, Re-enter key comes first, no Retry (14.13)", async ({
  page,
  server,
}) => {
  // A name of its own: the server is shared by the worker's tests (and by repeats of this one), and the list holds them all.
  const name = `doomed ${randomUUID()}`;
  const doomed = await server.admin(["root-key", "create", "--name", name]);
  await page.goto(server.url);
  await enterKey(page, doomed);
  await expect(page.getByRole("table", { name: "API keys" })).toBeVisible();
  const listed = await server.admin(["root-key", "list"]);
  const id = listed
    .split("\n")
    .find((line) => line.includes(name))
    ?.match(/\bkey_[A-Za-z0-9]+/)?.[0];
  if (id === undefined) throw new Error(`no key named ${name} in ${listed}`);
  await server.admin(["root-key", "revoke", id]);

  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByRole("heading", { name: "The API does not know this root key" })).toBeVisible();
  await expect(page.getByRole("table", { name: "API keys" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Export…" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  const actions = page.locator(".error-panel__actions").getByRole("button");
  await expect(actions.first()).toHaveText("Re-enter key");
  await saveScreenshot(page, "keys-revoked");
});
