import type { Page } from "@playwright/test";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

/** Refresh until the API refuses with 429, then open the guided panel of the failed refresh. */
async function refreshUntilRateLimited(page: Page) {
  const notice = page.getByRole("region", { name: "Refresh failed" });
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(notice).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(notice).toContainText("Refresh failed: Too many requests: wait a moment.");
  await notice.getByRole("button", { name: "Show details" }).click();
  return page.getByRole("alert", { name: "Too many requests: wait a moment" });
}

function secondsIn(text: string | null): number {
  const match = /Try again in (\d+) s/.exec(text ?? "");
  if (!match?.[1]) throw new Error(`no countdown in "${text}"`);
  return Number(match[1]);
}

test("a spent rate limit shows a countdown that ticks down, with Retry disabled until it ends", async ({
  page,
  server,
}) => {
  const rootKey = await server.admin(["root-key", "create", "--name", "limited", "--ratelimit", "2/60s"]);
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^[\d,]+ keys$/)).toBeVisible();

  const panel = await refreshUntilRateLimited(page);
  await expect(panel).toContainText("HTTP 429");
  const timer = panel.getByRole("timer");
  const first = secondsIn(await timer.textContent());
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(60);
  await expect(panel.getByRole("button", { name: "Retry" })).toBeDisabled();
  await expect
    .poll(async () => secondsIn(await timer.textContent()), { timeout: 5_000 })
    .toBeLessThanOrEqual(first - 2);
  await expect(panel.getByRole("button", { name: "Retry" })).toBeDisabled();
  // The keys loaded before stay on screen, marked as not current, and Refresh waits for the countdown too (14.11).
  await expect(page.getByText(/^[\d,]+ keys · not current$/)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Refresh in \d+ s$/ })).toHaveAttribute("aria-disabled", "true");
  await saveScreenshot(page, "panel-rate-limited");
});

test("when the countdown ends, Retry is enabled again and a retry lists the keys", async ({ page, server }) => {
  const rootKey = await server.admin(["root-key", "create", "--name", "briefly limited", "--ratelimit", "2/4s"]);
  await page.goto(server.url);
  await enterKey(page, rootKey);
  await expect(page.getByText(/^[\d,]+ keys$/)).toBeVisible();

  const panel = await refreshUntilRateLimited(page);
  const retry = panel.getByRole("button", { name: "Retry" });
  await expect(retry).toBeDisabled();
  await expect(panel.getByRole("timer")).toHaveText("You can try again now", { timeout: 8_000 });
  await expect(retry).toBeEnabled();
  await retry.click();
  await expect(page.getByRole("region", { name: "Refresh failed" })).toHaveCount(0);
  await expect(page.getByText(/^[\d,]+ keys$/)).toBeVisible();
});
