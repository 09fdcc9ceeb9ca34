import type { Page } from "@playwright/test";
import { startGateway } from "../support/gateway";
import { startRealShapeServer } from "../support/real-shape-server";
import { startServer } from "../support/server-process";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

/** Run diagnostics on the troubleshoot page and wait for the diagnosis. */
async function runDiagnostics(page: Page) {
  await page.getByRole("button", { name: "Run diagnostics" }).click();
  const diagnosis = page.getByRole("region", { name: "Diagnosis" });
  await expect(diagnosis).toBeVisible({ timeout: 20_000 });
  return diagnosis;
}

/** From a guided error panel to the troubleshoot page, as a person would. */
async function openTroubleshootFromPanel(page: Page) {
  await page.getByRole("alert").getByRole("link", { name: "Troubleshooting guide" }).click();
  await expect(page).toHaveURL(/\/troubleshoot$/);
  await expect(page).toHaveTitle(/Troubleshoot/);
}

test("a working key: every step passes and the diagnosis says how many keys it lists", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Troubleshoot" }).click();
  const diagnosis = await runDiagnostics(page);
  await expect(diagnosis).toContainText(/All good: the key works and lists (at least )?\d+ keys/);
  await expect(page.getByText("Asked for credentials, as the API should")).toBeVisible();
  await expect(page.getByRole("link", { name: "err:svc:authentication:missing" })).toHaveAttribute(
    "href",
    `${server.url}/docs/errors/svc/authentication/missing`,
  );
  await saveScreenshot(page, "troubleshoot-all-good");
});

test("through a gateway that strips Authorization, the diagnosis names the stripping", async ({
  page,
  server,
  rootKey,
}) => {
  const gateway = await startGateway({ target: server.url, stripAuthorization: true });
  try {
    await page.goto(gateway.url);
    await enterKey(page, rootKey);
    await openTroubleshootFromPanel(page);
    const diagnosis = await runDiagnostics(page);
    await expect(diagnosis).toContainText(
      "Something between your browser and the API stripped the Authorization header.",
    );
    await expect(diagnosis).toContainText(
      "Keyscope sent your key in the Authorization header, but the API says no credentials arrived",
    );
    await saveScreenshot(page, "troubleshoot-stripped");
  } finally {
    await gateway.stop();
  }
});

test("a base URL that redirects to another origin is named as the cause", async ({ page, server, rootKey }) => {
  let target = "";
  // The page and the API are reached through the gateway; the API answers with a 307 to another origin.
  const gateway = await startGateway({
    target: server.url,
    respond: (_method, path) =>
      path.startsWith("/v2/") ? { status: 307, headers: { location: `${target}${path}` }, body: "" } : undefined,
  });
  const other = await startServer({ args: ["--cors-origin", gateway.url] });
  target = other.url;
  try {
    await page.goto(`${gateway.url}/troubleshoot`);
    await page.getByLabel("Key to test").fill(rootKey);
    // No key is stored yet, so the page tests its own origin: the gateway.
    const diagnosis = await runDiagnostics(page);
    await expect(diagnosis).toContainText(`The base URL redirects to ${other.url}, another origin`);
    await expect(diagnosis).toContainText("browsers drop the Authorization header");
    await saveScreenshot(page, "troubleshoot-redirect");
  } finally {
    await other.stop();
    await gateway.stop();
  }
});

test("a pasted key with a space inside gets key entry's checks first and is not sent", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
  await page.getByLabel("Key to test").fill(`${rootKey.slice(0, 12)} ${rootKey.slice(12)}`);
  const diagnosis = await runDiagnostics(page);
  await expect(diagnosis).toContainText(
    `The key was not sent, because key entry's checks refuse it: The key contains a space after “${rootKey.slice(0, 8)}…”`,
  );
  await expect(page.getByRole("listitem").nth(2)).toContainText("Skipped: key entry's checks refuse the key");
  await saveScreenshot(page, "troubleshoot-key-refused");
});

