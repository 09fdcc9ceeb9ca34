import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { enterKey, expect, HOUR_MS, saveScreenshot, test } from "./fixtures";

/**
 * The Logs page in Chromium against the reference server: each test makes its own keys and verifications (tagged
 * with a token of its own) and reads the log narrowed to them, so the worker's other tests' traffic never counts.
 */

/** The demo root key: it may read keys and analytics and verify keys. */
function demoKey(server: StartedServer): string {
  if (server.rootKey === undefined) throw new Error("the server printed no demo root key");
  return server.rootKey;
}

function token(): string {
  return `e2e${Math.random().toString(36).slice(2, 10)}`;
}

/** Verifies a key as a caller would, with tags; resolves its code and request id. */
async function verify(
  server: StartedServer,
  secret: string,
  tags: string[] = [],
): Promise<{ code: string; requestId: string }> {
  const response = await fetch(`${server.url}/v2/keys.verifyKey`, {
    method: "POST",
    headers: { Authorization: `Bearer ${demoKey(server)}`, "Content-Type": "application/json" },
    body: JSON.stringify({ key: secret, tags }),
  });
  const body = (await response.json()) as { meta: { requestId: string }; data: { code: string } };
  return { code: body.data.code, requestId: body.meta.requestId };
}

/** Runs an analytics query as the dashboard's user could, directly: what the page's numbers must equal. */
async function analytics<T>(server: StartedServer, query: string): Promise<T[]> {
  const response = await fetch(`${server.url}/v2/analytics.getVerifications`, {
    method: "POST",
    headers: { Authorization: `Bearer ${demoKey(server)}`, "Content-Type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { data: T[] };
  return body.data;
}

interface Made {
  tag: string;
  external: string;
  /** A key with two credits and an identity: VALID, VALID, then USAGE_EXCEEDED. */
  limited: { keyId: string; name: string; secret: string };
  /** Another key, verified once. */
  other: { keyId: string; name: string; secret: string };
  requestIds: string[];
}

async function makeTraffic(server: StartedServer): Promise<Made> {
  const tag = token();
  const external = `org_${tag}`;
  await server.admin(["identities", "create", "--external-id", external]);
  const [limitedId = "", limitedSecret = ""] = (
    await server.admin(["keys", "create", "--name", `Limited ${tag}`, "--credits", "2", "--external-id", external])
  ).split(" ");
  const [otherId = "", otherSecret = ""] = (await server.admin(["keys", "create", "--name", `Other ${tag}`])).split(
    " ",
  );
  const requestIds: string[] = [];
  for (const expected of ["VALID", "VALID", "USAGE_EXCEEDED"]) {
    const answer = await verify(server, limitedSecret, [`path=/e2e/${tag}`, "plan=pro"]);
    expect(answer.code).toBe(expected);
    requestIds.push(answer.requestId);
  }
  const other = await verify(server, otherSecret, [`path=/e2e/${tag}/other`]);
  expect(other.code).toBe("VALID");
  requestIds.push(other.requestId);
  return {
    tag,
    external,
    limited: { keyId: limitedId, name: `Limited ${tag}`, secret: limitedSecret },
    other: { keyId: otherId, name: `Other ${tag}`, secret: otherSecret },
    requestIds,
  };
}

async function openLogs(page: Page, server: StartedServer, search = ""): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, demoKey(server));
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/logs${search}`);
}

const logTable = (page: Page) => page.getByRole("table", { name: "Verifications, newest first" });

/** The request ids of the rows the table shows (the column is on at this width). */
/** The request ids of the rows drawn now (the count in the heading may come before them: poll). */
async function shownRequestIds(page: Page): Promise<string[]> {
  const cells = logTable(page).locator(".log-table__body .log-table__cell--requestId");
  return (await cells.allTextContents()).map((text) => text.trim());
}

test("filter by outcome, key, external id, tag and time: only those rows; a reload and a shared link reopen the same view", async ({
  page,
  server,
  browser,
}) => {
  const made = await makeTraffic(server);
  const [valid1 = "", valid2 = "", exceeded = "", other = ""] = made.requestIds;
  await openLogs(page, server, `?key=${made.limited.keyId}`);
  await expect(page.getByRole("heading", { name: "Verifications (3)" })).toBeVisible();
  await expect.poll(async () => (await shownRequestIds(page)).sort()).toEqual([valid1, valid2, exceeded].sort());
  await expect(logTable(page).getByText(made.limited.name).first()).toBeVisible();

  // Outcome.
  await page.getByText("All outcomes").click();
  await page.getByRole("checkbox", { name: "USAGE_EXCEEDED" }).check();
  await expect(page).toHaveURL(new RegExp(`\\?outcome=USAGE_EXCEEDED&key=${made.limited.keyId}$`));
  await expect(page.getByRole("heading", { name: "Verifications (1)" })).toBeVisible();
  await expect.poll(() => shownRequestIds(page)).toEqual([exceeded]);
  await page.keyboard.press("Escape");

  // Tag contains, external id, and the key by its name, typed.
  await page.goto(`${server.url}/logs`);
  await page.getByLabel("Tag", { exact: true }).fill(`/e2e/${made.tag}`);
  await page.getByLabel("How the tag matches").selectOption("contains");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("heading", { name: "Verifications (4)" })).toBeVisible();
  await expect.poll(async () => (await shownRequestIds(page)).sort()).toEqual([...made.requestIds].sort());
  await page.getByLabel("External id", { exact: true }).fill(made.external);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("heading", { name: "Verifications (3)" })).toBeVisible();
  await page.getByLabel("Key (name or id)", { exact: true }).fill(made.other.name);
  await page.getByLabel("External id", { exact: true }).fill("");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("heading", { name: "Verifications (1)" })).toBeVisible();
  await expect.poll(() => shownRequestIds(page)).toEqual([other]);
  await expect(page).toHaveURL(new RegExp(`key=${made.other.keyId}`));

  // Time: the last 15 minutes hold them; a custom range yesterday holds none, and says so.
  await page.getByLabel("Time range", { exact: true }).selectOption("15m");
  await expect(page).toHaveURL(/range=15m/);
  await expect(page.getByRole("heading", { name: "Verifications (1)" })).toBeVisible();
  const view = page.url();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Verifications (1)" })).toBeVisible();
  await expect.poll(() => shownRequestIds(page)).toEqual([other]);
  await page.getByLabel("Time range", { exact: true }).selectOption("custom");
  const yesterday = new Date(Date.now() - 24 * HOUR_MS);
  const local = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  await page.getByLabel("From", { exact: true }).fill(local(new Date(yesterday.getTime() - HOUR_MS)));
  await page.getByLabel("To", { exact: true }).fill(local(yesterday));
  await page.getByRole("button", { name: "Apply range" }).click();
  await expect(page).toHaveURL(/from=.*&to=/);
  await expect(page.getByText(/match these filters in/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Widen to the last 30 days" })).toBeVisible();
  await saveScreenshot(page, "logs-empty-widen");
  await page.goBack();
  await expect(page).toHaveURL(view);
  await expect(page.getByRole("heading", { name: "Verifications (1)" })).toBeVisible();

  // A shared link, in a tab with no key yet: key entry, then the same view.
  const context = await browser.newContext();
  const shared = await context.newPage();
  await shared.goto(view);
  await enterKey(shared, demoKey(server));
  await expect(shared).toHaveURL(view);
  await expect(shared.getByRole("heading", { name: "Verifications (1)" })).toBeVisible();
  await expect.poll(() => shownRequestIds(shared)).toEqual([other]);
  await context.close();
});

test("a verification made while Live is on appears within 10 seconds, without moving a selected row", async ({
  page,
  server,
}) => {
  const made = await makeTraffic(server);
  // Wide enough for the request ids beside the open row's details.
  await page.setViewportSize({ width: 1800, height: 1000 });
  await openLogs(page, server, `?key=${made.limited.keyId}&key=${made.other.keyId}`);
  await expect(page.getByRole("heading", { name: "Verifications (4)" })).toBeVisible();
  // A row is open: Live must not lose it.
  const firstRow = logTable(page)
    .getByRole("button", { name: /: details$/ })
    .first();
  await firstRow.click();
  const details = page.getByRole("complementary", { name: "Verification details" });
  const openId = (await shownRequestIds(page))[0] ?? "";
  await expect(details.getByText(openId).first()).toBeVisible();

  await page.getByRole("button", { name: "Live", pressed: false }).click();
  await expect(page.getByText(/Live asks every 9 s/)).toBeVisible();
  const made2 = await verify(server, made.other.secret, [`path=/e2e/${made.tag}/live`]);
  const appeared = Date.now();
  await expect(logTable(page).getByText(made2.requestId)).toBeVisible({ timeout: 10_000 });
  expect(Date.now() - appeared).toBeLessThan(10_000);
  await expect(page.getByRole("heading", { name: "Verifications (5)" })).toBeVisible();
  await expect(details.getByText(openId).first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`row=${openId}`));
  await expect(page.getByText(/of at most 400 queries this hour/)).toBeVisible();
  await saveScreenshot(page, "logs-live");
  await page.getByRole("button", { name: "Live", pressed: true }).click();
  await expect(page.getByText(/Live is off/)).toBeVisible();
});

test("Live puts a new verification above the rows being read without moving them, and says it came", async ({
  page,
  server,
}) => {
  const made = await makeTraffic(server);
  // The demo traffic of 30 days: rows enough to scroll.
  await openLogs(page, server, "?range=30d");
  const scroller = page.locator(".log-table__scroller");
  await expect(
    logTable(page)
      .getByRole("button", { name: /: details$/ })
      .first(),
  ).toBeVisible();
  await page.getByRole("button", { name: "Live", pressed: false }).click();
  await expect(page.getByText(/Live asks every 9 s/)).toBeVisible();
  // What turning Live on adds to the page above is drawn; from here on, only rows arrive.
  await scroller.evaluate((element) => element.scrollBy(0, 600));
  // The first row wholly below the sticky header: the one being read.
  const read = await scroller.evaluate((element) => {
    const top = element.getBoundingClientRect().top + 40;
    const rows = [...element.querySelectorAll<HTMLElement>(".log-table__body [data-item-key]")];
    const row = rows
      .filter((candidate) => candidate.getBoundingClientRect().top >= top)
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
    return { key: row?.dataset.itemKey ?? "", top: row?.getBoundingClientRect().top ?? 0 };
  });
  expect(read.key).not.toBe("");
  await verify(server, made.other.secret);
  await expect(page.getByRole("button", { name: "↑ 1 newer verification" })).toBeVisible({ timeout: 10_000 });
  const after = await page
    .locator(`.log-table__body [data-item-key="${read.key}"]`)
    .evaluate((element) => element.getBoundingClientRect().top);
  expect(after).toBe(read.top);
  await page.getByRole("button", { name: "↑ 1 newer verification" }).click();
  await expect(scroller).toHaveJSProperty("scrollTop", 0);
});

test("the chart's totals and the overview's counts equal direct analytics queries over the same range", async ({
  page,
  server,
}) => {
  const made = await makeTraffic(server);
  // A range of three days whose start is not a whole hour: the hour table answers its middle, single rows its edges.
  const to = Date.now();
  const from = Math.floor((to - 3 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS + 17 * 60_000;
  await openLogs(page, server, `?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
  const range = `time >= ${from} AND time <= ${to}`;
  const [total] = await analytics<{ n: number }>(
    server,
    `SELECT count(*) AS n FROM key_verifications_v1 WHERE ${range}`,
  );
  const byOutcome = await analytics<{ outcome: string; n: number }>(
    server,
    `SELECT outcome, count(*) AS n FROM key_verifications_v1 WHERE ${range} GROUP BY outcome`,
  );
  const refused = byOutcome.filter((row) => row.outcome !== "VALID").reduce((sum, row) => sum + row.n, 0);
  const number = (n: number) => n.toLocaleString("en");
  await expect(page.getByTestId("log-total")).toHaveText(
    new RegExp(`^${number(total?.n ?? -1)} verifications, ${number(refused)} refused`),
  );
  await expect(page.getByRole("heading", { name: `Verifications (${number(total?.n ?? -1)})` })).toBeVisible();
  for (const { outcome, n } of byOutcome)
    await expect(page.locator(`.log-overview__count[data-outcome="${outcome}"]`)).toHaveText(number(n));
  // The chart's own numbers (its table) add up to the same.
  await page.getByText("The numbers as a table").click();
  const totals = await page.locator(".log-chart__table tbody tr td:last-child").allTextContents();
  expect(totals.reduce((sum, text) => sum + Number(text.replaceAll(",", "")), 0)).toBe(total?.n);
  // The keys refused most, as counted directly.
  const topKeys = await analytics<{ key_id: string; n: number }>(
    server,
    `SELECT key_id, count(*) AS n FROM key_verifications_v1 WHERE ${range} AND outcome != 'VALID' GROUP BY key_id ORDER BY n DESC, key_id LIMIT 10`,
  );
  const listed = page.getByRole("region", { name: "Keys refused most" }).locator(".log-overview__count");
  await expect(listed).toHaveText(topKeys.map((row) => number(row.n)));
  // Narrowed to one key, the total is that key's.
  await page.goto(`${server.url}/logs?key=${made.limited.keyId}`);
  await expect(page.getByTestId("log-total")).toHaveText(/^3 verifications, 1 refused/);
  await expect(page.locator('.log-overview__count[data-outcome="USAGE_EXCEEDED"]')).toHaveText("1");
});

