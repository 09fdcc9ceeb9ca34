import { seriousViolations } from "./axe";
import { enterKey, expect, saveScreenshot, test } from "./fixtures";

// axe is injected as an inline script, which the dashboard's CSP rightly refuses: only these tests bypass it.
test.use({ bypassCSP: true });

const WIDTHS = [375, 768, 1024, 1280, 1920] as const;

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test("the keys table fits every width without a sideways scroll and stays accessible", async ({ page, server }) => {
      // Five widths, each checked with axe: more work than one screen, not a speed budget.
      test.setTimeout(120_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(server.url);
      await enterKey(page, server.rootKey ?? "");
      const table = page.getByRole("table", { name: "API keys" });
      await expect(table.getByText(/^36 h: /).first()).toBeAttached();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width < 700 ? 740 : 800 });
        await expect(table.getByRole("row").nth(1)).toBeVisible();
        const overflow = () =>
          page.evaluate(() => {
            const scroller = document.querySelector(".keys-table__scroller");
            return {
              page: document.documentElement.scrollWidth - window.innerWidth,
              table: scroller === null ? 0 : scroller.scrollWidth - scroller.clientWidth,
            };
          });
        // Polled: the rows of the width before may still be laid out for a moment after the resize (a fresh clone's
        // run read the wide table at 375 px, where the cards showed a frame later).
        await expect
          .poll(async () => (await overflow()).page, { message: `at ${width} px the page does not scroll sideways` })
          .toBeLessThanOrEqual(0);
        await expect
          .poll(async () => (await overflow()).table, { message: `at ${width} px the table does not scroll sideways` })
          .toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), `axe at ${width} px`).toEqual([]);
        await saveScreenshot(page, `keys-width-${width}-${colorScheme}`);
      }
    });

    test("at a tablet's width the column menu says which chosen columns are folded", async ({ page, server }) => {
      await page.setViewportSize({ width: 768, height: 800 });
      await page.goto(server.url);
      await enterKey(page, server.rootKey ?? "");
      await expect(page.getByRole("table", { name: "API keys" }).getByRole("row").nth(1)).toBeVisible();
      await page.locator("summary", { hasText: "Columns" }).click();
      await expect(page.getByText("Too narrow for every chosen column", { exact: false })).toBeVisible();
      await expect(page.getByRole("checkbox", { name: /^Key ID — folded at this width$/ })).toBeChecked();
      expect(await seriousViolations(page), "axe with the column menu open").toEqual([]);
      await saveScreenshot(page, `keys-width-768-columns-${colorScheme}`);
    });
  });
}
