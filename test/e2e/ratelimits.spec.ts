import type { Page } from "@playwright/test";
import { ratelimitPermission, READ_APIS_PERMISSION, READ_KEYS_PERMISSION } from "../../src/lib/contract";
import type { StartedServer } from "../support/server-process";
import { seriousViolationsInBothThemes } from "./axe";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

/**
 * The Rate limits section in Chromium against the reference server: each test makes a namespace of its own (its first
 * ratelimit.limit, by a root key that may create namespaces) and calls ratelimit.limit itself to see what an override
 * set or deleted from the page does to the next answer.
 */

const EVERY_NAMESPACE_ACTION = [
  "limit",
  "create_namespace",
  "read_override",
  "set_override",
  "delete_override",
] as const;

function uniqueNamespace(): string {
  return `e2e.${Math.random().toString(36).slice(2, 10)}`;
}

/** A root key that may do everything the pages do (and list keys, where key entry lands). */
function managerKey(server: StartedServer, name = "ratelimits-e2e"): Promise<string> {
  const permissions = [
    READ_KEYS_PERMISSION,
    READ_APIS_PERMISSION,
    ...EVERY_NAMESPACE_ACTION.map((action) => ratelimitPermission(action)),
    ratelimitPermission("read_analytics"),
  ];
  return server.admin(["root-key", "create", "--name", name, "--permissions", permissions.join(",")]);
}

interface LimitAnswer {
  success: boolean;
  limit: number;
  remaining: number;
  overrideId?: string;
}

/** `ratelimit.limit` as a caller's code asks it: 5 a minute unless an override says otherwise. */
async function limit(
  server: StartedServer,
  rootKey: string,
  namespace: string,
  identifier: string,
): Promise<LimitAnswer> {
  const response = await fetch(`${server.url}/v2/ratelimit.limit`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ namespace, identifier, limit: 5, duration: 60_000 }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: LimitAnswer }).data;
}

/** A namespace's id, as the admin CLI lists it (what the service's dashboard shows in a namespace's address). */
async function namespaceIdOf(server: StartedServer, namespace: string): Promise<string> {
  const line = (await server.admin(["namespaces", "list"])).split("\n").find((text) => text.includes(namespace));
  const id = line?.match(/rlns_[A-Za-z0-9]+/)?.[0];
  if (id === undefined) throw new Error(`the admin CLI lists no ${namespace}`);
  return id;
}

async function connect(page: Page, server: StartedServer, rootKey: string): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
}

/** A namespace of the test's own (made by its first ratelimit.limit), and a root key for it entered in the page. */
async function enteredWithNamespace(
  page: Page,
  server: StartedServer,
): Promise<{ rootKey: string; namespace: string }> {
  const rootKey = await managerKey(server);
  const namespace = uniqueNamespace();
  await limit(server, rootKey, namespace, "user_1");
  await connect(page, server, rootKey);
  return { rootKey, namespace };
}

/** Types the namespace into the section's form, and opens its page from the list. */
async function addAndOpen(page: Page, namespace: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rate limits" }).click();
  await page.getByLabel("Namespace name or id").fill(namespace);
  await page.getByRole("button", { name: "Add namespace" }).click();
  await page.getByRole("link", { name: namespace, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: namespace })).toBeVisible();
}

