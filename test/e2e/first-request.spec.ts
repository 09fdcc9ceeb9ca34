import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";
import { COMPILE_HINT } from "../../tooling/compile-hints";

/** Every address the page asks for from now on. */
function requests(page: Page): { urls: string[]; count: (operation: string) => number } {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return { urls, count: (operation) => urls.filter((url) => url.endsWith(`/v2/${operation}`)).length };
}

/** Whether the page's first module left a hand-over of the list's first request (src/first-request/). */
function startedEarly(page: Page): Promise<boolean> {
  return page.evaluate(() => Symbol.for("keyscope.firstRequest") in globalThis);
}

/**
 * A built script's chunk name: `<name>-<hash>.js`, the hash 8 characters that may begin with "-" (main--zb5y3bG.js),
 * so the name is what comes before the last nine.
 */
const CHUNK_NAME = /\/assets\/([a-z-]+)-[\w-]{8}\.js$/;
const firstRow = (page: Page) => page.getByRole("table", { name: "API keys" }).getByRole("row").nth(1);

test("a tab holding a key lists its keys with one request, started before the app and adopted by it", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();

  const sent = requests(page);
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  await expect(page.locator(".keys-toolbar__count")).toHaveText(/^\d+ keys$/);
  expect(await startedEarly(page)).toBe(true);
  expect(sent.count("keys.listKeys")).toBe(1);
  // The key travels in a header only: no address the page asked for holds it.
  for (const url of sent.urls) expect(url).not.toContain(rootKey);
  await saveScreenshot(page, "keys-first-request-desktop");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  expect(sent.count("keys.listKeys")).toBe(2);
  await saveScreenshot(page, "keys-first-request-phone");
});

test("the list's request leaves while the app's code is still on its way: index.html runs only the small early module", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();

  const html = await (await page.request.get(server.url)).text();
  expect([...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)]).toHaveLength(1);
  // The app's code is held back until the list's request has left: were the request to wait for that code, neither
  // would ever come, and the row would not show.
  const listSent = page.waitForRequest((request) => request.url().endsWith("/v2/keys.listKeys"));
  const appCode = /\/assets\/main-[^/]+\.js$/;
  await page.route(appCode, async (route) => {
    await listSent;
    await route.continue();
  });
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  await page.unroute(appCode);
});

test("index.html starts the app's code and styles as it is parsed, from the build's chunk graph, and no page's", async ({
  page,
  server,
}) => {
  const html = await (await page.request.get(server.url)).text();
  const preloaded = (rel: string) =>
    [...html.matchAll(new RegExp(`<link rel="${rel}"[^>]*href="/assets/([^"]+)"`, "g"))].map((match) => match[1]);
  expect(preloaded("modulepreload")).toEqual(expect.arrayContaining([expect.stringMatching(/^main-.+\.js$/)]));
  expect(preloaded("preload")).toEqual(expect.arrayContaining([expect.stringMatching(/^main-.+\.css$/)]));
  // A page's code is started by index.html's module (the keys page, in a tab holding a key) or by the router.
  expect(preloaded("modulepreload")).not.toEqual(expect.arrayContaining([expect.stringMatching(/-route-/)]));
  const sent = requests(page);
  await page.goto(server.url);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  // Each once: a preload the page's own request does not match (another credentials mode) is fetched again.
  for (const file of [...preloaded("modulepreload"), ...preloaded("preload")]) {
    expect(sent.urls.filter((url) => url.endsWith(`/assets/${file}`))).toHaveLength(1);
  }
});

test("a tab holding a key draws the keys page's first rows from four scripts: the entry, the app, the keys page and the bundler's helpers", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();

  // Every other script refused: what loads later (the scrolling and sorting code, the pages preloaded when idle) is
  // not needed for the first rows, and rolldown's own splitting (twenty files) would leave the page without them.
  const firstScreen = new Set(["index", "main", "keys-route", "rolldown-runtime"]);
  await page.route(/\/assets\/[\w-]+\.js$/, (route) => {
    const chunk = route.request().url().match(CHUNK_NAME)?.[1] ?? "";
    return firstScreen.has(chunk) ? route.continue() : route.abort();
  });
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  await expect(firstRow(page)).toContainText("key_");
});

