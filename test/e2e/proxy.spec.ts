import { createServer } from "node:net";
import { startServer } from "../support/server-process";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

/** A port on this computer that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

test("a proxy whose upstream is down says so, naming its --upstream, instead of blaming the API", async ({ page }) => {
  const upstream = `http://127.0.0.1:${await closedPort()}`;
  const proxy = await startServer({ args: ["--upstream", upstream] });
  try {
    await page.goto(proxy.url);
    await enterKey(page, "ks_root_ThisKeyDoesNotExist1234567");
    const panel = page.getByRole("alert");
    await expect(panel.getByRole("heading", { level: 2 })).toHaveText("The proxy cannot reach the API behind it", {
      timeout: 20_000,
    });
    await expect(panel).toContainText(`its upstream API at ${upstream} (--upstream)`);
    await expect(panel).toContainText("npm start -- --upstream");
    await expect(panel).not.toContainText("failed on its side");
    await saveScreenshot(page, "panel-proxy-upstream-down");
  } finally {
    await proxy.stop();
  }
});
