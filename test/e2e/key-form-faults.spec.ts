import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { expect, saveScreenshot, test, verifyCode } from "./fixtures";
import { actingRootKey, adminKey, connect, fieldValue, openKey } from "./key-actions-helpers";

/** The third bug bash's faults in the key forms (issue 42), as a user meets them in Chromium against the server. */

/** The key as the service has it now (keys.getKey). */
async function keyNow(server: StartedServer, rootKey: string, keyId: string) {
  const response = await fetch(`${server.url}/v2/keys.getKey`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ keyId }),
  });
  return (
    (await response.json()) as {
      data: { name?: string; enabled: boolean; credits?: { remaining: number | null }; expires?: number };
    }
  ).data;
}

/** The key changes the page sends (with the root key: not the no-cors check after a failure). */
function changesSent(page: Page, operation: string): unknown[] {
  const sent: unknown[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(`/v2/${operation}`) && request.headers()["authorization"] !== undefined)
      sent.push(request.postDataJSON());
  });
  return sent;
}

const keyActions = (page: Page) => page.getByRole("group", { name: "Key actions" });

async function openEdit(page: Page): Promise<Locator> {
  await keyActions(page).getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit key" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a mistyped number in Credits (1e309, 50-, 1e) is refused beside the field and nothing is sent: the key keeps its credits", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-typed-credits");
  const key = await adminKey(server, ["--name", "Counted", "--credits", "40"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Counted");
  const dialog = await openEdit(page);
  // After Edit's permission probe (a monthly refill without its day, refused by design).
  const sent = changesSent(page, "keys.updateKey");
  const credits = dialog.getByRole("spinbutton", { name: "Credits" });
  for (const text of ["1e309", "50-", "1e"]) {
    await credits.fill(text);
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(credits).toHaveAttribute("aria-invalid", "true");
    await expect(credits).toHaveAccessibleDescription(/^Not a number: type digits only, like 100/);
    await expect(credits).toBeFocused();
    await expect(credits).toHaveValue(text);
    await expect(dialog.getByRole("alert")).toHaveText(/^Nothing was sent\. Credits: Not a number/);
  }
  await saveScreenshot(page, "key-form-credits-not-a-number");
  await expect(dialog).toBeVisible();
  expect(sent).toEqual([]);
  expect((await keyNow(server, rootKey, key.keyId)).credits).toEqual({ remaining: 40 });

  // Typed right, it is sent as typed.
  await credits.fill("50");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);
  expect(sent).toEqual([{ keyId: key.keyId, credits: { remaining: 50 } }]);
  await expect(fieldValue(page, "Credits")).toHaveText("50 remaining, never refilled");
});