test("an override set from a namespace's page changes the next ratelimit.limit answer, and deleting it restores the default", async ({
  page,
  server,
}) => {
  const rootKey = await managerKey(server);
  const namespace = uniqueNamespace();
  expect(await limit(server, rootKey, namespace, "team_acme")).toMatchObject({ success: true, limit: 5 });

  await connect(page, server, rootKey);
  await addAndOpen(page, namespace);
  await expect(page.getByText("No overrides: every identifier gets the limit its requests ask for.")).toBeVisible();

  await page.getByRole("button", { name: "Set an override" }).click();
  const dialog = page.getByRole("dialog", { name: "Set an override" });
  await dialog.getByLabel("Identifier").fill("team_*");
  await dialog.getByLabel("Requests per window").fill("0");
  await expect(dialog.getByText("The override: Blocked")).toBeVisible();
  await saveScreenshot(page, "ratelimits-set-override");
  await dialog.getByRole("button", { name: "Set override" }).click();
  await expect(page.getByText("The override for team_* is set: Blocked.")).toBeVisible();
  const table = page.getByRole("table", { name: "The namespace’s overrides, by id" });
  await expect(table.getByRole("row", { name: /team_\*.*Blocked/ })).toBeVisible();

  const blocked = await limit(server, rootKey, namespace, "team_acme");
  expect(blocked).toMatchObject({ success: false, limit: 0 });
  expect(blocked.overrideId).toMatch(/^rlor_/);
  expect(await limit(server, rootKey, namespace, "user_1")).toMatchObject({ success: true, limit: 5 });

  await page.getByRole("button", { name: "Change the override for team_*" }).click();
  const change = page.getByRole("dialog", { name: "Change an override" });
  await change.getByLabel("Requests per window").fill("2");
  await change.getByRole("button", { name: "Save override" }).click();
  await expect(page.getByText("The override for team_* is set: 2 per minute.")).toBeVisible();
  expect(await limit(server, rootKey, namespace, "team_42")).toMatchObject({ success: true, limit: 2 });

  await page.getByRole("button", { name: "Delete the override for team_*" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete override" });
  await expect(confirm).toContainText("the identifiers it applied to get the limit their requests ask for");
  await saveScreenshot(page, "ratelimits-delete-override");
  await confirm.getByRole("button", { name: "Delete override" }).click();
  await expect(page.getByText("The override for team_* is deleted.")).toBeVisible();
  await expect(page.getByText("No overrides: every identifier gets the limit its requests ask for.")).toBeVisible();
  const restored = await limit(server, rootKey, namespace, "team_acme");
  expect(restored).toMatchObject({ success: true, limit: 5 });
  expect(restored.overrideId).toBeUndefined();
});

/** Calls an operation with the root key, as a caller's code would; resolves its data. */
async function call<T>(server: StartedServer, rootKey: string, operation: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.url}/v2/${operation}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

test("its history: passed and blocked over the last hour as analytics.getRatelimits counts them, and the identifiers blocked most with the override that applies now", async ({
  page,
  server,
}) => {
  const rootKey = await managerKey(server);
  const namespace = uniqueNamespace();
  await limit(server, rootKey, namespace, "user_1");
  await call(server, rootKey, "ratelimit.setOverride", { namespace, identifier: "team_*", limit: 3, duration: 60_000 });
  for (let i = 0; i < 5; i += 1) await limit(server, rootKey, namespace, "team_acme");
  await limit(server, rootKey, namespace, "user_1");
  // The decisions reach analytics in the background: the page is opened once they all have.
  const namespaceId = await namespaceIdOf(server, namespace);
  await expect
    .poll(async () => {
      const rows = await call<{ n: number | string }[]>(server, rootKey, "analytics.getRatelimits", {
        query: `SELECT count(*) AS n FROM ratelimits_v1 WHERE namespace_id = '${namespaceId}' AND time >= ${Date.now() - 3_600_000}`,
      });
      return Number(rows[0]?.n ?? 0);
    })
    .toBeGreaterThanOrEqual(7);

  await connect(page, server, rootKey);
  await addAndOpen(page, namespace);
  await page.getByLabel("Range").selectOption("1h");
  await expect(page.getByTestId("history-totals")).toHaveText("7 decisions: 5 passed, 2 blocked (28.6%).");
  const blocked = page.getByRole("table", { name: "Identifiers blocked most in this range" });
  const row = blocked.getByRole("row", { name: /team_acme/ });
  await expect(row).toContainText("2");
  await expect(row).toContainText("3 (an override’s)");
  await expect(row).toContainText("3 per minute (team_*)");
  await expect(page.getByText(/^Id rlns_/)).toBeVisible();
  await saveScreenshot(page, "ratelimits-history");

  // Set from the identifier blocked most: the override applies to it at once.
  await row.getByRole("button", { name: "Set override for team_acme" }).click();
  const dialog = page.getByRole("dialog", { name: "Set an override" });
  await expect(dialog.getByLabel("Identifier")).toHaveValue("team_acme");
  await dialog.getByLabel("Requests per window").fill("100");
  await dialog.getByRole("button", { name: "Set override" }).click();
  await expect(row).toContainText("100 per minute (team_acme)");
  expect(await limit(server, rootKey, namespace, "team_acme")).toMatchObject({ success: true, limit: 100 });
});

test("a root key without the read permission is told which permission it needs, by the namespace's id", async ({
  page,
  server,
}) => {
  const manager = await managerKey(server);
  const namespace = uniqueNamespace();
  await limit(server, manager, namespace, "user_1");
  const reader = await server.admin([
    "root-key",
    "create",
    "--name",
    "no-ratelimit-reads",
    "--permissions",
    `${READ_KEYS_PERMISSION},${READ_APIS_PERMISSION}`,
  ]);
  const namespaceId = await namespaceIdOf(server, namespace);

  await connect(page, server, reader);
  await addAndOpen(page, namespace);
  const note = page.getByRole("note").filter({ hasText: "Reading this namespace’s overrides needs" });
  await expect(note).toContainText(
    `Reading this namespace’s overrides needs ratelimit.*.read_override or ratelimit.${namespaceId}.read_override, which this root key does not have`,
  );
  await expect(page.getByText(`Id ${namespaceId ?? ""}`)).toBeVisible();
  // The refusal named the namespace's id, so its history is asked for by it, and refused too.
  await expect(page.getByRole("note").filter({ hasText: "Reading this namespace’s history needs" })).toContainText(
    `Reading this namespace’s history needs ratelimit.*.read_analytics or ratelimit.${namespaceId}.read_analytics`,
  );
  // The header's link says it too.
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rate limits" }),
  ).toHaveAccessibleDescription("Rate limits: this root key may not read them (it needs ratelimit.*.read_override)");
  await saveScreenshot(page, "ratelimits-refused");
});

test("a namespace that does not exist is said plainly, with how to make one", async ({ page, server }) => {
  await connect(page, server, await managerKey(server));
  const namespace = uniqueNamespace();
  await page.goto(`${server.url}/ratelimits/${encodeURIComponent(namespace)}`);
  const missing = page.getByTestId("namespace-missing");
  await expect(missing).toContainText(`There is no namespace “${namespace}” in this root key’s workspace`);
  await expect(missing).toContainText(`npm run admin -- namespaces create --name '${namespace}'`);
  await saveScreenshot(page, "ratelimits-missing");
});

test("Escape then Enter at once, as a fast typist presses them, closes the dialog and opens it again", async ({
  page,
  server,
}) => {
  const { namespace } = await enteredWithNamespace(page, server);
  await addAndOpen(page, namespace);
  const set = page.getByRole("button", { name: "Set an override" });
  const dialog = page.getByRole("dialog", { name: "Set an override" });
  await set.focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  // Both keys sent without waiting between them (as Playwright's keyboard sends each): the dialog's `close` event comes
  // a task after Escape, and the Enter on the opener comes before it; the dialog must be open after both.
  const cdp = await page.context().newCDPSession(page);
  const key = (type: "rawKeyDown" | "keyDown" | "keyUp", name: string, code: number, text?: string) =>
    cdp.send("Input.dispatchKeyEvent", {
      type,
      key: name,
      code: name,
      windowsVirtualKeyCode: code,
      nativeVirtualKeyCode: code,
      ...(text !== undefined && { text, unmodifiedText: text }),
    });
  await Promise.all([
    key("rawKeyDown", "Escape", 27),
    key("keyUp", "Escape", 27),
    key("keyDown", "Enter", 13, "\r"),
    key("keyUp", "Enter", 13),
  ]);
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(set).toBeFocused();
});

test("keyboard only: a namespace added, opened, an override set and deleted, the dialogs closed with Escape", async ({
  page,
  server,
}) => {
  const { rootKey, namespace } = await enteredWithNamespace(page, server);
  await page.goto(`${server.url}/ratelimits`);
  await page.getByLabel("Namespace name or id").focus();
  await page.keyboard.type(namespace);
  await page.keyboard.press("Enter");
  const link = page.getByRole("link", { name: namespace, exact: true });
  await expect(link).toBeVisible();
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: namespace })).toBeVisible();

  const set = page.getByRole("button", { name: "Set an override" });
  await set.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Set an override" });
  // The modal takes the focus (on its first control, Close); the form is the next stop.
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(set).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Identifier")).toBeFocused();
  await page.keyboard.type("bot_*");
  await page.keyboard.press("Tab");
  await page.keyboard.type("0");
  await page.keyboard.press("Enter");
  await expect(page.getByText("The override for bot_* is set: Blocked.")).toBeVisible();
  expect(await limit(server, rootKey, namespace, "bot_9")).toMatchObject({ success: false, limit: 0 });

  const remove = page.getByRole("button", { name: "Delete the override for bot_*" });
  await remove.focus();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("dialog", { name: "Delete override" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete override" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("The override for bot_* is deleted.")).toBeFocused();
  expect(await limit(server, rootKey, namespace, "bot_9")).toMatchObject({ success: true, limit: 5 });
});

