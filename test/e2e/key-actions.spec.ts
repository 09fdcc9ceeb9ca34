import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { seriousViolationsInBothThemes } from "./axe";
import { expect, saveScreenshot, test, verifyCode } from "./fixtures";
import { actingRootKey, adminKey, connect, fieldValue, openKey } from "./key-actions-helpers";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

test("a key created from the dashboard shows its secret once, verifies with it, and is in the list at once", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-create");
  const apiId = await server.admin(["apis", "create", "--name", "e2e-create"]);
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys`);
  await expect(page.getByRole("table")).toBeVisible();

  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create key" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("API id").fill(apiId);
  await dialog.getByLabel("Name", { exact: true }).fill("Created in the dashboard");
  await dialog.getByLabel("Prefix").fill("dash");
  await dialog.getByLabel("Credits", { exact: true }).fill("5");
  await dialog.getByLabel("Meta (JSON)").fill('{"plan": ');
  await expect(dialog.getByText(/^Not JSON/)).toBeVisible();
  await dialog.getByLabel("Meta (JSON)").fill('{"plan": "pro"}');
  await expect(dialog.getByText(/^Not JSON/)).toHaveCount(0);
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  // The answer held back: while it is on its way neither Escape (twice: a browser may make a second cancel
  // unpreventable) nor Close may drop the dialog the secret is coming to.
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/v2/keys.createKey", async (route) => {
    await released;
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByRole("button", { name: "Creating…" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await expect(dialog.getByRole("button", { name: "Close" })).toBeDisabled();
  // The API field has a status of its own (its check): the busy one is the one that says why the dialog stays.
  await expect(dialog.getByRole("status").filter({ hasText: "shown only once" })).toBeVisible();
  await expect(dialog).toBeVisible();
  release();

  const created = page.getByRole("dialog", { name: "Key created" });
  const secretField = created.getByLabel("Secret", { exact: true });
  await expect(secretField).toHaveValue(/^dash_/);
  await expect(created.getByText("it will not be shown again")).toBeVisible();
  await expect(created.getByRole("button", { name: "Copy secret" })).toBeVisible();
  const secret = await secretField.inputValue();
  expect(await verifyCode(server, rootKey, secret)).toBe("VALID");
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await saveScreenshot(page, "key-actions-created");

  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toHaveCount(0);
  await expect(page.getByRole("table").getByText("Created in the dashboard")).toBeVisible();
  // Nothing kept it: no storage, no URL, no journal (the troubleshoot page lists the journal).
  expect(page.url()).not.toContain(secret);
  const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
  expect(stored).not.toContain(secret);
  expect(await page.content()).not.toContain(secret);
});

test("a disabled key enabled from its page verifies, and the page follows", async ({ page, server }) => {
  const rootKey = await actingRootKey(server, "e2e-enable");
  const key = await adminKey(server, ["--name", "Switched off", "--disabled"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Switched off");
  await expect(page.getByTestId("key-verdict")).toHaveText(/disabled/);

  await page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Enable" }).click();
  await expect(page.getByTestId("key-verdict")).not.toHaveText(/disabled/);
  await expect(page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Disable" })).toBeVisible();
  await expect.poll(() => verifyCode(server, rootKey, key.secret)).toBe("VALID");
});

test("a key out of credits given credits from its page verifies", async ({ page, server }) => {
  const rootKey = await actingRootKey(server, "e2e-credits");
  const key = await adminKey(server, ["--name", "Spent", "--credits", "0"]);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("USAGE_EXCEEDED");
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Spent");

  await page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Add credits" }).click();
  const dialog = page.getByRole("dialog", { name: "Credits" });
  await expect(dialog.getByRole("radio", { name: "Add" })).toBeChecked();
  await expect(dialog.getByLabel("Credits", { exact: true })).toHaveValue("100");
  await dialog.getByLabel("Credits", { exact: true }).fill("3");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, "key-actions-credits-phone");
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await dialog.getByRole("button", { name: "Save credits" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Fix" })).toHaveCount(0);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");
});

test("a rerolled key's old secret works for the grace period and not after; the new secret is shown once", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-reroll");
  const key = await adminKey(server, ["--name", "Leaked"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Leaked");

  await page.getByRole("button", { name: "Reroll" }).click();
  const dialog = page.getByRole("dialog", { name: "Reroll key" });
  await expect(dialog.getByLabel("Old key keeps working for")).toHaveValue(String(60 * 60_000));
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await dialog.getByRole("button", { name: "Reroll key" }).click();
  const done = page.getByRole("dialog", { name: "Key rerolled" });
  const secret = await done.getByLabel("Secret", { exact: true }).inputValue();
  expect(secret).not.toBe(key.secret);
  expect(await verifyCode(server, rootKey, secret)).toBe("VALID");
  // Within the hour of grace, the old secret still works.
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");
  const journal = await page.evaluate(() =>
    JSON.stringify([{ ...localStorage }, { ...sessionStorage }, location.href]),
  );
  expect(journal).not.toContain(secret);
  await done.getByRole("button", { name: "Done" }).click();
  await expect(done).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // Rerolled again with no grace: the previous secret stops at once.
  await page.getByRole("button", { name: "Reroll" }).click();
  const again = page.getByRole("dialog", { name: "Reroll key" });
  // The old key now expires with the first reroll's grace, and a new key made from it keeps that expiry.
  await expect(
    again.getByText(/^The new key keeps this key.s expiry: it stops working in (59 minutes|1 hour) \(/),
  ).toBeVisible();
  await again.getByLabel("Old key keeps working for").selectOption({ label: "Stop the old key now" });
  await again.getByRole("button", { name: "Reroll key" }).click();
  const rerolledAgain = page.getByRole("dialog", { name: "Key rerolled" });
  await expect(rerolledAgain.getByLabel("Secret", { exact: true })).toHaveValue(/.+/);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("EXPIRED");

  // Once more on the old key, now expired: a new key would be refused at once, and the form says so first.
  await rerolledAgain.getByRole("button", { name: "Done" }).click();
  // Expired by the server a moment ago, ahead of the page's once-a-minute clock: said at once.
  await expect(page.getByTestId("key-verdict")).toHaveText(/^Refused because it expired just now/);
  await page.getByRole("button", { name: "Reroll" }).click();
  await expect(
    page
      .getByRole("dialog", { name: "Reroll key" })
      .getByRole("note")
      .filter({ hasText: /^This key expired just now/ }),
  ).toContainText("The new key keeps that expiry, so the service would refuse it at once as EXPIRED");
});

test("Back while a rerolled key's secret is on its way or shown asks first: kept, the page and its dialog stay; confirmed, the page is left", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-reroll-back");
  await adminKey(server, ["--name", "Rerolled then Back"]);
  await connect(page, server, rootKey);
  // Reached in the app, so that Back stays in it.
  await page.goto(`${server.url}/keys`);
  await page.getByLabel("Filter keys").fill("Rerolled then Back");
  await page.getByRole("table").getByRole("link", { name: "Rerolled then Back" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Rerolled then Back" })).toBeVisible();
  const keyUrl = page.url();

  // The answer held back: Back while it is on its way would leave the secret nowhere to go.
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route("**/v2/keys.rerollKey", async (route) => {
    await answered;
    await route.continue();
  });
  await page.getByRole("button", { name: "Reroll" }).click();
  await page.getByRole("dialog", { name: "Reroll key" }).getByRole("button", { name: "Reroll key" }).click();
  await expect(page.getByRole("button", { name: "Rerolling…" })).toBeVisible();
  const asked: string[] = [];
  page.on("dialog", (question) => {
    asked.push(question.message());
    void question.dismiss();
  });
  await page.goBack();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toBe(
    "Leave this page? The new key’s secret is shown only once, in this page’s dialog: leaving the page loses it.",
  );
  answer();
  const rerolled = page.getByRole("dialog", { name: "Key rerolled" });
  const secret = await rerolled.getByLabel("Secret", { exact: true }).inputValue();
  expect(secret).toMatch(/.+/);
  expect(page.url()).toBe(keyUrl);

  // Shown: Back asks again, and kept, the secret is still there.
  await page.goBack();
  await expect.poll(() => asked.length).toBe(2);
  await expect(rerolled.getByLabel("Secret", { exact: true })).toHaveValue(secret);
  expect(page.url()).toBe(keyUrl);

  // Confirmed, Back goes.
  page.removeAllListeners("dialog");
  page.once("dialog", (question) => void question.accept());
  await page.goBack();
  await expect(page).toHaveURL(`${server.url}/keys`);
  await expect(rerolled).toHaveCount(0);
});

test("a created and a rerolled secret go nowhere but their dialog: not the console, the tabs' messages, the diagnostics report, storage or the URL; closed, it is gone from the page", async ({
  page,
  server,
  context,
}) => {
  const rootKey = await actingRootKey(server, "e2e-secret-paths");
  const apiId = await server.admin(["apis", "create", "--name", "e2e-secret-paths"]);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const logged: string[] = [];
  page.on("console", (message) => logged.push(message.text()));
  await connect(page, server, rootKey);
  // Another tab of this origin hears what the tabs tell each other.
  const listener = await context.newPage();
  await listener.goto(`${server.url}/connect`);
  await listener.evaluate(() => {
    const heard: string[] = [];
    Object.assign(window, { heard });
    new BroadcastChannel("keyscope-key-changes").onmessage = (event: MessageEvent) =>
      heard.push(JSON.stringify(event.data));
  });
  const heard = () => listener.evaluate(() => (window as unknown as { heard: string[] }).heard.join("\n"));
  const secrets: string[] = [];
  const kept = async () =>
    [
      await page.content(),
      page.url(),
      await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }])),
    ].join("\n");

  await page.goto(`${server.url}/keys`);
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create key" });
  await dialog.getByLabel("API id").fill(apiId);
  await dialog.getByLabel("Name", { exact: true }).fill("Secret paths");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("dialog", { name: "Key created" });
  secrets.push(await created.getByLabel("Secret", { exact: true }).inputValue());
  const keyId = (await created.locator("code").first().textContent()) ?? "";
  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toHaveCount(0);
  await expect.poll(heard).toContain(keyId);
  expect(await kept()).not.toContain(secrets[0]);

  await page.getByRole("table").getByRole("link", { name: "Secret paths" }).click();
  await page.getByRole("button", { name: "Reroll" }).click();
  await page.getByRole("dialog", { name: "Reroll key" }).getByRole("button", { name: "Reroll key" }).click();
  const rerolled = page.getByRole("dialog", { name: "Key rerolled" });
  secrets.push(await rerolled.getByLabel("Secret", { exact: true }).inputValue());
  await rerolled.getByRole("button", { name: "Done" }).click();
  await expect(rerolled).toHaveCount(0);
  await expect.poll(heard).toContain(keyId);
  expect(await kept()).not.toContain(secrets[1]);

  // The diagnostics report carries this tab's request journal, which saw both answers (in memory: no reload).
  await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
  await page.getByRole("button", { name: "Run diagnostics" }).click();
  const diagnosis = page.getByRole("region", { name: "Diagnosis" });
  await expect(diagnosis).toBeVisible({ timeout: 20_000 });
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await diagnosis.getByRole("button", { name: "Copy report" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain("## Keyscope diagnostics");
  const report = await page.evaluate(() => navigator.clipboard.readText());
  expect(report).toContain("keys.rerollKey");
  const everywhere = [report, await kept(), await heard(), ...logged].join("\n");
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(10);
    expect(everywhere).not.toContain(secret);
  }
  await listener.close();
});

test("a deleted key verifies NOT_FOUND and is gone from the list", async ({ page, server }) => {
  const rootKey = await actingRootKey(server, "e2e-delete");
  const key = await adminKey(server, ["--name", "Retired"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Retired");

  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete key" });
  const confirm = dialog.getByRole("button", { name: "Delete key" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type Retired to confirm").fill("Retired");
  expect(await seriousViolationsInBothThemes(page)).toEqual({ dark: [], light: [] });
  await confirm.click();
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByRole("table")).toBeVisible();
  // Searched for by name, so that the absence is not just a row out of view.
  await page.getByRole("searchbox").fill("Retired");
  await expect(page.getByText(/^0 of \d+ keys shown|No key/).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Retired" })).toHaveCount(0);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("NOT_FOUND");
});

test("a key whose name is cleared (the API then answers it without a name) is called by its id: page, delete confirmation, list", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-nameless");
  const key = await adminKey(server, ["--name", "Soon nameless"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Soon nameless");

  await page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit key" });
  await dialog.getByLabel("Name", { exact: true }).fill("");
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: key.keyId })).toBeVisible();
  await saveScreenshot(page, "key-actions-nameless-key");

  await page.getByRole("button", { name: "Delete" }).click();
  const remove = page.getByRole("dialog", { name: "Delete key" });
  await expect(remove.getByLabel(`Type ${key.keyId} to confirm`)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(remove).toHaveCount(0);

  await page.goto(`${server.url}/keys`);
  await page.getByRole("searchbox").fill(key.keyId);
  await expect(page.getByRole("link", { name: "Unnamed" })).toHaveCount(1);
});

test("a read-only root key is told it needs api.*.update_key before any form opens", async ({ page, server }) => {
  const verifier = await actingRootKey(server, "e2e-verifier");
  const readOnly = await server.admin([
    "root-key",
    "create",
    "--name",
    "e2e-read-only",
    "--permissions",
    "api.*.read_key,api.*.read_analytics",
  ]);
  const key = await adminKey(server, ["--name", "Look only"]);
  await connect(page, server, readOnly);
  await openKey(page, server, key.keyId, "Look only");

  await page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Edit", exact: true }).click();
  const note = page.getByRole("note");
  await expect(note).toContainText("Changing this key needs api.*.update_key");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(
    page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Credits" }),
  ).toBeDisabled();
  await saveScreenshot(page, "key-actions-read-only");
  expect(await verifyCode(server, verifier, key.secret)).toBe("VALID");
});

test("the keys page loads no key-action code on its way to the rows: the Create key dialog's code comes on first open", async ({
  page,
  server,
  rootKey,
}) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys`);
  await expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible();
  const actionCode = (path: string) => /\/(create-key-dialog|key-actions)-[\w-]+\.js$/.test(path);
  expect(scripts.filter(actionCode)).toEqual([]);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("dialog", { name: "Create key" })).toBeVisible();
  expect(scripts.filter(actionCode)).not.toEqual([]);
});

