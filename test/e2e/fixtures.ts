import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { READ_ANALYTICS_PERMISSION, READ_KEYS_PERMISSION } from "../../src/lib/contract";
import { startServer, type StartedServer } from "../support/server-process";

/**
 * Chromium reports every non-2xx answer, every answer its network stack gave up on (a cut connection,
 * net::ERR_…), and every answer CORS hid from the page, as a console error; those are what a server did, not page bugs.
 */
// The browser's own reports of a request it refused (CORS, or the page's connect-src for plain http elsewhere).
const EXPECTED_CONSOLE_ERROR =
  /^(Failed to load resource: (the server responded with a status of \d{3}|net::ERR_[A-Z_]+)|Access to fetch at '[^']*' (\(redirected from '[^']*'\) )?from origin '[^']*' has been blocked by CORS policy|Connecting to '[^']*' violates the following Content Security Policy directive: "connect-src |Fetch API cannot load \S+ Refused to connect because it violates the document's Content Security Policy)/;

interface WorkerFixtures {
  /** A reference server of this worker's own, on a fresh data directory. */
  server: StartedServer;
}

interface TestFixtures {
  /** A root key made for this test with the admin CLI (no rate limit). */
  rootKey: string;
  /** What the page printed to its console, for tests that look for the key there. */
  consoleMessages: string[];
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  rootKey: async ({ server }, use) => {
    await use(await server.admin(["root-key", "create", "--name", "e2e"]));
  },
  consoleMessages: async ({ page }, use) => {
    const messages: string[] = [];
    page.on("console", (message) => messages.push(message.text()));
    await use(messages);
  },
  // Every test fails on an uncaught error or an unexpected console error in the page.
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" && !EXPECTED_CONSOLE_ERROR.test(message.text()))
        problems.push(`console.error: ${message.text()}`);
    });
    await use(page);
    expect(problems, "errors in the page").toEqual([]);
  },
});

export { expect };

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * For a test that reads a clock-bound value on two sides (today's date in a file name and in the test, the next
 * midnight, a `now() - INTERVAL 36 HOUR` window's sums asked twice): when less of the current UTC hour or day
 * (`periodMs`) is left than the test's whole time budget, waits for the next one (extending the budget by as much), so
 * that the test starts and ends in one period whatever the time it runs at. Returns the start of that period (ms).
 */
export async function withinOnePeriod(testInfo: TestInfo, periodMs: typeof HOUR_MS | typeof DAY_MS): Promise<number> {
  const left = periodMs - (Date.now() % periodMs);
  if (left < testInfo.timeout) {
    testInfo.setTimeout(testInfo.timeout + left);
    await new Promise((resolve) => setTimeout(resolve, left + 50));
  }
  const now = Date.now();
  return now - (now % periodMs);
}

/** Fill in the key-entry form as a person would and submit it with Enter. */
export async function enterKey(page: Page, key: string, baseUrl?: string): Promise<void> {
  if (baseUrl !== undefined) await page.getByLabel("Base URL").fill(baseUrl);
  await page.getByLabel("API key", { exact: true }).fill(key);
  await page.getByLabel("API key", { exact: true }).press("Enter");
}

/**
 * Loads every key of the list once its first page is on screen: other tests of the worker add keys to its server,
 * which can push the demo keys past the first page (and change what the counts and the usage sort say).
 */
export async function loadAllKeys(page: Page): Promise<void> {
  await expect(page.locator(".keys-toolbar__count")).toHaveText(/^[\d,]+ keys/);
  const loadAll = page.getByRole("button", { name: "Load all keys" });
  if (!(await loadAll.isVisible())) return;
  await loadAll.click();
  await expect(page.getByText(/^All [\d,]+ keys loaded\.$/)).toBeVisible();
}

/** A full-page screenshot under test-results/screenshots, for a person to look at. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/** A root key, made with the admin CLI, that may list keys and read analytics (the usage bars, a key's page). */
export function createAnalyticsRootKey(server: StartedServer, name: string): Promise<string> {
  return server.admin([
    "root-key",
    "create",
    "--name",
    name,
    "--permissions",
    `${READ_KEYS_PERMISSION},${READ_ANALYTICS_PERMISSION}`,
  ]);
}

/** Verifies a key as a caller would (asking for `permissions`, a permission query, if given); resolves the answer's code. */
export async function verifyCode(
  server: StartedServer,
  rootKey: string,
  secret: string,
  permissions?: string,
): Promise<string> {
  const response = await fetch(`${server.url}/v2/keys.verifyKey`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ key: secret, ...(permissions !== undefined && { permissions }) }),
  });
  const body = (await response.json()) as { data: { code: string } };
  return body.data.code;
}