test("the first screen's scripts begin with V8's compile hint; the code that loads after the first rows does not", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .flatMap((entry) => (/\/assets\/[\w-]+\.js$/.test(entry.name) ? [entry.name] : [])),
    );
  // The scrolling code comes after the first rows.
  await expect.poll(async () => (await scripts()).some((url) => url.includes("/virtual-key-rows-"))).toBe(true);

  const firstScreen = new Set(["index", "main", "keys-route", "rolldown-runtime"]);
  const hinted = new Map<string, boolean>();
  for (const url of await scripts()) {
    const chunk = url.match(CHUNK_NAME)?.[1] ?? url;
    const text = await (await page.request.get(url)).text();
    hinted.set(chunk, text.startsWith(`${COMPILE_HINT}\n`));
  }
  expect(
    [...hinted]
      .filter(([, hint]) => hint)
      .map(([chunk]) => chunk)
      .sort(),
  ).toEqual([...firstScreen].sort());
  expect(hinted.get("virtual-key-rows")).toBe(false);
});

test("key entry needs none of the keys page's code: what the keys page shares with other pages is in the app's chunk", async ({
  page,
  server,
}) => {
  // Were a module of key entry's in the keys page's chunk, key entry could not load without it.
  await page.route(/\/assets\/keys-route-[\w-]+\.js$/, (route) => route.abort());
  await page.goto(server.url);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
});

test("a tab holding a key draws the keys page with its rows in its first render: no loading shell before them", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();

  // What the app first puts into #root, recorded from inside the page before any of its scripts run.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(globalThis, { firstRootContent: seen });
    new MutationObserver((records, observer) => {
      const root = document.getElementById("root");
      if (root === null || !records.some((record) => record.target === root || root.contains(record.target))) return;
      if (root.childElementCount === 0) return;
      seen.push(root.querySelector('[role="table"] [role="row"] a[href^="/keys/"]') === null ? "no rows" : "rows");
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  // The app waits a bounded time for the list (src/main.tsx): on a busy machine the server may answer later, and
  // the loading state is then right. So the app's own code (src/main.tsx, which the early module starts) is held
  // back until the early request has its answer, and rows in the first render become the only right outcome.
  // (Its answer, not its end: the body is read only by the app, which is what waits here.)
  const listAnswered = page.waitForResponse((response) => response.url().endsWith("/v2/keys.listKeys"));
  await page.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
    await listAnswered;
    await route.continue();
  });
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { firstRootContent: string[] }).firstRootContent)).toEqual(
    ["rows"],
  );
});

test("home leads to the keys with the request started early, and nothing is asked twice", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();

  const sent = requests(page);
  await page.goto(server.url);
  await expect(page).toHaveURL(/\/keys$/);
  await expect(firstRow(page)).toBeVisible();
  expect(await startedEarly(page)).toBe(true);
  expect(sent.count("keys.listKeys")).toBe(1);
});

test("a key refused when the page opens: the early request's answer gets the guided panel, asked once", async ({
  page,
  server,
}) => {
  // A name of its own: the server is shared by the worker's tests (and by repeats of this one).
  const name = `doomed early ${randomUUID()}`;
  const doomed = await server.admin(["root-key", "create", "--name", name]);
  await page.goto(server.url);
  await enterKey(page, doomed);
  await expect(firstRow(page)).toBeVisible();
  const listed = await server.admin(["root-key", "list"]);
  const id = listed
    .split("\n")
    .find((line) => line.includes(name))
    ?.match(/\bkey_[A-Za-z0-9]+/)?.[0];
  if (id === undefined) throw new Error(`no key named ${name} in ${listed}`);
  await server.admin(["root-key", "revoke", id]);

  const sent = requests(page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "The API does not know this root key" })).toBeVisible();
  expect(await startedEarly(page)).toBe(true);
  expect(sent.count("keys.listKeys")).toBe(1);
  await expect(page.locator(".error-panel__actions").getByRole("button").first()).toHaveText("Re-enter key");
});

test("without a key, nothing is requested early: key entry shows", async ({ page, server }) => {
  const sent = requests(page);
  await page.goto(`${server.url}/keys`);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  expect(await startedEarly(page)).toBe(false);
  expect(sent.count("keys.listKeys")).toBe(0);
});

test("a key's own page starts no list request ahead of the app", async ({ page, server, rootKey }) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();
  const link = firstRow(page).getByRole("link").first();
  const href = await link.getAttribute("href");
  if (href === null) throw new Error("the first row has no link");

  const sent = requests(page);
  await page.goto(`${server.url}${href}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await startedEarly(page)).toBe(false);
  expect(sent.count("keys.listKeys")).toBe(0);
});
