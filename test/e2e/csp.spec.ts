import type { Page } from "@playwright/test";
import { enterKey, expect, test } from "./fixtures";

/**
 * The built dashboard runs under the CSP its server sends (server/http/security-headers.ts) without a single
 * violation: every "securitypolicyviolation" event and every CSP message in the console is collected across
 * the main screens.
 */

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

async function recordViolations(page: Page): Promise<string[]> {
  const fromConsole: string[] = [];
  page.on("console", (message) => {
    if (/content security policy/i.test(message.text())) fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations?.push(
        `${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return fromConsole;
}

async function violationsIn(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__cspViolations ?? ["the recorder did not run"]);
}

test("the dashboard's main screens run under its CSP without a violation", async ({ page, server, rootKey }) => {
  const fromConsole = await recordViolations(page);
  const response = await page.goto(`${server.url}/connect`);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  expect(await violationsIn(page)).toEqual([]);

  // An error panel (unknown key), then the keys list, then the not-found page.
  await enterKey(page, "ks_root_ThisKeyDoesNotExist1234567");
  await expect(page.getByRole("alert")).toBeVisible();
  expect(await violationsIn(page)).toEqual([]);
  await page.getByRole("button", { name: "Re-enter key" }).click();
  await enterKey(page, rootKey);
  await expect(page.getByText(/^[\d,]+ keys?$/)).toBeVisible();
  await page.getByLabel("Filter keys").fill("a");
  await page.reload();
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  expect(await violationsIn(page)).toEqual([]);
  await page.goto(`${server.url}/no/such/page`);
  await expect(page.getByRole("link", { name: /home|keys|back/i }).first()).toBeVisible();
  expect(await violationsIn(page)).toEqual([]);
  expect(fromConsole).toEqual([]);
});

test("the error docs render their own styles under their CSP without a violation", async ({ page, server }) => {
  const fromConsole = await recordViolations(page);
  for (const path of ["/docs", "/docs/errors/svc/authentication/missing", "/docs/errors/no/such/kind"]) {
    await page.goto(server.url + path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The inline stylesheet applied: the page is not in the browser's default serif font.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/system-ui/);
    expect(await violationsIn(page)).toEqual([]);
  }
  expect(fromConsole).toEqual([]);
});

// The control for the tests above: the recorders do see a violation. (Its own context, since the `page` fixture
// rightly fails on the console error the violation causes.)
test("an inline script injected into the dashboard is refused and reported", async ({ browser, server }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const fromConsole = await recordViolations(page);
  await page.goto(`${server.url}/connect`);
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true";
    document.head.append(script);
  });
  await expect.poll(() => violationsIn(page)).toEqual([expect.stringMatching(/^script-src/)]);
  expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
  expect(fromConsole).toEqual([
    expect.stringMatching(/violates the following Content Security Policy directive 'script-src 'self''/),
  ]);
  await context.close();
});
