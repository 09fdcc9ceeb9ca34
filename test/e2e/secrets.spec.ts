import type { BrowserContext, Page } from "@playwright/test";
import { answer, startHostileServer } from "../support/hostile-server";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

/**
 * The root key is a secret everywhere. Through the main flows, search for it in every place a browser keeps
 * or sends things: it may be only in sessionStorage (by design, for the tab's session) and in the
 * Authorization header of requests to the configured base URL — nowhere else.
 *
 * The query cache keys are covered by the unit test "the query key holds a fingerprint of the key, never the key"
 * (test/src/features/keys/components/keys-list.test.tsx): the production build exposes no handle on the cache, on purpose.
 */

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** Every request the page makes, with all its headers, and every URL its main frame shows. */
function record(page: Page) {
  const pending: Promise<void>[] = [];
  const requests: SeenRequest[] = [];
  const urls: string[] = [];
  page.on("request", (request) => {
    pending.push(
      request.allHeaders().then((headers) => {
        requests.push({ url: request.url(), method: request.method(), headers, body: request.postData() ?? "" });
      }),
    );
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  return {
    requests: async () => {
      await Promise.all(pending);
      return requests;
    },
    urls,
  };
}

/** Everything the browser keeps for the page's origin, as text, except sessionStorage (where the key belongs). */
async function storedOutsideSession(page: Page, context: BrowserContext): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const databases = "databases" in indexedDB ? await indexedDB.databases() : [];
    const cacheNames = "caches" in window ? await caches.keys() : [];
    const cached: string[] = [];
    for (const name of cacheNames) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) cached.push(request.url);
    }
    const workers = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistrations() : [];
    return JSON.stringify({
      localStorage: { ...localStorage },
      indexedDB: databases,
      caches: cached,
      serviceWorkers: workers.length,
      cookie: document.cookie,
      href: location.href,
      title: document.title,
      historyState: history.state as unknown,
      windowName: window.name,
    });
  });
  // storageState() holds cookies, localStorage and IndexedDB of every origin; sessionStorage is not part of it.
  return inPage + JSON.stringify(await context.storageState({ indexedDB: true }));
}

async function copyEverything(page: Page, scope: ReturnType<Page["locator"]>): Promise<string[]> {
  const copied: string[] = [];
  const buttons = scope.getByRole("button", { name: /^Copy/ });
  for (let index = 0; index < (await buttons.count()); index += 1) {
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await buttons.nth(index).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).not.toBe("");
    copied.push(await page.evaluate(() => navigator.clipboard.readText()));
  }
  return copied;
}

test("the key is sent only to the base URL and kept only in sessionStorage, through listing, filtering, refreshing, reloading and forgetting", async ({
  page,
  context,
  server,
  consoleMessages,
}) => {
  const rootKey = await server.admin(["root-key", "create", "--name", "secret keeper"]);
  const seen = record(page);

  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^[\d,]+ keys$/)).toBeVisible();
  await page.getByLabel("Filter keys").fill("a");
  await page.getByLabel("Filter keys").fill("");
  await page.getByRole("button", { name: "Refresh" }).click();
  await page.reload();
  await expect(page.getByText(/^[\d,]+ keys$/)).toBeVisible();
  await page.goto(`${server.url}/no/such/page`);
  await page.goBack();
  await expect(page.getByText(/^[\d,]+ keys$/)).toBeVisible();

  // The key is where it belongs, and nowhere else the browser keeps things.
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).toContain(rootKey);
  expect(await storedOutsideSession(page, context)).not.toContain(rootKey);
  expect(await page.locator("body").innerText()).not.toContain(rootKey);
  expect(await page.evaluate(() => history.length)).toBeGreaterThan(1);
  for (const url of [...seen.urls, page.url()]) expect(url).not.toContain(rootKey);

  // Forget key takes it out of the last place.
  await page.getByRole("button", { name: "Forget key" }).click();
  await expect(page).toHaveURL(/\/connect$/);
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(rootKey);

  const requests = await seen.requests();
  const api = requests.filter((request) => request.url.startsWith(`${server.url}/v2/`));
  expect(api.length).toBeGreaterThan(2);
  for (const request of requests) {
    const isApi = request.url.startsWith(`${server.url}/v2/`);
    expect(request.url).not.toContain(rootKey);
    expect(request.body).not.toContain(rootKey);
    const { authorization, ...others } = request.headers;
    expect(JSON.stringify(others), `${request.method} ${request.url}`).not.toContain(rootKey);
    if (isApi) expect(authorization).toBe(`Bearer ${rootKey}`);
    else expect(authorization, `${request.method} ${request.url} carries no key`).toBeUndefined();
  }
  expect(consoleMessages.join("\n")).not.toContain(rootKey);
});