test("a change made in one tab shows in the others, told by id only", async ({ page, server, context }) => {
  const rootKey = await actingRootKey(server, "e2e-tabs");
  // A name of its own: --repeat-each runs this again on the same server, beside the first run's key.
  const name = `Seen from two tabs ${randomUUID().slice(0, 6)}`;
  const key = await adminKey(server, ["--name", name]);
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys`);
  // Only this key shown: the worker's server holds the keys of the other tests too, beyond the rows in view.
  await page.getByRole("searchbox").fill(name);
  const list = page.getByRole("table").getByRole("row").filter({ hasText: name });
  await expect(list).toContainText("Active");

  // A second tab of the same session: the key travels in the tab's session, so it is opened from the first.
  const [other] = await Promise.all([
    context.waitForEvent("page"),
    page.evaluate((href) => window.open(href), `${server.url}/keys/${key.keyId}`),
  ]);
  if (other === undefined) throw new Error("no second tab");
  const messages: string[] = [];
  await page.exposeFunction("recordMessage", (text: string) => messages.push(text));
  await page.evaluate(() => {
    const channel = new BroadcastChannel("keyscope-key-changes");
    channel.onmessage = (event: MessageEvent<unknown>) =>
      void (window as unknown as { recordMessage: (text: string) => void }).recordMessage(JSON.stringify(event.data));
  });
  await expect(other.getByRole("heading", { level: 1, name })).toBeVisible();
  await other.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Disable" }).click();
  await expect(list).toContainText("Disabled");
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages)
    expect(Object.keys(JSON.parse(message) as object).sort()).toEqual(["change", "keyId", "scope"]);
  await other.close();
});

test("a Disable cut off by the network is said in place and rolled back; Retry with the network back disables the key", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-disable-offline");
  const key = await adminKey(server, ["--name", "Cut off", "--credits", "7"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Cut off");
  // The changes asked for: the requests that carry the root key (after a failure the client also asks once
  // without it, an empty no-cors body, to tell an offline browser from a server CORS hides; that one changes nothing).
  const sent: unknown[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/v2/keys.updateKey") && request.headers()["authorization"] !== undefined)
      sent.push(request.postDataJSON());
  });

  // The connection to the API drops (the browser still thinks it is online): the key cannot be read again
  // either, so what the page shows after the failure is its own rollback, not a fresh copy of the key.
  let connected = false;
  await page.route(/\/v2\/keys\.(updateKey|getKey)$/, (route) =>
    connected ? route.continue() : route.abort("connectionreset"),
  );
  const actions = page.getByRole("group", { name: "Key actions" });
  await actions.getByRole("button", { name: "Disable" }).click();
  const failure = page.locator(".key-actions__result").getByRole("alert");
  await expect(failure.getByRole("heading", { level: 2 })).toHaveText("Keyscope could not reach the API");
  await saveScreenshot(page, "key-actions-disable-cut-off");
  await expect(actions.getByRole("button", { name: "Disable" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Fix" })).toHaveCount(0);
  await expect(fieldValue(page, "Enabled")).toHaveText("Yes");
  await expect(fieldValue(page, "Credits")).toHaveText("7 remaining, never refilled");
  expect(sent).toEqual([{ keyId: key.keyId, enabled: false }]);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");

  connected = true;
  await failure.getByRole("button", { name: "Retry" }).click();
  await expect(failure).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Enable" })).toBeVisible();
  await expect(actions.getByRole("button", { name: "Disable" })).toHaveCount(0);
  await expect(fieldValue(page, "Enabled")).toHaveText("No: every verification is refused");
  await expect.poll(() => verifyCode(server, rootKey, key.secret)).toBe("DISABLED");
  expect(sent).toEqual([
    { keyId: key.keyId, enabled: false },
    { keyId: key.keyId, enabled: false },
  ]);
});

/** The next keys.updateKey answered with the service's error envelope (`type`: the unkey application error's name). */
function answerUpdateKeyOnce(
  page: Page,
  error: { status: number; title: string; detail: string; requestId: string; type: string; retryAfter?: string },
) {
  const { requestId, retryAfter, type, ...rest } = error;
  return page.route(
    "**/v2/keys.updateKey",
    (route) =>
      route.fulfill({
        status: error.status,
        headers: { "content-type": "application/json", ...(retryAfter !== undefined && { "retry-after": retryAfter }) },
        body: JSON.stringify({
          meta: { requestId },
          error: { ...rest, type: `https://unkey.com/docs/errors/unkey/application/${type}` },
        }),
      }),
    { times: 1 },
  );
}

