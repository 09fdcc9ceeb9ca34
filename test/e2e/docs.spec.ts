import { errorDocsPath } from "../../server/docs/render";
import { SERVER_ERROR_CODES } from "../../server/http/errors";
import { expect, saveScreenshot, test } from "./fixtures";

test.describe("on a 360 px screen", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the error reference and every error's page fit without scrolling sideways", async ({ page, server }) => {
    for (const path of ["/docs", ...SERVER_ERROR_CODES.map(errorDocsPath)]) {
      await page.goto(server.url + path);
      const width = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(width.scroll, `${path} is ${width.scroll} px wide on a ${width.client} px screen`).toBeLessThanOrEqual(
        width.client,
      );
      if (path === "/docs") await saveScreenshot(page, "docs-index-360px");
    }
    // The longest code of all, in the page's heading.
    await page.goto(server.url + errorDocsPath("err:keyscope:proxy:upstream_unreachable"));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("err:keyscope:proxy:upstream_unreachable");
    await saveScreenshot(page, "docs-360px");
  });
});

test("/index.html opens the dashboard's home, not its Page not found", async ({ page, server }) => {
  await page.goto(`${server.url}/index.html`);
  await expect(page).toHaveURL(/\/connect$/);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  await expect(page.getByText(/page not found/i)).toHaveCount(0);
});
