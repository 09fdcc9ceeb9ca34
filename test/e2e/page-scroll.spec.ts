import type { Page } from "@playwright/test";
import { createAnalyticsRootKey, enterKey, expect, saveScreenshot, test } from "./fixtures";

/**
 * One scrolling element per page: the main area scrolls, the document never does. A document that scrolls
 * (something laid out past the end of main) lets the wheel over the header slide the whole page away.
 */

// Short enough that a key's page is longer than its main area.
test.use({ viewport: { width: 1024, height: 560 } });

async function documentOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollHeight: root.scrollHeight, clientHeight: root.clientHeight, scrollTop: root.scrollTop };
  });
}

async function headerTop(page: Page): Promise<number> {
  const box = await page.getByRole("banner").boundingBox();
  if (box === null) throw new Error("the header is not laid out");
  return box.y;
}

async function expectNoDocumentScroll(page: Page): Promise<void> {
  const overflow = await documentOverflow(page);
  expect(overflow.scrollHeight, "the document's scrollHeight").toBe(overflow.clientHeight);
}

test("on a long key page, the wheel over the header and past the end of main leaves the header in place", async ({
  page,
  server,
}) => {
  const rootKey = await createAnalyticsRootKey(server, "e2e-scroll");
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  // The table draws the rows in view only: the filter brings the key into it.
  await page.getByRole("searchbox", { name: "Filter keys" }).fill("Nightly data export");
  await page.getByRole("link", { name: "Nightly data export" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Nightly data export" })).toBeVisible();
  // The page is complete and longer than its main area: the usage chart and the refusals are in.
  await expect(
    page
      .getByRole("region", { name: "Refused verifications" })
      .getByRole("link", { name: /^Look up request req_/ })
      .first(),
  ).toBeVisible();
  const main = page.getByRole("main");
  const mainSize = await main.evaluate((element) => ({
    scrollHeight: element.scrollHeight,
    clientHeight: element.clientHeight,
  }));
  expect(mainSize.scrollHeight, "the key page is longer than its main area").toBeGreaterThan(mainSize.clientHeight);

  await expectNoDocumentScroll(page);
  const before = await headerTop(page);
  const header = await page.getByRole("banner").boundingBox();
  const mainBox = await main.boundingBox();
  if (header === null || mainBox === null) throw new Error("the header or main is not laid out");
  const overHeader = () => page.mouse.move(header.x + header.width / 2, header.y + header.height / 2);
  const overMain = () => page.mouse.move(mainBox.x + mainBox.width / 2, mainBox.y + mainBox.height / 2);
  const mainScrollTop = () => main.evaluate((element) => element.scrollTop);

  // The wheel over main, to its end and past it; then over the header.
  // Wheeled again until main stays at its end: parts of the page that load late (the key's actions) may lengthen it
  // after a wheel (a fresh clone's run once found main short of its end).
  await overMain();
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, 20_000);
      return main.evaluate((element) => Math.ceil(element.scrollTop + element.clientHeight) >= element.scrollHeight);
    })
    .toBe(true);
  const bottom = await mainScrollTop();
  await page.mouse.wheel(0, 2000);
  await overHeader();
  await page.mouse.wheel(0, 2000);
  // Wheel events are handled in order: once a last one scrolls main back up, the ones before it have been handled.
  await overMain();
  await page.mouse.wheel(0, -200);
  await expect.poll(mainScrollTop).toBeLessThan(bottom);

  expect(await headerTop(page), "the header's top").toBe(before);
  expect((await documentOverflow(page)).scrollTop, "the document's scrollTop").toBe(0);
  await expectNoDocumentScroll(page);
  await saveScreenshot(page, "page-scroll-key-page-end");
});

test("the keys, troubleshoot and key-entry pages scroll in main only, never the document", async ({
  page,
  server,
  rootKey,
}) => {
  await page.goto(`${server.url}/connect`);
  await expect(page.getByLabel("API key", { exact: true })).toBeVisible();
  await expectNoDocumentScroll(page);

  await enterKey(page, rootKey);
  await expect(page.getByRole("table", { name: "API keys" })).toBeVisible();
  await expectNoDocumentScroll(page);

  await page.getByRole("link", { name: "Troubleshoot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Troubleshoot/ })).toBeVisible();
  await expectNoDocumentScroll(page);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 640 } });

  test("the keys page and a key's page scroll in main only", async ({ page, server }) => {
    const rootKey = await createAnalyticsRootKey(server, "e2e-scroll");
    await page.goto(`${server.url}/connect`);
    await enterKey(page, rootKey);
    await page.getByRole("searchbox", { name: "Filter keys" }).fill("Nightly data export");
    await expect(page.getByRole("link", { name: "Nightly data export" })).toBeVisible();
    await expectNoDocumentScroll(page);
    await saveScreenshot(page, "page-scroll-keys-phone");
    await page.getByRole("link", { name: "Nightly data export" }).click();
    await expect(
      page
        .getByRole("region", { name: "Refused verifications" })
        .getByRole("link", { name: /^Look up request req_/ })
        .first(),
    ).toBeVisible();
    await expectNoDocumentScroll(page);
    await saveScreenshot(page, "page-scroll-key-page-phone");
  });
});