test("a pasted key with Bearer in front is sent as pasted and named malformed, with the reason", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
  await page.getByLabel("Key to test").fill(`Bearer ${rootKey}`);
  const diagnosis = await runDiagnostics(page);
  await expect(diagnosis).toContainText("The Authorization header is not in the form the API expects.");
  await expect(diagnosis).toContainText("the header became “Bearer Bearer …”");
  await expect(page.getByText("err:svc:authentication:malformed", { exact: true })).toBeVisible();
  await saveScreenshot(page, "troubleshoot-malformed");
});

test("an unknown key is named, and so is a revoked one", async ({ page, server }) => {
  await page.goto(server.url);
  await enterKey(page, "ks_root_ThisKeyDoesNotExist1234567");
  await openTroubleshootFromPanel(page);
  let diagnosis = await runDiagnostics(page);
  await expect(diagnosis).toContainText("The API does not know this root key.");
  await expect(diagnosis).toContainText("it never existed there, or it was revoked");
  await saveScreenshot(page, "troubleshoot-unknown-key");

  const revoked = await server.admin(["root-key", "create", "--name", "to revoke"]);
  const list = await server.admin(["root-key", "list"]);
  const id = list
    .split("\n")
    .find((line) => line.includes("to revoke"))
    ?.match(/key_\w+/)?.[0];
  expect(id).toBeDefined();
  await server.admin(["root-key", "revoke", id ?? ""]);
  await page.getByLabel("Key to test").fill(revoked);
  diagnosis = await runDiagnostics(page);
  await expect(diagnosis).toContainText(/does not know this root key\..*revoked/);
});

test("a key from another environment is found there after a click, and Keyscope switches to it", async ({
  page,
  server,
}) => {
  const production = await startServer({ args: ["--cors-origin", server.url] });
  try {
    const productionKey = await production.admin(["root-key", "create", "--name", "prod"]);
    await page.goto(`${server.url}/connect`);
    const add = page.getByRole("form", { name: "Add an environment" });
    for (const [name, url] of [
      ["Development", server.url],
      ["Production", production.url],
    ] as const) {
      await add.getByLabel("Environment name").fill(name);
      await add.getByLabel("Environment URL").fill(url);
      await add.getByRole("button", { name: "Add environment" }).click();
    }
    // Key entry suggests this page's origin, so Development is active before any choice.
    await expect(page.getByTestId("environment-badge")).toHaveText(/Development$/);
    await saveScreenshot(page, "environments");
    await enterKey(page, productionKey);
    await expect(page.getByRole("alert")).toContainText("The API does not know this root key");
    await openTroubleshootFromPanel(page);
    const diagnosis = await runDiagnostics(page);
    await expect(diagnosis).toContainText("does not know this root key");
    await diagnosis.getByRole("button", { name: "Try this key in Production" }).click();
    await expect(diagnosis).toContainText(
      /This key belongs to Production: .* Production accepts it and lists \d+ keys/,
    );
    await saveScreenshot(page, "troubleshoot-wrong-environment");
    await diagnosis.getByRole("button", { name: "Switch to Production" }).click();
    await expect(page).toHaveURL(/\/keys$/);
    await expect(page.getByTestId("environment-badge")).toHaveText(/Production$/);
    await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).toContain(production.url);
    expect(stored).not.toContain(productionKey);
  } finally {
    await production.stop();
  }
});

test("an API on another origin without CORS gets the CORS guidance with the proxy command", async ({
  page,
  server,
  rootKey,
}) => {
  const api = await startServer();
  try {
    await page.goto(server.url);
    await enterKey(page, rootKey, api.url);
    const panel = page.getByRole("alert");
    await expect(panel).toContainText(`npm start -- --upstream ${api.url}`, { timeout: 15_000 });
    await saveScreenshot(page, "panel-cors");
    await openTroubleshootFromPanel(page);
    const diagnosis = await runDiagnostics(page);
    await expect(page.getByText("Reachable, but CORS-blocked: the browser hides the answer")).toBeVisible();
    await expect(diagnosis).toContainText(`The API at ${api.url} answers, but it sends no CORS headers for this page`);
    await expect(diagnosis.getByText(`npm start -- --upstream ${api.url}`)).toBeVisible();
    await saveScreenshot(page, "troubleshoot-cors");
  } finally {
    await api.stop();
  }
});

