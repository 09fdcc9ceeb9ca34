import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

interface AxeResultShape {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Injected once per document (a navigation drops it); only violations are collected, which is all that is read.
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: { resultTypes: string[] }) => Promise<AxeResultShape> };
      }
    ).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(" ")),
    }));
}

/**
 * axe on the page as it is now, in the light theme and then in the dark one (only the colours change between
 * the two: the same page, not a second visit). Each theme is checked once its colour transitions have ended;
 * `afterEach` runs in each theme after axe (a screenshot, say).
 */
export async function seriousViolationsInBothThemes(
  page: Page,
  afterEach?: (colorScheme: "light" | "dark") => Promise<void>,
): Promise<Record<"light" | "dark", AxeViolation[]>> {
  const found = { light: [] as AxeViolation[], dark: [] as AxeViolation[] };
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
    );
    found[colorScheme] = await seriousViolations(page);
    await afterEach?.(colorScheme);
  }
  return found;
}
