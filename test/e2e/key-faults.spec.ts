import type { Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { DAY_MS, enterKey, expect, saveScreenshot, test, withinOnePeriod } from "./fixtures";

/** Faults found off the tested path (issue 28), each on keys made for the test and verified as a caller would. */

const ROOT_KEY = [
  "root-key",
  "create",
  "--name",
  "e2e-faults",
  "--permissions",
  "api.*.read_key,api.*.read_analytics,api.*.verify_key",
];

/** A key made with the admin CLI: its id and its secret. */
async function createKey(server: StartedServer, options: string[]): Promise<{ keyId: string; secret: string }> {
  const [keyId = "", secret = ""] = (await server.admin(["keys", "create", ...options])).split(" ");
  return { keyId, secret };
}

interface Verification {
  code: string;
  ratelimits?: { name: string; reset: number }[];
  requestId: string;
}

/** Verifies the key as a caller would; resolves the answer's code, rate limits and request id. */
async function verify(server: StartedServer, rootKey: string, secret: string): Promise<Verification> {
  const response = await fetch(`${server.url}/v2/keys.verifyKey`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ key: secret }),
  });
  const body = (await response.json()) as { data: Omit<Verification, "requestId">; meta: { requestId: string } };
  return { ...body.data, requestId: body.meta.requestId };
}

/** "2026-11-20 10:00:00 UTC", as the dashboard writes an instant. */
const utc = (time: number) =>
  new Date(time)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");