test("a row's details show its request id and the key's verdict; export saves the filtered log", async ({
  page,
  server,
}) => {
  const made = await makeTraffic(server);
  const exceeded = made.requestIds[2] ?? "";
  await openLogs(page, server, `?key=${made.limited.keyId}&outcome=USAGE_EXCEEDED`);
  await logTable(page)
    .getByRole("button", { name: /USAGE_EXCEEDED: details$/ })
    .click();
  const details = page.getByRole("complementary", { name: "Verification details" });
  await expect(details.getByText(exceeded).first()).toBeVisible();
  await expect(details.getByTestId("key-verdict")).toHaveText(/Refused because it is out of credits/);
  await expect(details.getByRole("link", { name: "Open the key's page" })).toHaveAttribute(
    "href",
    `/keys/${made.limited.keyId}`,
  );
  await expect(details.getByRole("link", { name: "Look up this request id" })).toHaveAttribute(
    "href",
    `/troubleshoot?request=${exceeded}#request-id`,
  );
  await saveScreenshot(page, "logs-details");

  await page.goto(`${server.url}/logs?key=${made.limited.keyId}`);
  await page.getByText("Export…").click();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const csv = await readFile((await (await download).path()) ?? "", "utf8");
  expect(csv.startsWith("\uFEFF")).toBe(true);
  const lines = csv.slice(1).trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "time,request_id,outcome,key_id,key_name,external_id,tags,region,spent_credits,key_space_id,source,app_id",
  );
  expect(
    lines
      .slice(1)
      .map((line) => line.split(",")[1])
      .sort(),
  ).toEqual(made.requestIds.slice(0, 3).sort());
  await expect(page.getByText("Saved 3 verifications as CSV.")).toBeVisible();
});

