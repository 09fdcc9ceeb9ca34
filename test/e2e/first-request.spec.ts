import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

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

const firstRow = (page: Page) => page.getByRole("table", { name: "API keys" }).getByRole("row").nth(1);

test("a tab holding a key lists its keys with one request, started before the app and adopted by it", async ({ page, server, rootKey }) => {
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

test("index.html fetches the early module and what draws the keys page, and leaves the app's code to the early module", async ({ page, server }) => {
  const html = await (await page.request.get(server.url)).text();
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/first-request-[^/]+\.js$/)]);
  const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]);
  expect(preloaded).toContainEqual(expect.stringMatching(/^\/assets\/first-paint-[^/]+\.js$/));
  // In few files, each fetched before the list's answer at a cost beyond its bytes: the drawing's own module, the
  // one it shares with the keys page, the one it shares with the app's entry; and one stylesheet.
  expect(preloaded.length).toBeLessThanOrEqual(3);
  expect([...html.matchAll(/<link rel="preload" as="style"/g)]).toHaveLength(1);
  // The app's entry: named by the early module, neither run nor preloaded by the page itself.
  const early = await (await page.request.get(`${server.url}${scripts[0]}`)).text();
  const appEntry = /"entry":"(\/assets\/index-[^"]+\.js)"/.exec(early)?.[1];
  expect(appEntry).toBeDefined();
  expect(html).not.toContain(appEntry);
  // The keys page's own code, grouped for the drawing, is none of the app's files: the app starts without it.
  const appModules = JSON.parse(/"entry":"[^"]+","modules":(\[[^\]]*\])/.exec(early)?.[1] ?? "null") as string[];
  expect(appModules.length).toBeGreaterThan(0);
  expect(preloaded).toContainEqual(expect.stringMatching(/^\/assets\/keys-page-[^/]+\.js$/));
  expect(appModules.filter((file) => file.includes("/keys-page-"))).toEqual([]);
});

test("a tab holding a key draws the keys page with its rows in its first render: no loading shell before them", async ({ page, server, rootKey }) => {
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
  // the loading state is then right. So the app's own code is held back until the early request has its answer,
  // and rows in the first render become the only right outcome.
  // (index.html's only script is the early module, which names the app's entry and starts it.)
  const earlyScript = /<script type="module"[^>]* src="([^"]+)"/.exec(await (await page.request.get(server.url)).text())?.[1];
  if (earlyScript === undefined) throw new Error("index.html names no script");
  const appScript = /"(\/assets\/index-[^"]+\.js)"/.exec(await (await page.request.get(`${server.url}${earlyScript}`)).text())?.[1];
  if (appScript === undefined) throw new Error("the early module names no app script");
  // (Its answer, not its end: the body is read only by the app, which is what waits here.)
  const listAnswered = page.waitForResponse((response) => response.url().endsWith("/v2/keys.listKeys"));
  await page.route(`${server.url}${appScript}`, async (route) => {
    await listAnswered;
    await route.continue();
  });
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { firstRootContent: string[] }).firstRootContent)).toEqual(["rows"]);
});

test("home leads to the keys with the request started early, and nothing is asked twice", async ({ page, server, rootKey }) => {
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

test("a key refused when the page opens: the early request's answer gets the guided panel, asked once", async ({ page, server }) => {
  // A name of its own: the server is shared by the worker's tests (and by repeats of this one).
  const name = `doomed early ${randomUUID()}`;
  const doomed = await server.admin(["root-key", "create", "--name", name]);
  await page.goto(server.url);
  await enterKey(page, doomed);
  await expect(firstRow(page)).toBeVisible();
  const listed = await server.admin(["root-key", "list"]);
  const id = listed.split("\n").find((line) => line.includes(name))?.match(/\bkey_[A-Za-z0-9]+/)?.[0];
  if (id === undefined) throw new Error(`no key named ${name} in ${listed}`);
  await server.admin(["root-key", "revoke", id]);

  const sent = requests(page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "The API does not know this key" })).toBeVisible();
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

/** How many pixels of two same-sized PNG screenshots differ, counted in a blank page of the same browser. */
async function differingPixels(page: Page, a: Buffer, b: Buffer): Promise<{ differing: number; total: number }> {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async ({ first, second }) => {
        const pixels = async (png: string) => {
          const image = new Image();
          image.src = `data:image/png;base64,${png}`;
          await image.decode();
          const canvas = document.createElement("canvas");
          canvas.width = image.width;
          canvas.height = image.height;
          const context = canvas.getContext("2d");
          if (context === null) throw new Error("no 2d canvas");
          context.drawImage(image, 0, 0);
          return context.getImageData(0, 0, image.width, image.height).data;
        };
        const [one, two] = [await pixels(first), await pixels(second)];
        let differing = 0;
        for (let index = 0; index < one.length; index += 4) {
          if (one[index] !== two[index] || one[index + 1] !== two[index + 1] || one[index + 2] !== two[index + 2]) differing += 1;
        }
        return { differing, total: one.length / 4 };
      },
      { first: a.toString("base64"), second: b.toString("base64") },
    );
  } finally {
    await blank.close();
  }
}

