import type { Page } from "@playwright/test";
import { answer, startHostileServer } from "../support/hostile-server";
import { startServer } from "../support/server-process";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

/** Run diagnostics on the troubleshoot page, reached from the panel, and wait for the diagnosis. */
async function diagnoseFromPanel(page: Page) {
  await page.getByRole("alert").getByRole("link", { name: "Troubleshooting guide" }).click();
  await page.getByRole("button", { name: "Run diagnostics" }).click();
  const diagnosis = page.getByRole("region", { name: "Diagnosis" });
  await expect(diagnosis).toBeVisible({ timeout: 30_000 });
  return diagnosis;
}

test("plain http to another computer is named as refused by the page, on the Keys page and Troubleshoot alike", async ({
  page,
  server,
}) => {
  await page.goto(server.url);
  // TEST-NET-1: never routed; the page's own policy refuses it before anything is sent.
  await enterKey(page, "ks_root_NetworkFailure1234", "http://192.0.2.10:8787");
  const panel = page.getByRole("alert");
  await expect(panel).toContainText("The browser sent nothing: this page may not call that address", {
    timeout: 20_000,
  });
  await expect(panel).not.toContainText("CORS");
  await expect(panel).not.toContainText("--cors-origin");
  await saveScreenshot(page, "panel-blocked-by-page");
  const diagnosis = await diagnoseFromPanel(page);
  await expect(diagnosis).toContainText("The browser sent nothing to http://192.0.2.10:8787");
});

test("a host name that does not resolve is named as nothing answering, on the Keys page and Troubleshoot alike", async ({
  page,
  server,
}) => {
  await page.goto(server.url);
  await enterKey(page, "ks_root_NetworkFailure1234", "https://keyscope-e2e.invalid");
  const panel = page.getByRole("alert");
  await expect(panel).toContainText("Keyscope could not reach the API", { timeout: 30_000 });
  await expect(panel).toContainText("its host name may not resolve");
  await expect(panel).not.toContainText("CORS headers");
  await saveScreenshot(page, "panel-unresolvable-host");
  const diagnosis = await diagnoseFromPanel(page);
  await expect(diagnosis).toContainText("Nothing answers at https://keyscope-e2e.invalid");
});

test("an upstream that redirects to a sign-in page is named as a redirect with where it goes, never CORS", async ({
  page,
}) => {
  const sso = "https://sso.example.net/login?next=%2Fv2";
  const upstream = await startHostileServer({
    allowOrigin: "http://127.0.0.1",
    respond: () => answer(302, "", { location: sso }),
  });
  const proxy = await startServer({ args: ["--upstream", upstream.url] });
  try {
    await page.goto(proxy.url);
    await enterKey(page, "ks_root_BehindSso1234567", proxy.url);
    const panel = page.getByRole("alert");
    await expect(panel).toContainText("The API behind the proxy redirects to another site", { timeout: 20_000 });
    await expect(panel).toContainText(`a redirect to ${sso}`);
    await saveScreenshot(page, "panel-upstream-redirect");
    const diagnosis = await diagnoseFromPanel(page);
    await expect(diagnosis).toContainText("The API behind the proxy redirects to another site");
    await expect(diagnosis).toContainText(sso);
    await expect(diagnosis).not.toContainText("CORS");
    await expect(diagnosis).not.toContainText(`--upstream ${proxy.url}`);
    await saveScreenshot(page, "troubleshoot-upstream-redirect");
  } finally {
    await proxy.stop();
    await upstream.stop();
  }
});
