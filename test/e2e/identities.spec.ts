import type { Page } from "@playwright/test";
import { startRealShapeServer } from "../support/real-shape-server";
import { startServer, type StartedServer } from "../support/server-process";
import { seriousViolationsInBothThemes } from "./axe";
import { enterKey, expect, HOUR_MS, saveScreenshot, test, verifyCode, withinOnePeriod } from "./fixtures";

/** What the Identities pages need of a root key, and verifying keys to check what they did. */
const IDENTITY_PERMISSIONS = [
  "api.*.read_key",
  "api.*.read_api",
  "api.*.read_analytics",
  "api.*.verify_key",
  "identity.*.read_identity",
  "identity.*.create_identity",
  "identity.*.update_identity",
  "identity.*.delete_identity",
];

/** A workspace of the test's own (its counts are its own), with an admin bound to it and a root key. */
async function workspaceOf(server: StartedServer, name: string, permissions = IDENTITY_PERMISSIONS) {
  const workspace = await server.admin(["workspaces", "create", "--name", name]);
  const admin = (args: string[]) => server.admin([...args, "--workspace", workspace]);
  const rootKey = await admin(["root-key", "create", "--name", name, "--permissions", permissions.join(",")]);
  const apiId = await admin(["apis", "create", "--name", "Production"]);
  return { admin, rootKey, apiId };
}

async function keyOf(admin: (args: string[]) => Promise<string>, args: string[]) {
  const [keyId = "", secret = ""] = (await admin(["keys", "create", ...args])).split(" ");
  return { keyId, secret };
}

async function connect(page: Page, server: StartedServer, rootKey: string, apiId?: string) {
  await page.goto(`${server.url}/connect`);
  if (apiId !== undefined) await page.getByRole("textbox", { name: /^API ID/ }).fill(apiId);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
}

