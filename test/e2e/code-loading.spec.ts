import type { Page } from "@playwright/test";
import { startServer } from "../support/server-process";
import { held } from "../support/held";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

/** Once the first screen is idle, the code needed while the server is away has loaded (the app sets this mark). */
const CODE_READY_MARK = "keyscope:code-ready";

test("with the server stopped, Troubleshoot still opens, and after it restarts diagnostics pass", async ({ page }) => {
  // A server of this test's own, to stop and start again on the same port and data directory.
  let server = await startServer();
  try {
    const rootKey = await server.admin(["root-key", "create", "--name", "e2e"]);
    const port = new URL(server.url).port;
    await page.goto(server.url);
    await enterKey(page, rootKey);
    await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CODE_READY_MARK);

    await server.stop();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Troubleshoot" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Troubleshoot" })).toBeVisible();
    await expect(page.getByRole("banner")).toBeVisible();
    await page.getByRole("button", { name: "Run diagnostics" }).click();
    const diagnosis = page.getByRole("region", { name: "Diagnosis" });
    await expect(diagnosis).toBeVisible({ timeout: 20_000 });
    await expect(diagnosis).not.toContainText("All good");
    await saveScreenshot(page, "code-loading-troubleshoot-server-down");

    server = await startServer({ dataDir: server.dataDir, args: ["--port", port] });
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    await page.getByRole("button", { name: /Run diagnostics|Run again/ }).click();
    await expect(diagnosis).toContainText(/All good/, { timeout: 20_000 });
    await expect(page.getByText(/Unable to preload CSS/)).toHaveCount(0);
    await saveScreenshot(page, "code-loading-troubleshoot-server-back");
  } finally {
    await server.stop();
  }
});

test("a page whose code failed to load keeps the header, and Retry loads it", async ({ page, server, rootKey }) => {
  // The troubleshoot page's code (script and stylesheet) does not arrive, as when the server is away.
  const chunk = /\/assets\/troubleshoot-route-[^/?]+\.(js|css)(\?.*)?$/;
  let blocked = 0;
  await page.route(chunk, async (route) => {
    blocked += 1;
    await route.abort("connectionrefused");
  });
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Troubleshoot" }).click();
  const panel = page.getByRole("alert");
  await expect(panel).toContainText("could not be loaded");
  // The server's or the network's doing, said so: not a bug in Keyscope to report.
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText("This part of Keyscope could not be loaded");
  await expect(panel).not.toContainText("A bug in Keyscope");
  expect(blocked).toBeGreaterThan(0);
  // Not a takeover: the header, its navigation and the main landmark stay.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Keys" })).toBeVisible();
  await expect(page.getByRole("main")).toBeVisible();
  await saveScreenshot(page, "code-loading-failed-chunk");

  await page.unroute(chunk);
  await panel.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Troubleshoot" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Run diagnostics" })).toBeVisible();
  // Styled too: the page's stylesheet that failed is loaded now.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.styleSheets].some((sheet) => sheet.href?.includes("/assets/troubleshoot-route-") === true),
      ),
    )
    .toBe(true);
  await saveScreenshot(page, "code-loading-retried");
});

/**
 * The troubleshoot page's code (script and stylesheet) never answers, as from a server that accepted the
 * connection and hangs, until the returned function is called.
 */
async function hangTroubleshootCode(page: Page): Promise<() => void> {
  const hanging = held();
  await page.route(/\/assets\/troubleshoot-route-[^/?]+\.(js|css)(\?.*)?$/, async (route) => {
    await hanging.released;
    await route.abort("connectionreset").catch(() => undefined);
  });
  return hanging.release;
}

test("a page opened directly whose code never arrives shows the header and a loading line, not the loading screen for ever, and the user can go elsewhere", async ({
  page,
  server,
}) => {
  const release = await hangTroubleshootCode(page);
  try {
    await page.goto(`${server.url}/troubleshoot`);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Keys" })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("main").getByRole("status")).toHaveText("Loading…");
    await saveScreenshot(page, "code-loading-page-code-hangs");
    // Not stuck: another page opens (key entry, as no key is stored).
    await nav.getByRole("link", { name: "Keys" }).click();
    await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  } finally {
    release();
  }
});