const drawnEarly = (page: Page) => page.locator("#root > .app[inert]");
const rowTexts = (page: Page) => page.getByRole("table", { name: "API keys" }).getByRole("row").allInnerTexts();

test("a wide tab holding a key draws its keys from the early answer before the app's code runs, and the app then draws the same page over it", async ({
  page,
  server,
  rootKey,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();

  // The keys page's own code is held back, so what shows is the drawing (src/app/first-paint.ts) alone; usage is
  // never answered, so both pictures have its placeholders.
  let releasePageCode = () => {};
  const pageCodeHeld = new Promise<void>((resolve) => (releasePageCode = resolve));
  await page.route(/\/assets\/keys-route-[^/]+\.js$/, async (route) => {
    await pageCodeHeld;
    await route.continue();
  });
  await page.route(/\/v2\/analytics\.getVerifications$/, () => new Promise<void>(() => {}));
  // One instant for both: "8 minutes ago" drawn early and "9 minutes ago" a minute boundary later are both right.
  await page.clock.setFixedTime(new Date());
  await page.reload();

  await expect(drawnEarly(page).getByRole("link", { name: /.+/ }).first()).toBeAttached();
  const drawnRows = await drawnEarly(page).locator('[role="row"]').allInnerTexts();
  expect(drawnRows.length).toBeGreaterThan(5);
  // Not yet the app: nothing in it can be focused or clicked, and it says what it lists.
  await expect(drawnEarly(page).locator(".keys-toolbar__count")).toHaveText(/^\d+ keys$/);
  const drawn = await page.screenshot();
  await saveScreenshot(page, "keys-first-paint-desktop");

  releasePageCode();
  await expect(page.locator("#root > .app:not([inert])")).toBeVisible();
  await expect(drawnEarly(page)).toHaveCount(0);
  await expect(firstRow(page)).toBeVisible();
  const rendered = await page.screenshot();
  const appRows = (await rowTexts(page)).slice(0, drawnRows.length);
  expect(appRows).toEqual(drawnRows);
  // The same picture: only anti-aliasing of a little text may differ (a moved or missing element changes far more).
  const { differing, total } = await differingPixels(page, drawn, rendered);
  expect(differing / total).toBeLessThan(0.002);
});

test("a phone-width tab is not drawn early: the app draws its cards itself", async ({ page, server, rootKey }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();
  await page.addInitScript(() => {
    Object.assign(globalThis, { drawnEarly: false });
    new MutationObserver(() => {
      if (document.querySelector("#root > .app[inert]") !== null) Object.assign(globalThis, { drawnEarly: true });
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { drawnEarly: boolean }).drawnEarly)).toBe(false);
});

test("when the drawing's code cannot be loaded, the app starts anyway and lists the keys itself", async ({ page, server, rootKey }) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(firstRow(page)).toBeVisible();
  await page.route(/\/assets\/first-paint-[^/]+\.js$/, (route) => route.abort("connectionfailed"));
  await page.reload();
  await expect(firstRow(page)).toBeVisible();
  await expect(page.locator("#root > .app:not([inert])")).toBeVisible();
  await expect(drawnEarly(page)).toHaveCount(0);
});