test("a Disable answered 500, then 429 with Retry-After, ends each time in a panel naming it, the key still enabled", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-disable-refused");
  const key = await adminKey(server, ["--name", "Refused twice"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Refused twice");
  const actions = page.getByRole("group", { name: "Key actions" });
  const failure = page.locator(".key-actions__result").getByRole("alert");
  let sent = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/v2/keys.updateKey")) sent += 1;
  });

  await answerUpdateKeyOnce(page, {
    status: 500,
    title: "Internal Server Error",
    detail: "The database went away",
    requestId: "req_e2e500",
    type: "unexpected_error",
  });
  await actions.getByRole("button", { name: "Disable" }).click();
  await expect(failure.getByRole("heading", { level: 2 })).toHaveText("The API ran into an error of its own");
  await expect(failure).toContainText("HTTP 500");
  await expect(failure).toContainText("The database went away");
  await expect(failure).toContainText("req_e2e500");
  await expect(actions.getByRole("button", { name: "Disable" })).toBeEnabled();
  await saveScreenshot(page, "key-actions-disable-500");
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");

  await answerUpdateKeyOnce(page, {
    status: 429,
    title: "Too Many Requests",
    detail: "Slow down",
    requestId: "req_e2e429",
    type: "too_many_requests",
    retryAfter: "30",
  });
  await actions.getByRole("button", { name: "Disable" }).click();
  await expect(failure.getByRole("heading", { level: 2 })).toHaveText("Too many requests: wait a moment");
  await expect(failure).toContainText("HTTP 429");
  await expect(failure.getByRole("timer")).toHaveText(/^Try again in (30|2\d) s$/);
  await expect(actions.getByRole("button", { name: "Disable" })).toBeEnabled();
  await saveScreenshot(page, "key-actions-disable-429");
  expect(await verifyCode(server, rootKey, key.secret)).toBe("VALID");
  // One request a click: a change refused is not sent again behind the user's back.
  expect(sent).toBe(2);
});

test("when the key actions' code does not arrive, the key's page stays with a line that says so, and Retry loads them", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-actions-code");
  const key = await adminKey(server, ["--name", "Actions late"]);
  // Any address of it: a try after a failure asks for the script under a fresh one.
  const chunk = /\/assets\/key-actions-[^/?]+\.(js|css)(\?.*)?$/;
  await page.route(chunk, (route) => route.abort("connectionrefused"));
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Actions late");

  const notice = page.getByRole("alert").filter({ hasText: "The key’s actions could not be loaded from the server." });
  await expect(notice).toBeVisible();
  // The page is not taken over: its verdict and fields stay.
  await expect(page.getByRole("heading", { level: 1, name: "Actions late" })).toBeVisible();
  await expect(fieldValue(page, "Enabled")).toHaveText("Yes");

  await page.unroute(chunk);
  await notice.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("group", { name: "Key actions" }).getByRole("button", { name: "Disable" })).toBeVisible();
  await expect(notice).toHaveCount(0);
});
