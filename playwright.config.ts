import { defineConfig } from "@playwright/test";
import { BROWSER_ARGS, findBrowser } from "./test/e2e/find-browser";

export default defineConfig({
  testDir: "test/e2e",
  outputDir: "test-results/e2e",
  globalSetup: "./test/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: findBrowser("headless-shell"), args: BROWSER_ARGS },
    // Recording a trace costs every test about a fifth of its CPU, and a fresh-clone CI keeps none: to debug one,
    // `npx playwright test <spec> --trace retain-on-failure`.
    trace: "off",
    screenshot: "only-on-failure",
  },
});