test("a page reached from another whose code never arrives says it is loading, rather than leaving the previous page under its address", async ({
  page,
  server,
  rootKey,
}) => {
  const release = await hangTroubleshootCode(page);
  try {
    await page.goto(server.url);
    await enterKey(page, rootKey);
    await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Troubleshoot" }).click();
    await expect(page.getByText(/^\d+ keys$/)).toHaveCount(0, { timeout: 10_000 });
    await expect(page.getByRole("main").getByRole("status")).toHaveText("Loading…");
    await expect(page).toHaveURL(/\/troubleshoot$/);
  } finally {
    release();
  }
});

/**
 * The dashboard's server goes away and comes back, for its code: while it is down every file under /assets/ fails;
 * once it is back, a module script that failed in this document fails again until the page is loaded afresh, as in
 * a browser that remembers a failed import for the page's life (Chromium 150 does so itself; a browser that follows
 * today's HTML standard fetches it again). `fetch()` is not the module loader: it always asks the server.
 */
async function codeServerAway(page: Page): Promise<{ back: () => void }> {
  let down = true;
  const failedHere = new Set<string>();
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) failedHere.clear();
  });
  await page.route(/\/assets\//, async (route) => {
    const request = route.request();
    const isModule = request.resourceType() === "script";
    if (down || (isModule && failedHere.has(request.url()))) {
      if (isModule) failedHere.add(request.url());
      await route.abort("connectionrefused");
    } else await route.continue();
  });
  return { back: () => (down = false) };
}

test("Retry loads a page's code and each file it imports that failed with it, also in a browser that remembers failed imports (as Chromium 150 does)", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const firstKey = page.getByRole("table", { name: "API keys" }).getByRole("row").nth(1).getByRole("link").first();
  const name = (await firstKey.textContent()) ?? "";
  expect(name).not.toBe("");
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CODE_READY_MARK);

  // A key's page is not preloaded: its chunk and the files it imports that no page loaded yet fail.
  const away = await codeServerAway(page);
  await firstKey.click();
  const panel = page.getByRole("alert");
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText("This part of Keyscope could not be loaded");

  away.back();
  await panel.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  // The key and connection stayed: no key entry on the way.
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await expect(page.getByText("Keyscope ran into a problem of its own")).toHaveCount(0);
});

test("Retry while the code's server is still away keeps the panel and the header, rather than a reload into the browser's error page", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CODE_READY_MARK);
  await codeServerAway(page);
  const firstKey = page.getByRole("table", { name: "API keys" }).getByRole("row").nth(1).getByRole("link").first();
  await firstKey.click();
  const panel = page.getByRole("alert");
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText("This part of Keyscope could not be loaded");
  // Marks this document: a reload would drop it.
  await page.evaluate(() => document.documentElement.setAttribute("data-before-retry", ""));

  // Retry asks the server for the file that failed again (the browser may only remember the failure); no answer.
  const asked = page.waitForEvent(
    "requestfailed",
    (request) => request.resourceType() === "fetch" && new URL(request.url()).pathname.startsWith("/assets/"),
  );
  await panel.getByRole("button", { name: "Retry" }).click();
  await asked;
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText("This part of Keyscope could not be loaded");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Keys" })).toBeVisible();
  await expect(page.locator("html[data-before-retry]")).toHaveCount(1);
});

test("Retry loads the keys page opened directly, whose code shares its file with the list's query", async ({
  page,
  server,
  rootKey,
}) => {
  // The bundler puts the keys page and the list's query in one file, which the first screen's script imports too
  // (the list's query, beside its first request): Retry must bring the page, not a bug report, in every browser.
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  const chunk = /\/assets\/keys-route-[^/?]+\.(js|css)(\?.*)?$/;
  await page.route(chunk, (route) => route.abort("connectionrefused"));
  await page.reload();
  const panel = page.getByRole("alert");
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText("This part of Keyscope could not be loaded");

  await page.unroute(chunk);
  await panel.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  await expect(page.getByText("Keyscope ran into a problem of its own")).toHaveCount(0);
});

/**
 * Settles when the script at `chunk` arrives: by Retry's import, or, in a browser that remembers the failed import
 * (Chromium 150), by the page Retry reloaded. Asked before Retry, so that what follows acts on the page that has it.
 */
function codeArrives(page: Page, chunk: RegExp): Promise<unknown> {
  return page.waitForResponse(
    (response) => chunk.test(response.url()) && response.request().resourceType() === "script" && response.ok(),
  );
}