/** Seven decisions for one identifier, of which the limit of 5 blocks two; resolves once analytics has them all. */
async function blockedTraffic(server: StartedServer, rootKey: string, namespace: string): Promise<void> {
  for (let i = 0; i < 7; i += 1) await limit(server, rootKey, namespace, "a_rather_long_customer_identifier_42");
  const namespaceId = await namespaceIdOf(server, namespace);
  await expect
    .poll(async () => {
      const rows = await call<{ n: number | string }[]>(server, rootKey, "analytics.getRatelimits", {
        query: `SELECT count(*) AS n FROM ratelimits_v1 WHERE namespace_id = '${namespaceId}' AND time >= ${Date.now() - 3_600_000}`,
      });
      return Number(rows[0]?.n ?? 0);
    })
    .toBeGreaterThanOrEqual(7);
}

test("375 px wide: the section, a namespace's page and its dialog fit, never scrolling sideways", async ({
  page,
  server,
}) => {
  const rootKey = await managerKey(server);
  const namespace = uniqueNamespace();
  await blockedTraffic(server, rootKey, namespace);
  await page.setViewportSize({ width: 375, height: 812 });
  await connect(page, server, rootKey);
  await addAndOpen(page, namespace);
  await page.getByRole("button", { name: "Set an override" }).click();
  const dialog = page.getByRole("dialog", { name: "Set an override" });
  await dialog.getByLabel("Identifier").fill("a_rather_long_customer_identifier_prefix_*");
  await dialog.getByLabel("Requests per window").fill("1000");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saveScreenshot(page, "ratelimits-phone-dialog");
  await dialog.getByRole("button", { name: "Set override" }).click();
  await expect(page.getByText(/is set: 1,000 per minute/)).toBeVisible();
  await page.getByLabel("Namespace id").fill(await namespaceIdOf(server, namespace));
  await page.getByRole("button", { name: "Use this id" }).click();
  await expect(page.getByRole("table", { name: "Identifiers blocked most in this range" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saveScreenshot(page, "ratelimits-phone-namespace");
  await page.getByRole("link", { name: "Rate limits" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Rate limits" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saveScreenshot(page, "ratelimits-phone-section");
});

test.describe("accessibility", () => {
  // axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
  test.use({ bypassCSP: true });

  test("the section, a namespace's page and its dialogs have no serious violation, light or dark", async ({
    page,
    server,
  }) => {
    const rootKey = await managerKey(server);
    const namespace = uniqueNamespace();
    await blockedTraffic(server, rootKey, namespace);
    await connect(page, server, rootKey);
    await page.goto(`${server.url}/ratelimits`);
    await page.getByLabel("Namespace name or id").fill(namespace);
    await page.getByRole("button", { name: "Add namespace" }).click();
    await expect(page.getByRole("link", { name: namespace, exact: true })).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `ratelimits-section-${scheme}`)),
    ).toEqual({ light: [], dark: [] });

    await page.getByRole("link", { name: namespace, exact: true }).click();
    await page.getByRole("button", { name: "Set an override" }).click();
    const dialog = page.getByRole("dialog", { name: "Set an override" });
    await dialog.getByLabel("Identifier").fill("org_*");
    await dialog.getByLabel("Requests per window").fill("0");
    await dialog.getByRole("button", { name: "Set override" }).click();
    await expect(page.getByText("The override for org_* is set: Blocked.")).toBeVisible();
    // No override of it has decided yet: its id is asked for, as the service's dashboard shows it.
    await expect(page.getByLabel("Namespace id")).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `ratelimits-id-needed-${scheme}`)),
    ).toEqual({ light: [], dark: [] });
    await page.getByLabel("Namespace id").fill(await namespaceIdOf(server, namespace));
    await page.getByRole("button", { name: "Use this id" }).click();
    await expect(page.getByRole("table", { name: "Identifiers blocked most in this range" })).toBeVisible();
    await expect(page.getByRole("img", { name: /^Decisions per 1 hour/ })).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `ratelimits-namespace-${scheme}`)),
    ).toEqual({ light: [], dark: [] });

    await page.getByRole("button", { name: "Set an override" }).click();
    await expect(page.getByRole("dialog", { name: "Set an override" })).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `ratelimits-dialog-${scheme}`)),
    ).toEqual({ light: [], dark: [] });
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Delete the override for org_*" }).click();
    await expect(page.getByRole("dialog", { name: "Delete override" })).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `ratelimits-delete-${scheme}`)),
    ).toEqual({ light: [], dark: [] });
  });
});
