import { startGateway } from "../support/gateway";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

test("a server that serves the dashboard but redirects every POST /v2/* to another origin is called a redirect, not 'down'", async ({
  page,
  server,
  rootKey,
}) => {
  // The same API under another origin (localhost instead of 127.0.0.1): the redirect leads somewhere that answers.
  const elsewhere = server.url.replace("127.0.0.1", "localhost");
  const gateway = await startGateway({
    target: server.url,
    respond: (method, path) =>
      method === "POST" && path.startsWith("/v2/")
        ? { status: 307, headers: { location: `${elsewhere}${path}` }, body: "" }
        : undefined,
  });
  try {
    await page.goto(gateway.url);
    await enterKey(page, rootKey);
    const panel = page.getByRole("alert");
    await expect(panel.getByRole("heading", { level: 2 })).toHaveText("The API's address answers with a redirect");
    await expect(panel).not.toContainText("nothing answers");
    await expect(panel).toContainText("grep -i '^location'");
    await saveScreenshot(page, "panel-redirect");

    await page.goto(`${gateway.url}/troubleshoot`);
    await page.getByRole("button", { name: "Run diagnostics" }).click();
    await expect(page.getByRole("listitem").first()).toContainText(
      "Answered with a redirect this page may not follow or read",
    );
    const diagnosis = page.getByRole("region", { name: "Diagnosis" });
    await expect(diagnosis).toContainText(`The address ${gateway.url} answers, but with a redirect to another address`);
    await expect(diagnosis).not.toContainText("server is down");
    await saveScreenshot(page, "troubleshoot-redirect");
  } finally {
    await gateway.stop();
  }
});