test("a rate-limited key is named with the wait", async ({ page, server }) => {
  const limited = await server.admin(["root-key", "create", "--name", "limited", "--ratelimit", "1/60s"]);
  await page.goto(server.url);
  await enterKey(page, limited);
  await expect(page.getByText(/^\d+ keys$/)).toBeVisible();
  await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
  const diagnosis = await runDiagnostics(page);
  await expect(diagnosis).toContainText("Too many requests: wait a moment.");
  await expect(diagnosis.getByRole("timer")).toHaveText(/Try again in \d+ s/);
  await saveScreenshot(page, "troubleshoot-rate-limited");
});

test("a stopped server is named as down", async ({ page, server, rootKey }) => {
  const doomed = await startServer({ args: ["--cors-origin", server.url] });
  await page.goto(server.url);
  await enterKey(page, rootKey, doomed.url);
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
  await expect(page.getByRole("button", { name: "Run diagnostics" })).toBeVisible();
  await doomed.stop();
  const diagnosis = await runDiagnostics(page);
  await expect(diagnosis).toContainText(`Nothing answers at ${doomed.url}: the server is down`);
  await saveScreenshot(page, "troubleshoot-server-down");
});

test.describe("the report", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("the copied report has the request ids and $API_KEY, never the key", async ({ page, server }) => {
    const key = "ks_root_ThisKeyDoesNotExist7654321";
    await page.goto(server.url);
    await enterKey(page, key);
    await openTroubleshootFromPanel(page);
    const diagnosis = await runDiagnostics(page);
    await diagnosis.getByRole("button", { name: "Copy report" }).click();
    await expect(diagnosis.getByText("Copied")).toBeVisible();
    const report = await page.evaluate(() => navigator.clipboard.readText());
    expect(report).toContain("## Keyscope diagnostics");
    expect(report).toContain(server.url);
    expect(report).toMatch(/req_\w+.*\n(.*\n)*.*req_\w+/);
    expect(report).toContain("err:svc:authentication:key_not_found");
    expect(report).toContain('-H "Authorization: Bearer $API_KEY"');
    expect(report).toContain("does not know this root key");
    expect(report).not.toContain(key);
    expect(report).not.toContain(key.slice(8));
  });
});

test("a server answering in the real service's shapes lists its keys through proxy mode", async ({ page }) => {
  const realKey = "unkey_3ZbQ7rEalServiceKey9xT";
  const real = await startRealShapeServer({
    rootKey: realKey,
    apiId: "api_4Fh8sRealApi",
    keys: [
      {
        keyId: "key_2Nw8pReal1",
        name: "Billing worker",
        start: "bil_",
        enabled: true,
        createdAt: Date.now() - 86_400_000,
      },
      {
        keyId: "key_2Nw8pReal2",
        name: "Checkout service",
        start: "chk_",
        enabled: false,
        createdAt: Date.now() - 3_600_000,
      },
    ],
  });
  const proxy = await startServer({ args: ["--upstream", real.url] });
  try {
    await page.goto(proxy.url);
    await enterKey(page, realKey);
    const panel = page.getByRole("alert");
    await expect(panel).toContainText("This API lists keys per API: enter an API ID");
    await saveScreenshot(page, "panel-api-id-needed");
    // The panel asks for the API ID itself: the key stays, and the list loads from apis.listKeys.
    await panel.getByLabel("API ID", { exact: true }).fill("api_4Fh8sRealApi");
    await panel.getByRole("button", { name: "List its keys" }).click();
    await expect(page.getByText("Billing worker")).toBeVisible();
    await expect(page.getByText("Checkout service")).toBeVisible();
    await expect(page.getByText(/^2 keys$/)).toBeVisible();
    expect(real.requests).toContain("/v2/apis.listKeys");

    await page.getByRole("link", { name: "Troubleshoot", exact: true }).click();
    const diagnosis = await runDiagnostics(page);
    await expect(diagnosis).toContainText("All good: the key works and lists 2 keys");
    await expect(page.getByText("err:unkey:application:invalid_input", { exact: true })).toBeVisible();
    await saveScreenshot(page, "troubleshoot-real-service");
  } finally {
    await proxy.stop();
    await real.stop();
  }
});