test("Create key with Credits 50- makes no unlimited key; 50 makes a key with 50 credits", async ({ page, server }) => {
  const rootKey = await actingRootKey(server, "e2e-typed-create");
  const apiId = await server.admin(["apis", "create", "--name", "e2e-typed-create"]);
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys`);
  const sent = changesSent(page, "keys.createKey");
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create key" });
  await dialog.getByLabel("API id").fill(apiId);
  await dialog.getByLabel("API id").press("Tab");
  await expect(dialog.getByText("This root key may create keys in it.")).toBeVisible();
  const name = `Fifty ${randomUUID().slice(0, 6)}`;
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  const credits = dialog.getByRole("spinbutton", { name: "Credits" });
  await credits.fill("50-");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(credits).toHaveAccessibleDescription(/^Not a number/);
  await expect(credits).toBeFocused();
  // Only the API check's probe (credits.remaining: null, refused by design) went out: no key.
  expect(sent.filter((body) => (body as { name?: string }).name === name)).toEqual([]);

  await page.keyboard.press("Backspace");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("dialog", { name: "Key created" });
  const secret = await created.getByLabel("Secret", { exact: true }).inputValue();
  expect(sent.filter((body) => (body as { name?: string }).name === name)).toEqual([
    { apiId, enabled: true, name, credits: { remaining: 50 } },
  ]);
  expect(await verifyCode(server, rootKey, secret)).toBe("VALID");
});

test("an Edit form open in a second tab says the key was disabled in the first, and Save does not enable it again", async ({
  page,
  server,
  context,
}) => {
  const rootKey = await actingRootKey(server, "e2e-two-tabs-edit");
  const name = `Two tabs ${randomUUID().slice(0, 6)}`;
  const key = await adminKey(server, ["--name", name]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, name);
  // The second tab of the same session, opened from the first (the key travels in the tab's session).
  const [other] = await Promise.all([
    context.waitForEvent("page"),
    page.evaluate((href) => window.open(href), `${server.url}/keys/${key.keyId}`),
  ]);
  if (other === undefined) throw new Error("no second tab");
  await expect(other.getByRole("heading", { level: 1, name })).toBeVisible();
  const dialog = await openEdit(other);
  await expect(dialog.getByRole("checkbox", { name: "Enabled" })).toBeChecked();

  await keyActions(page).getByRole("button", { name: "Disable" }).click();
  await expect(fieldValue(page, "Enabled")).toHaveText("No: every verification is refused");
  const note = dialog.getByRole("alert");
  await expect(note).toHaveText(
    /^This key changed since this form opened \(in another tab, or by someone else\): it is now disabled\. The form still shows what it was\./,
  );
  await saveScreenshot(other, "key-form-changed-under");
  await expect(dialog.getByRole("checkbox", { name: "Enabled" })).toBeChecked();

  // Saved as it is, the other tab's Disable stands: only the name goes.
  const sent = changesSent(other, "keys.updateKey");
  await dialog.getByLabel("Name", { exact: true }).fill(`${name} renamed`);
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);
  expect(sent).toEqual([{ keyId: key.keyId, name: `${name} renamed` }]);
  expect(await verifyCode(server, rootKey, key.secret)).toBe("DISABLED");

  // Opened again and changed under again: Take the new values shows the key as it is.
  const again = await openEdit(other);
  await page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Enable" }).click();
  await expect(again.getByRole("alert")).toContainText("it is now enabled");
  await again.getByRole("button", { name: "Take the new values" }).click();
  await expect(again.getByRole("checkbox", { name: "Enabled" })).toBeChecked();
  await expect(again.getByRole("alert")).toHaveCount(0);
  await other.close();
});

test("offline, an open form says so at once and Save waits; back online, it saves", async ({
  page,
  server,
  context,
}) => {
  const rootKey = await actingRootKey(server, "e2e-offline-save");
  const key = await adminKey(server, ["--name", "Saved offline"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Saved offline");
  const dialog = await openEdit(page);
  await dialog.getByLabel("Name", { exact: true }).fill("Saved once back");

  await context.setOffline(true);
  const offline = dialog.getByRole("status").filter({ hasText: "You are offline" });
  await expect(offline).toHaveText("You are offline: nothing can be changed until the connection is back.", {
    timeout: 2000,
  });
  await expect(dialog.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Saving…" })).toHaveCount(0);
  await saveScreenshot(page, "key-form-offline");

  await context.setOffline(false);
  await expect(offline).toHaveCount(0);
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);
  expect((await keyNow(server, rootKey, key.keyId)).name).toBe("Saved once back");
});

test("a save cut off by the network is said at once, while the key cannot be read again either", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-cut-save");
  const key = await adminKey(server, ["--name", "Cut save"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Cut save");
  const dialog = await openEdit(page);
  await dialog.getByLabel("Name", { exact: true }).fill("Never saved");
  // The change fails, and the key's reload after it would wait: it must not hold the form's answer.
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/v2/keys.updateKey", (route) => route.abort("internetdisconnected"));
  await page.route("**/v2/keys.getKey", async (route) => {
    await released;
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByRole("alert").getByRole("heading", { level: 2 })).toBeVisible({ timeout: 5000 });
  await expect(dialog.getByRole("button", { name: "Save changes" })).toBeEnabled();
  release();
});

test("Expires: a date after 2100-01-01 and year 275760 are refused with the service's latest expiry, nothing sent", async ({
  page,
  server,
}) => {
  const rootKey = await actingRootKey(server, "e2e-expiry-bounds");
  const key = await adminKey(server, ["--name", "Far future"]);
  await connect(page, server, rootKey);
  await openKey(page, server, key.keyId, "Far future");
  const dialog = await openEdit(page);
  // After Edit's permission probe (a monthly refill without its day, refused by design).
  const sent = changesSent(page, "keys.updateKey");
  const expires = dialog.getByLabel("Expires", { exact: true });
  await expect(expires).toHaveAttribute("max", "2100-01-01T00:00");
  const latest = "At most 2100-01-01 00:00 here (2100-01-01 00:00 UTC), the latest expiry the service takes";
  for (const value of ["2100-01-02T00:00", "275760-09-13T00:00"]) {
    await expires.fill(value);
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(expires).toHaveAccessibleDescription(`${latest} Empty: never expires.`);
  }
  await saveScreenshot(page, "key-form-expiry-latest");
  expect(sent).toEqual([]);

  // Filled in only in part, the field's value is empty, as for no expiry: refused, not read as never.
  await expires.fill("");
  await expires.focus();
  // en-US: month, then day; the year and the time left out.
  await page.keyboard.type("0304");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(expires).toHaveAccessibleDescription(/^Fill in the whole date and time, or clear it/);
  expect(sent).toEqual([]);
  expect((await keyNow(server, rootKey, key.keyId)).expires).toBeUndefined();
});

test.describe("in Europe/Berlin", () => {
  test.use({ timezoneId: "Europe/Berlin" });

  test("a local time the clocks skip is said, not stored an hour off; the time meant is stored", async ({
    page,
    server,
  }) => {
    // Next year's last Sunday of March, when Berlin's clocks skip 02:00–03:00: always ahead of today.
    const year = new Date().getUTCFullYear() + 1;
    const lastOfMarch = new Date(Date.UTC(year, 2, 31));
    const day = 31 - lastOfMarch.getUTCDay();
    const date = `${year}-03-${String(day).padStart(2, "0")}`;
    const rootKey = await actingRootKey(server, "e2e-expiry-gap");
    const key = await adminKey(server, ["--name", "In the gap"]);
    await connect(page, server, rootKey);
    await openKey(page, server, key.keyId, "In the gap");
    const dialog = await openEdit(page);
    const sent = changesSent(page, "keys.updateKey");
    const expires = dialog.getByLabel("Expires", { exact: true });
    await expires.fill(`${date}T02:30`);
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(expires).toHaveAccessibleDescription(
      `02:30 does not exist on ${date} in Europe/Berlin (the clocks skip it); 03:30 is meant? Empty: never expires.`,
    );
    await saveScreenshot(page, "key-form-expiry-gap");
    expect(sent).toEqual([]);

    await expires.fill(`${date}T03:30`);
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog).toHaveCount(0);
    const meant = Date.UTC(year, 2, day, 1, 30);
    expect(sent).toEqual([{ keyId: key.keyId, expires: meant }]);
    expect((await keyNow(server, rootKey, key.keyId)).expires).toBe(meant);
  });
});

test("a read-only root key that clicks Enable is told the refusal once, above the buttons, and keeps the focus", async ({
  page,
  server,
}) => {
  const readOnly = await server.admin([
    "root-key",
    "create",
    "--name",
    "e2e-read-only-enable",
    "--permissions",
    "api.*.read_key,api.*.read_analytics",
  ]);
  const key = await adminKey(server, ["--name", "Switched off by someone", "--disabled"]);
  await connect(page, server, readOnly);
  await openKey(page, server, key.keyId, "Switched off by someone");
  await page.getByRole("group", { name: "Fix" }).getByRole("button", { name: "Enable" }).click();
  const note = page.getByRole("note");
  await expect(note).toContainText("Changing this key needs api.*.update_key");
  await expect(note).toContainText("the service refused it: “Missing one of these permissions");
  // Once on the screen: no panel of the same 403 below the buttons.
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByText(/This root key may not change keys/)).toHaveCount(0);
  await expect(note.getByRole("button", { name: "Granted since? Check again" })).toBeFocused();
  await saveScreenshot(page, "key-actions-enable-refused-once");
  const verifier = await actingRootKey(server, "e2e-read-only-enable-verifier");
  expect(await verifyCode(server, verifier, key.secret)).toBe("DISABLED");
});