test("keyboard only: a row's details open and close from the keyboard, and the chart narrows the range", async ({
  page,
  server,
}) => {
  const made = await makeTraffic(server);
  await openLogs(page, server, `?key=${made.limited.keyId}&key=${made.other.keyId}`);
  await expect(page.getByRole("heading", { name: "Verifications (4)" })).toBeVisible();
  const rows = logTable(page).getByRole("button", { name: /: details$/ });
  await rows.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  const details = page.getByRole("complementary", { name: "Verification details" });
  await expect(details.getByRole("heading", { name: "Verification details" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(details).toBeHidden();
  await expect(rows.nth(1)).toBeFocused();

  const chart = page.getByRole("application", { name: "Verifications over time, by outcome" });
  await chart.focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(page.locator(".log-chart__readout")).toHaveText(/Enter narrows the range to them\.$/);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/from=.*&to=/);
  await expect(page.getByLabel("Time range", { exact: true })).toHaveValue("custom");
});

test("375 px wide: rows are cards, the page never scrolls sideways, and a row's details open over it", async ({
  page,
  server,
}) => {
  const made = await makeTraffic(server);
  await page.setViewportSize({ width: 375, height: 812 });
  await openLogs(page, server, `?key=${made.limited.keyId}`);
  await expect(page.getByRole("heading", { name: "Verifications (3)" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saveScreenshot(page, "logs-phone");
  await logTable(page)
    .getByRole("button", { name: /: details$/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Verification details" });
  await expect(dialog).toBeVisible();
  await saveScreenshot(page, "logs-phone-details");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});
