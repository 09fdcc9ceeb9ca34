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
  // Any address of it: a try after a failure asks for the script under a fresh one (`?retry=N`).
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

test("Retry loads a page's code even in a browser that remembers a failed import of its address (as Chromium 150 does)", async ({
  page,
  server,
  rootKey,
}) => {
  // Simulated on a browser that does not remember: while the server is "down" every address of the page's code
  // fails; once it is back, the script's own address still fails, as every later import() of it does in a browser
  // that kept the failure. Only another address of the same file loads. (A stylesheet is fetched again by a
  // fresh <link> in every browser.)
  const chunk = /\/assets\/troubleshoot-route-[^/?]+\.(js|css)(\?.*)?$/;
  let down = true;
  const asked: string[] = [];
  await page.route(chunk, async (route) => {
    const url = new URL(route.request().url());
    asked.push(url.pathname + url.search);
    if (down || (url.pathname.endsWith(".js") && url.search === "")) await route.abort("connectionrefused");
    else await route.continue();
  });
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Troubleshoot" }).click();
  const panel = page.getByRole("alert");
  await expect(panel).toContainText("could not be loaded");

  down = false;
  await panel.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Troubleshoot" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Run diagnostics" })).toBeVisible();
  expect(
    asked.filter((address) => /\.js$/.test(address)).length,
    "the first try asked the script's own address",
  ).toBeGreaterThan(0);
  expect(
    asked.some((address) => /\.js\?retry=\d+$/.test(address)),
    "a later try asked another address",
  ).toBe(true);
});

test("Retry loads the keys page opened directly, whose code shares its file with the list's query", async ({
  page,
  server,
  rootKey,
}) => {
  // The bundler puts the keys page and the list's query in one file, which exports each under a short alias: a
  // try under a fresh address must take the page from it, not the file's own exports (no page: a bug report).
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
    await notice.getByRole("button", { name: "Retry" }).click();
    await expect(notice).toHaveCount(0);
    // Virtualized again: scrolled to the end, the last key's row is drawn.
    await page.locator(".keys-table__scroller").evaluate((scroller) => (scroller.scrollTop = scroller.scrollHeight));
    await expect(table.locator(`[role="row"][aria-rowindex="${total + 1}"]`)).toBeVisible();
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
  await notice.getByRole("button", { name: "Retry" }).click();
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