test("against an API on another origin, only that origin's API requests carry the key; error panels, copies and the diagnostics report never do", async ({
  page,
  context,
  server,
  consoleMessages,
}) => {
  const secret = "ks_root_SecretThatMustNotLeak9876543";
  // An API that reflects the key everywhere it can: in its error, request id, type and headers.
  const hostile = await startHostileServer({
    allowOrigin: server.url,
    respond: (request) =>
      answer(
        401,
        JSON.stringify({
          meta: { requestId: `req_${request.headers.authorization ?? ""}` },
          error: {
            status: 401,
            title: `Unauthorized ${request.headers.authorization ?? ""}`,
            detail: `The key ${secret} is not known (you sent ${request.headers.authorization ?? "nothing"})`,
            type: `https://docs.example.com/errors/svc/authentication/key_not_found?key=${secret}`,
            errors: [{ location: "security", message: secret, fix: `Do not send ${encodeURIComponent(secret)}` }],
          },
        }),
        { "x-request-id": secret, "retry-after": "1" },
      ),
  });
  try {
    const seen = record(page);
    await page.goto(`${server.url}/connect`);
    await enterKey(page, secret, hostile.url);
    const panel = page.getByRole("alert").first();
    await expect(panel.getByRole("heading", { level: 2 })).toBeVisible();
    expect(await page.locator("body").innerText()).not.toContain(secret);
    expect(await page.locator("body").innerHTML()).not.toContain(secret);
    const docs = await page
      .locator("a[href]")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    for (const href of docs) expect(href).not.toContain(secret);

    const copied = await copyEverything(page, panel);
    expect(copied.length).toBeGreaterThan(0);
    for (const text of copied) expect(text).not.toContain(secret);

    // The diagnostics of the troubleshoot page, and the report it offers to copy.
    await panel.getByRole("link", { name: "Troubleshooting guide" }).click();
    await page.getByRole("button", { name: "Run diagnostics" }).click();
    const diagnosis = page.getByRole("region", { name: "Diagnosis" });
    await expect(diagnosis).toBeVisible({ timeout: 20_000 });
    expect(await page.locator("body").innerText()).not.toContain(secret);
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await diagnosis.getByRole("button", { name: "Copy report" }).click();
    const report = await page.evaluate(() => navigator.clipboard.readText());
    expect(report).toContain("## Keyscope diagnostics");
    expect(report).not.toContain(secret);
    expect(report).not.toContain(encodeURIComponent(secret));

    expect(await storedOutsideSession(page, context)).not.toContain(secret);
    for (const url of [...seen.urls, page.url()]) expect(url).not.toContain(secret);

    const requests = await seen.requests();
    const toHostile = requests.filter((request) => request.url.startsWith(`${hostile.url}/`));
    expect(toHostile.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request.url).not.toContain(secret);
      expect(request.body).not.toContain(secret);
      const { authorization, ...others } = request.headers;
      expect(JSON.stringify(others)).not.toContain(secret);
      const isBaseUrlApi = request.url.startsWith(`${hostile.url}/v2/`);
      // Diagnostics also probe the API without the key; with it, it is exactly the header.
      if (isBaseUrlApi && authorization !== undefined) expect(authorization).toBe(`Bearer ${secret}`);
      else expect(authorization, `${request.method} ${request.url} carries no key`).toBeUndefined();
    }
    // The server saw the key only in the header, on the operation's path.
    for (const request of hostile.seen) {
      expect(request.path).not.toContain(secret);
      expect(request.body).not.toContain(secret);
    }
    expect(consoleMessages.join("\n")).not.toContain(secret);
  } finally {
    await hostile.stop();
  }
});

test("an API that redirects to another origin never gets the key sent there", async ({ page, server }) => {
  const secret = "ks_root_SecretThatMustNotFollowRedirects1";
  // After a cross-origin redirect the request's origin is "null": the target allows it, so the request does arrive.
  const elsewhere = await startHostileServer({
    allowOrigin: "null",
    respond: () => answer(200, JSON.stringify({ meta: { requestId: "req_elsewhere" }, data: { keys: [] } })),
  });
  const redirecting = await startHostileServer({
    allowOrigin: server.url,
    respond: (request) => ({
      kind: "answer",
      status: 307,
      headers: { location: `${elsewhere.url}${request.path}` },
      body: "",
    }),
  });
  try {
    const seen = record(page);
    await page.goto(`${server.url}/connect`);
    await enterKey(page, secret, redirecting.url);
    await expect(page.getByText(/^0 keys$|No keys yet/).first()).toBeVisible();
    expect(elsewhere.seen.length, "the redirected request arrived").toBeGreaterThan(0);
    for (const request of elsewhere.seen) {
      expect(request.headers.authorization, `${request.method} ${request.path} at the redirect target`).toBeUndefined();
      expect(JSON.stringify(request)).not.toContain(secret);
    }
    for (const request of await seen.requests()) {
      if (!request.url.startsWith(`${redirecting.url}/`))
        expect(request.headers.authorization, request.url).toBeUndefined();
    }
    await saveScreenshot(page, "secrets-cross-origin-redirect");
  } finally {
    await Promise.all([redirecting.stop(), elsewhere.stop()]);
  }
});