/** Key entry, then the key's page in the same tab. */
async function openKeyPage(
  page: Page,
  server: StartedServer,
  rootKey: string,
  keyId: string,
  name: string,
): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  await page.goto(`${server.url}/keys/${keyId}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test("a key both disabled and expired is said to be refused as disabled, which is what the server recorded", async ({
  page,
  server,
}) => {
  const rootKey = await server.admin(ROOT_KEY);
  const { keyId, secret } = await createKey(server, [
    "--name",
    "Both disabled and expired",
    "--disabled",
    "--expires=-1d",
  ]);
  for (const _ of [1, 2]) expect(await verify(server, rootKey, secret)).toMatchObject({ code: "DISABLED" });
  await openKeyPage(page, server, rootKey, keyId, "Both disabled and expired");
  await expect(page.getByTestId("key-verdict")).toHaveText(
    /^Refused because it is disabled and it expired yesterday \(\w{3} \d+\): 2 of 2 verifications in the last 24 h were DISABLED\.$/,
  );
});

test("a key out of credits whose verifications were rate limited is told both", async ({ page, server }) => {
  const rootKey = await server.admin(ROOT_KEY);
  const { keyId, secret } = await createKey(server, [
    "--name",
    "One credit an hour",
    "--credits",
    "1",
    "--ratelimit",
    "1/1h",
  ]);
  const codes = [];
  for (const _ of [1, 2, 3]) codes.push((await verify(server, rootKey, secret)).code);
  expect(codes).toEqual(["VALID", "RATE_LIMITED", "RATE_LIMITED"]);
  await openKeyPage(page, server, rootKey, keyId, "One credit an hour");
  await expect(page.getByTestId("key-verdict")).toHaveText(
    "Refused because it is out of credits and none are refilled; yet none of the last 24 h's verifications was USAGE_EXCEEDED: 2 of 3 were RATE_LIMITED, because callers went over its rate limit “requests” (1 per 1 hour).",
  );
  await saveScreenshot(page, "key-page-verdict-both");
});

test("a rate-limit refusal shows the reset the server returned, then says it passed", async ({ page, server }) => {
  const rootKey = await server.admin(ROOT_KEY);
  const { keyId, secret } = await createKey(server, ["--name", "Once an hour", "--ratelimit", "1/1h"]);
  await verify(server, rootKey, secret);
  const refused = await verify(server, rootKey, secret);
  expect(refused.code).toBe("RATE_LIMITED");
  const reset = refused.ratelimits?.[0]?.reset ?? 0;
  expect(reset % 3_600_000, "a 1 h window ends at a full hour").toBe(0);

  await openKeyPage(page, server, rootKey, keyId, "Once an hour");
  const refusals = page.getByRole("region", { name: "Refused verifications" });
  await expect(refusals.getByText(/^The limit resets at/)).toHaveText(
    new RegExp(`^The limit resets at ${utc(reset)} \\(in `),
  );

  await page.goto(`${server.url}/troubleshoot?request=${refused.requestId}`);
  const found = page.getByRole("article", { name: "The verification" });
  await expect(found.getByText(/^The limit resets at/)).toHaveText(
    new RegExp(`^The limit resets at ${utc(reset)} \\(in `),
  );

  // An hour on, the same refusal: its reset is past, and said to be.
  await page.clock.setFixedTime(reset + 60_000);
  await page.reload();
  await expect(found.getByText(/^The limit reset at/)).toHaveText(`The limit reset at ${utc(reset)}, passed.`);
  await saveScreenshot(page, "request-lookup-reset-passed");
});

test("every time reads one way, in UTC, and says so: the list, the key page, its chart, the lookup and the next refill", async ({
  page,
  server,
}, testInfo) => {
  // The key is refused for credits only until the day's refill, and the page says when that is: all on one day.
  const today = await withinOnePeriod(testInfo, DAY_MS);
  const rootKey = await server.admin(ROOT_KEY);
  const { keyId, secret } = await createKey(server, [
    "--name",
    "Clock reader",
    "--credits",
    "0",
    "--refill",
    "daily:5",
  ]);
  const refused = await verify(server, rootKey, secret);
  expect(refused.code).toBe("USAGE_EXCEEDED");
  const exact = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/;
  const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

  await page.goto(server.url);
  await enterKey(page, rootKey);
  await page.getByPlaceholder("Filter by name, key id or prefix").fill("Clock reader");
  const row = page.getByRole("row").filter({ hasText: "Clock reader" });
  await expect(row.locator("time").first()).toHaveAttribute("title", exact);
  await expect(row).toContainText(exact);

  await page.goto(`${server.url}/keys/${keyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Clock reader" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Fields" })).toContainText(exact);
  await expect(page.getByRole("region", { name: "Usage by outcome" }).getByText("Hours and days in UTC")).toBeVisible();
  const midnight = new Date(today + DAY_MS).toISOString().slice(0, 10);
  await expect(page.getByText(/^Next refill/)).toHaveText(
    new RegExp(`^Next refill [\\w ]+ \\(${midnight} 00:00:00 UTC\\)\\.$`),
  );
  expect(await page.locator("main").innerText()).not.toMatch(iso);

  await page.goto(`${server.url}/troubleshoot?request=${refused.requestId}`);
  const found = page.getByRole("article", { name: "The verification" });
  await expect(found).toContainText(exact);
  expect(await found.innerText()).not.toMatch(iso);
});

test("a malformed key id in the address is said not to be one, shown safely in the key page's frame", async ({
  page,
  server,
}) => {
  const rootKey = await server.admin(ROOT_KEY);
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
  let asked = 0;
  await page.route("**/v2/keys.getKey", async (route) => {
    asked += 1;
    await route.continue();
  });
  for (const [address, shown] of [
    ["%E2%80%AEkey", "⟨U+202E⟩key"],
    ["%20key_3ZbK9mQ", " key_3ZbK9mQ"],
    ["%", "%"],
    ["k".repeat(5000), `${"k".repeat(80)}…`],
  ] as const) {
    await page.goto(`${server.url}/keys/${address}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not a key id");
    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Keys" })).toBeVisible();
    await expect(breadcrumb.locator("[aria-current=page]")).toHaveText(shown);
    await expect(page.getByRole("alert")).toContainText("which is not a key id");
    expect(await page.title()).not.toContain("\u202E");
  }
  expect(await page.title()).toContain("Key kkkk");
  expect(asked, "nothing was asked of the API").toBe(0);
  await page.goto(`${server.url}/keys/%E2%80%AEkey`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not a key id");
  await saveScreenshot(page, "key-page-not-a-key-id");
});