test.describe("the keys table's scrolling code", () => {
  test.use({ viewport: { width: 1280, height: 400 } });

  test("when it does not arrive, the first rows stay usable with a line that says so, and Retry loads it", async ({
    page,
    server,
    rootKey,
  }) => {
    const chunk = /\/assets\/virtual-key-rows-[^/?]+\.js(\?.*)?$/;
    await page.route(chunk, (route) => route.abort("connectionrefused"));
    await page.goto(server.url);
    await enterKey(page, rootKey);
    const table = page.getByRole("table", { name: "API keys" });
    const notice = page.getByRole("alert").filter({ hasText: "the table's scrolling code could not be loaded" });
    await expect(notice).toContainText(/^Only the first \d+ keys can be shown/);
    const drawn = Number(/first (\d+) keys/.exec((await notice.textContent()) ?? "")?.[1]);
    const total = Number(await table.getAttribute("aria-rowcount")) - 1;
    expect(drawn).toBeLessThan(total);
    // The rows drawn are the table's own: a name links to its key's page.
    await expect(table.getByRole("row")).toHaveCount(drawn + 1);
    await expect(table.getByRole("row").nth(1).getByRole("link")).toHaveAttribute("href", /^\/keys\/key_/);
    await saveScreenshot(page, "keys-table-scrolling-code-failed");

    await page.unroute(chunk);
    const arrived = codeArrives(page, chunk);
    await notice.getByRole("button", { name: "Retry" }).click();
    await arrived;
    await expect(notice).toHaveCount(0);
    // Virtualized again: scrolled to the end, the last key's row is drawn (scrolled again if it came after the scroll).
    const lastRow = table.locator(`[role="row"][aria-rowindex="${total + 1}"]`);
    await expect(async () => {
      await page.locator(".keys-table__scroller").evaluate((scroller) => (scroller.scrollTop = scroller.scrollHeight));
      await expect(lastRow).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
  });
});

test("when the keys table's sorting code does not arrive, the rows stay in the loaded order with a line that says so, and Retry loads it", async ({
  page,
  server,
  rootKey,
}) => {
  const chunk = /\/assets\/key-sorting-[^/?]+\.js(\?.*)?$/;
  await page.route(chunk, (route) => route.abort("connectionrefused"));
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const table = page.getByRole("table", { name: "API keys" });
  const notice = page.getByRole("alert").filter({ hasText: "The keys cannot be sorted" });
  await expect(notice).toContainText("the table's sorting code could not be loaded from the server");
  await expect(table.getByRole("row").nth(1).getByRole("link")).toHaveAttribute("href", /^\/keys\/key_/);
  await saveScreenshot(page, "keys-table-sorting-code-failed");

  await page.unroute(chunk);
  const arrived = codeArrives(page, chunk);
  await notice.getByRole("button", { name: "Retry" }).click();
  await arrived;
  await expect(notice).toHaveCount(0);
  const nameHeader = table.getByRole("columnheader", { name: "Name" });
  await nameHeader.getByRole("button").click();
  await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
});

test("header clicks while the sorting code is on its way say it is sorting, and the last one wins once it arrives", async ({
  page,
  server,
  rootKey,
}) => {
  const chunk = /\/assets\/key-sorting-[^/?]+\.js(\?.*)?$/;
  const { released, release } = held();
  await page.route(chunk, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(server.url);
  await enterKey(page, rootKey);
  const table = page.getByRole("table", { name: "API keys" });
  const nameHeader = table.getByRole("columnheader", { name: "Name" });
  for (let click = 0; click < 3; click += 1) await nameHeader.getByRole("button").click();
  await expect(nameHeader).toHaveAttribute("aria-busy", "true");
  await expect(nameHeader).toContainText("Sorting…");
  await saveScreenshot(page, "keys-table-sorting-awaited");

  release();
  await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(nameHeader).not.toHaveAttribute("aria-busy");
});

test("when the app's own code does not arrive on the first load, the page says so with Reload, never blank", async ({
  page,
  server,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // The app's chunk (and the runtime the first chunk's import of it needs) refused, as by a server going away.
  await page.route(/\/assets\/(main|rolldown-runtime)-[\w-]+\.js$/, (route) => route.abort("connectionrefused"));
  await page.goto(`${server.url}/connect`);
  const alert = page.getByRole("alert");
  await expect(alert.getByRole("heading", { name: "Keyscope could not be loaded" })).toBeVisible();
  await saveScreenshot(page, "code-loading-app-code-failed");
  expect(errors).toEqual([]);

  await page.unroute(/\/assets\/(main|rolldown-runtime)-[\w-]+\.js$/);
  await alert.getByRole("button", { name: "Reload" }).click();
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
});