/** An answer of the reference server's API, with the root key. */
async function call(server: StartedServer, rootKey: string, operation: string, body: object) {
  const response = await fetch(`${server.url}/v2/${operation}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${rootKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
}

test("an identity's page lists every key it owns and its shared limit, and editing the limit changes the next verification's answer", async ({
  page,
  server,
}, testInfo) => {
  // The shared limit is 1 an hour: both verifications and the one after the edit fall in one window.
  await withinOnePeriod(testInfo, HOUR_MS);
  const { admin, rootKey, apiId: first } = await workspaceOf(server, "e2e-identity-page");
  const second = await admin(["apis", "create", "--name", "Partners"]);
  const external = `org_shared${Date.now().toString(36)}`;
  const identityId = await admin(["identities", "create", "--external-id", external, "--ratelimit", "1/1h"]);
  const worker = await keyOf(admin, ["--name", "Billing worker", "--api", first, "--external-id", external]);
  const partner = await keyOf(admin, ["--name", "Partner sync", "--api", second, "--external-id", external]);
  await keyOf(admin, ["--name", "Someone else's", "--api", first]);
  expect(await verifyCode(server, rootKey, worker.secret)).toBe("VALID");
  // One counter for both keys: the second key is refused by the first's use.
  expect(await verifyCode(server, rootKey, partner.secret)).toBe("RATE_LIMITED");

  await connect(page, server, rootKey, first);
  await page.goto(`${server.url}/identities/${identityId}`);
  await expect(page.getByRole("heading", { level: 1, name: external })).toBeVisible();
  await expect(page.getByRole("region", { name: "Shared rate limits" })).toContainText(
    "requests 1 per 1 hour, checked on every verification of its keys",
  );
  const keys = page.getByRole("table", { name: "The identity’s keys" });
  await expect(keys.getByRole("link", { name: "Billing worker" })).toBeVisible();
  await expect(keys.getByRole("link", { name: "Partner sync" })).toBeVisible();
  await expect(keys.getByRole("rowheader")).toHaveCount(2);
  const looked = page.locator(".identity-keys__searched");
  await expect(looked).toContainText("The whole workspace (keys.listKeys): 2 keys");
  await expect(looked).toContainText(`${first} (this connection’s API): 1 key`);
  // The other API, added: searched with apis.listKeys and its externalId.
  const asked = page.waitForRequest(
    (request) =>
      request.url().endsWith("/v2/apis.listKeys") && (request.postDataJSON() as { apiId?: string }).apiId === second,
  );
  await page.getByRole("textbox", { name: "Search another API" }).fill(second);
  await page.getByRole("button", { name: "Search it" }).click();
  expect((await asked).postDataJSON()).toEqual({ apiId: second, externalId: external });
  await expect(looked).toContainText(`${second} (added here): 1 key`);
  await expect(keys.getByRole("row", { name: /Partner sync/ })).toContainText(second);
  await expect(
    page.getByText(
      /^Refused mostly because callers went over its shared rate limit “requests” \(1 per 1 hour\), one counter for every key of/,
    ),
  ).toBeVisible();
  await saveScreenshot(page, "identity-page");

  await page.getByRole("button", { name: "Edit rate limits and meta" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit identity" });
  await dialog.getByRole("spinbutton", { name: "Requests" }).fill("5");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Shared rate limits" })).toContainText("requests 5 per 1 hour");
  // The counter is kept (the limit kept its name): one used of five, so the next verification passes.
  expect(await verifyCode(server, rootKey, partner.secret)).toBe("VALID");
});

test("an identity created from its page exists through the API, and deleting it leaves its keys verifying without it", async ({
  page,
  server,
}) => {
  const { admin, rootKey } = await workspaceOf(server, "e2e-identity-create");
  const external = `team_new${Date.now().toString(36)}`;
  await connect(page, server, rootKey);
  await page.getByRole("link", { name: "Identities" }).click();
  await page.getByRole("button", { name: "Create identity" }).click();
  const create = page.getByRole("dialog", { name: "Create identity" });
  await create.getByRole("textbox", { name: "External id" }).fill(external);
  await create.getByRole("textbox", { name: "Meta (JSON object)" }).fill('{"plan": "pro"}');
  await create.getByRole("button", { name: "Add a rate limit" }).click();
  await create.getByRole("textbox", { name: "Limit name" }).fill("requests");
  await create.getByRole("spinbutton", { name: "Requests" }).fill("100");
  await create.getByRole("spinbutton", { name: "Per seconds" }).fill("60");
  await create.getByRole("button", { name: "Create identity" }).click();
  await expect(page.getByRole("heading", { level: 1, name: external })).toBeVisible();
  const identityId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const made = await call(server, rootKey, "identities.getIdentity", { identity: external });
  expect(made.body.data).toMatchObject({
    id: identityId,
    externalId: external,
    meta: { plan: "pro" },
    ratelimits: [{ name: "requests", limit: 100, duration: 60_000, autoApply: true }],
  });

  const key = await keyOf(admin, ["--name", "Its only key", "--external-id", external]);
  await page.reload();
  await expect(
    page.getByRole("table", { name: "The identity’s keys" }).getByRole("link", { name: "Its only key" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Delete" }).click();
  const remove = page.getByRole("dialog", { name: "Delete identity" });
  await expect(remove).toContainText(
    "Its keys are not deleted. Its 1 key stays and keeps verifying, as keys of no identity",
  );
  await expect(remove.getByRole("button", { name: "Delete identity" })).toBeDisabled();
  await remove.getByRole("textbox", { name: `Type ${external} to confirm` }).fill(external);
  await remove.getByRole("button", { name: "Delete identity" }).click();
  await expect(page).toHaveURL(`${server.url}/identities`);
  expect((await call(server, rootKey, "identities.getIdentity", { identity: identityId })).status).toBe(404);
  const verified = await call(server, rootKey, "keys.verifyKey", { key: key.secret });
  expect(verified.body.data).toMatchObject({ valid: true, code: "VALID" });
  expect(verified.body.data?.identity).toBeUndefined();
});

test("a root key without identity.*.read_identity is told which permission it needs, and the header's link says it", async ({
  page,
  server,
}) => {
  const { admin, rootKey } = await workspaceOf(server, "e2e-identity-refused", ["api.*.read_key", "api.*.read_api"]);
  await admin(["identities", "create", "--external-id", "org_hidden"]);
  await connect(page, server, rootKey);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Identities" }).click();
  const notice = page.getByRole("region", { name: "This root key may not read identities" });
  await expect(notice).toContainText("Listing identities needs identity.*.read_identity");
  await expect(notice).toContainText("npm run admin -- root-key create --permissions 'identity.*.read_identity,…'");
  await expect(page.getByRole("list", { name: "Identities" })).toHaveCount(0);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Identities" }),
  ).toHaveAccessibleDescription("Identities: this root key may not read them (it needs identity.*.read_identity)");
  await saveScreenshot(page, "identities-refused");
});

test("through a proxy to a deployment without identities, the section says it is not available there", async ({
  page,
}) => {
  const realKey = "unkey_3ZbQ7rEalServiceKeyId9";
  const real = await startRealShapeServer({ rootKey: realKey, apiId: "api_4Fh8sRealApi", keys: [] });
  const proxy = await startServer({ args: ["--upstream", real.url] });
  try {
    await connect(page, proxy, realKey, "api_4Fh8sRealApi");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Identities" }).click();
    const notice = page.getByRole("region", { name: "Identities are not available on this connection" });
    await expect(notice).toContainText("has no identities.listIdentities: it answered 404 for the operation itself");
    expect(real.requests).toContain("/v2/identities.listIdentities");
    await saveScreenshot(page, "identities-missing");
  } finally {
    await proxy.stop();
    await real.stop();
  }
});

test("from a key's page, its identity is a link to the identity's page", async ({ page, server }) => {
  const { admin, rootKey } = await workspaceOf(server, "e2e-identity-link");
  const external = `org_link${Date.now().toString(36)}`;
  const identityId = await admin(["identities", "create", "--external-id", external]);
  const key = await keyOf(admin, ["--name", "Linked key", "--external-id", external]);
  await connect(page, server, rootKey);
  await page.goto(`${server.url}/keys/${key.keyId}`);
  await page.getByRole("link", { name: `Identity ${external}` }).click();
  await expect(page).toHaveURL(`${server.url}/identities/${identityId}`);
  await expect(page.getByRole("heading", { level: 1, name: external })).toBeVisible();
});

/** Presses Tab until `target` has the focus (at most `max` times): a keyboard user's way there. */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>, max = 60): Promise<void> {
  for (let step = 0; step < max; step++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test("keyboard only: from the header to an identity through the list's rows, and its Edit opened and closed", async ({
  page,
  server,
}) => {
  const { admin, rootKey } = await workspaceOf(server, "e2e-identity-keyboard");
  for (const external of ["kb_alpha", "kb_beta", "kb_gamma"])
    await admin(["identities", "create", "--external-id", external]);
  await connect(page, server, rootKey);
  const nav = page.getByRole("navigation", { name: "Main" });
  await tabTo(page, nav.getByRole("link", { name: "Identities" }));
  await page.keyboard.press("Enter");
  const list = page.getByRole("list", { name: "Identities" });
  await expect(list.getByRole("link")).toHaveCount(3);
  // Listed by id, as the service pages them: the order is the list's own.
  const names = await list.getByRole("link").allTextContents();
  await tabTo(page, list.getByRole("link", { name: names[0] }));
  await page.keyboard.press("End");
  await expect(list.getByRole("link", { name: names[2] })).toBeFocused();
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowDown");
  await expect(list.getByRole("link", { name: names[1] })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: names[1] })).toBeVisible();
  const edit = page.getByRole("button", { name: "Edit rate limits and meta" });
  await tabTo(page, edit);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Edit identity" });
  await expect(dialog.getByRole("button", { name: "Add a rate limit" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();
  const week = page.getByRole("button", { name: "7 days" });
  await tabTo(page, week);
  await page.keyboard.press("Enter");
  await expect(week).toHaveAttribute("aria-pressed", "true");
});

test.describe("at 375 px and on a desktop, light and dark", () => {
  // axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
  test.use({ bypassCSP: true });

  test("the header's sections stay one row that scrolls, each reached by Tab comes into view, and the Identities pages never scroll sideways", async ({
    page,
    server,
  }) => {
    const { admin, rootKey } = await workspaceOf(server, "e2e-identity-phone");
    const external = `org_phone${Date.now().toString(36)}`;
    const identityId = await admin([
      "identities",
      "create",
      "--external-id",
      external,
      "--ratelimit",
      "100/1m",
      "--meta",
      '{"plan":"pro"}',
    ]);
    await keyOf(admin, ["--name", "Phone key", "--external-id", external]);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.emulateMedia({ colorScheme: "dark" });
    await connect(page, server, rootKey);
    await page.goto(`${server.url}/identities`);
    await expect(page.getByRole("link", { name: external })).toBeVisible();

    const nav = page.getByRole("navigation", { name: "Main" });
    const links = nav.getByRole("link");
    const tops = await links.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().top));
    expect(new Set(tops).size, "the sections are one row").toBe(1);
    for (const link of await links.all()) {
      await tabTo(page, link);
      const box = await link.boundingBox();
      expect(box?.x ?? -1, "a focused section is in view").toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    }
    // The section shown is in view when the page opens.
    await page.goto(`${server.url}/identities`);
    const current = nav.locator('[aria-current="page"]');
    const box = await current.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375).toBe(true);

    const sideways = () =>
      page.evaluate(() =>
        Math.max(document.documentElement.scrollWidth, document.querySelector(".app__main")?.scrollWidth ?? 0),
      );
    expect(await sideways()).toBeLessThanOrEqual(375);
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `identities-375-${scheme}`)),
    ).toEqual({
      light: [],
      dark: [],
    });

    await page.goto(`${server.url}/identities/${identityId}`);
    await expect(page.getByRole("link", { name: "Phone key" })).toBeVisible();
    await expect(page.getByText(/^None of its keys was verified/)).toBeVisible();
    expect(await sideways()).toBeLessThanOrEqual(375);
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `identity-375-${scheme}`)),
    ).toEqual({ light: [], dark: [] });

    for (const [button, name] of [
      ["Edit rate limits and meta", "Edit identity"],
      ["Delete", "Delete identity"],
    ] as const) {
      await page.getByRole("button", { name: button }).click();
      const dialog = page.getByRole("dialog", { name });
      await expect(
        dialog.getByRole("button", { name: name === "Edit identity" ? "Save" : "Delete identity" }),
      ).toBeVisible();
      expect(await sideways()).toBeLessThanOrEqual(375);
      expect(
        await seriousViolationsInBothThemes(page, (scheme) =>
          saveScreenshot(page, `identity-${name.split(" ")[0]?.toLowerCase()}-375-${scheme}`),
        ),
      ).toEqual({ light: [], dark: [] });
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/identities`);
    await page.getByRole("button", { name: "Create identity" }).click();
    await expect(
      page.getByRole("dialog", { name: "Create identity" }).getByRole("textbox", { name: "External id" }),
    ).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `identity-create-${scheme}`)),
    ).toEqual({ light: [], dark: [] });
  });

  test("a refused section has no serious violation either", async ({ page, server }) => {
    const { admin, rootKey } = await workspaceOf(server, "e2e-identity-refused-axe", ["api.*.read_key"]);
    // An identity to be refused: a workspace without any lists none to anyone.
    await admin(["identities", "create", "--external-id", "org_axe"]);
    await page.setViewportSize({ width: 375, height: 812 });
    await connect(page, server, rootKey);
    await page.goto(`${server.url}/identities`);
    await expect(page.getByRole("region", { name: "This root key may not read identities" })).toBeVisible();
    expect(
      await seriousViolationsInBothThemes(page, (scheme) => saveScreenshot(page, `identities-refused-375-${scheme}`)),
    ).toEqual({ light: [], dark: [] });
  });
});

test("a limit changed in one tab shows in another tab's page of the identity", async ({ page, context, server }) => {
  const { admin, rootKey } = await workspaceOf(server, "e2e-identity-tabs");
  const external = `org_tabs${Date.now().toString(36)}`;
  const identityId = await admin(["identities", "create", "--external-id", external, "--ratelimit", "10/1m"]);
  await connect(page, server, rootKey);
  const other = await context.newPage();
  await connect(other, server, rootKey);
  for (const tab of [page, other]) {
    await tab.goto(`${server.url}/identities/${identityId}`);
    await expect(tab.getByRole("region", { name: "Shared rate limits" })).toContainText("requests 10 per 1 minute");
  }
  await page.getByRole("button", { name: "Edit rate limits and meta" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit identity" });
  await dialog.getByRole("spinbutton", { name: "Requests" }).fill("25");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(other.getByRole("region", { name: "Shared rate limits" })).toContainText("requests 25 per 1 minute");
});
