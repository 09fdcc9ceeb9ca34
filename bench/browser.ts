import { cpSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { BROWSER_ARGS, findBrowser } from "../test/e2e/find-browser";
import { APP_DIST, FLOOR_PAGE_DIR } from "./lib/paths";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";

const FIRST_ROW_MARK = "keyscope:first-row";
/** Where the floor page is served from: copied into the dashboard's dist directory, so the same server sends it. */
const FLOOR_PAGE_PATH = "/bench-floor/index.html";
/** Frames are timed without the 60 Hz cap, so a frame's length is its work, not the wait for vsync. */
const UNCAPPED_FRAMES = ["--disable-frame-rate-limit", "--disable-gpu-vsync"];
const VIEWPORT = { width: 1280, height: 800 };

export interface BrowserBenchOptions {
  url: string;
  rootKey: string;
  firstRowRuns: number;
  manyKeysRuns: number;
  manyKeys: number;
  log: (line: string) => void;
}

/** Copies bench/floor-page into the served dist directory (after the bundle was measured). */
export function installFloorPage(): void {
  cpSync(FLOOR_PAGE_DIR, join(APP_DIST, "bench-floor"), { recursive: true });
}

async function newContext(browser: Browser, url: string, rootKey: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  // tsx (esbuild keepNames) wraps named functions in __name(); functions sent to page.evaluate need it defined.
  await context.addInitScript({ content: "globalThis.__name ??= (target) => target;" });
  // The key-store's own format: the dashboard finds a key already entered in this tab.
  await context.addInitScript(
    ({ apiKey, baseUrl }) => {
      sessionStorage.setItem("keyscope.baseUrl", baseUrl);
      sessionStorage.setItem("keyscope.apiKey", apiKey);
    },
    { apiKey: rootKey, baseUrl: url },
  );
  return context;
}

async function firstRowTime(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    (mark) => performance.getEntriesByName(mark)[0]?.startTime,
    FIRST_ROW_MARK,
    { timeout: 20_000, polling: 50 },
  );
  const value = await handle.jsonValue();
  if (typeof value !== "number") throw new Error("no first-row mark");
  return value;
}

/** Navigation start to the first-row mark, in a fresh context (empty HTTP cache) each time. */
async function timeToFirstRow(browser: Browser, url: string, rootKey: string, path: string): Promise<number> {
  const context = await newContext(browser, url, rootKey);
  try {
    const page = await context.newPage();
    await page.goto(`${url}${path}`);
    return await firstRowTime(page);
  } finally {
    await context.close();
  }
}

async function heapUsedBytes(context: BrowserContext, page: Page): Promise<number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("Performance.enable");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const heap = metrics.find((metric) => metric.name === "JSHeapUsedSize")?.value;
  if (heap === undefined) throw new Error("no JSHeapUsedSize metric");
  return heap;
}

/** Scrolls `selector` from top to bottom over `frames` animation frames; resolves each frame's length in ms. */
function scrollFrames(page: Page, selector: string, frames: number): Promise<number[]> {
  return page.evaluate(
    async ({ selector, frames }) => {
      const scroller = document.querySelector(selector);
      if (!(scroller instanceof HTMLElement)) throw new Error(`no ${selector}`);
      scroller.scrollTop = 0;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const end = scroller.scrollHeight - scroller.clientHeight;
      const lengths: number[] = [];
      let previous = performance.now();
      await new Promise<void>((resolve) => {
        let frame = 0;
        const tick = (now: number) => {
          lengths.push(now - previous);
          previous = now;
          frame += 1;
          if (frame > frames) {
            resolve();
            return;
          }
          scroller.scrollTop = Math.round((end * frame) / frames);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      // The first entry is the wait for the first frame, not a frame.
      return lengths.slice(1);
    },
    { selector, frames },
  );
}

interface ManyKeysRun {
  loaded: number;
  rowElements: number;
  heapBytes: number;
  frameMedianMs: number;
  frameP90Ms: number;
}

/** The dashboard: scroll the table to its end until `wanted` keys are loaded (it loads a page of 100 near the end). */
async function manyKeysOurs(browser: Browser, url: string, rootKey: string, wanted: number, frames: number): Promise<ManyKeysRun> {
  const context = await newContext(browser, url, rootKey);
  try {
    const page = await context.newPage();
    await page.goto(`${url}/keys`);
    await firstRowTime(page);
    const loaded = await page.evaluate(async (wanted) => {
      const count = () => Number(document.querySelector('[role="table"][aria-label="API keys"]')?.getAttribute("aria-rowcount") ?? 1) - 1;
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      while (count() < wanted) {
        const before = count();
        const scroller = document.querySelector(".keys-table__scroller");
        if (scroller === null) throw new Error("no keys table");
        scroller.scrollTop = scroller.scrollHeight;
        const deadline = performance.now() + 10_000;
        while (count() === before && performance.now() < deadline) await sleep(10);
        if (count() === before) break;
      }
      return count();
    }, wanted);
    const rowElements = await page.locator('[role="table"][aria-label="API keys"] .keys-table__body [role="row"]').count();
    const heapBytes = await heapUsedBytes(context, page);
    const lengths = await scrollFrames(page, ".keys-table__scroller", frames);
    return { loaded, rowElements, heapBytes, frameMedianMs: median(lengths), frameP90Ms: quantile(lengths, 0.9) };
  } finally {
    await context.close();
  }
}

/** The floor page holding the same keys as parsed JSON (its 100 first rows in a plain table). */
async function manyKeysFloor(browser: Browser, url: string, rootKey: string, wanted: number, frames: number): Promise<ManyKeysRun> {
  const context = await newContext(browser, url, rootKey);
  try {
    const page = await context.newPage();
    await page.goto(`${url}${FLOOR_PAGE_PATH}?keys=${wanted}`);
    await page.waitForFunction(() => document.body.dataset.loaded !== undefined, undefined, { timeout: 60_000 });
    const loaded = Number(await page.evaluate(() => document.body.dataset.loaded));
    const rowElements = await page.locator("tbody tr").count();
    const heapBytes = await heapUsedBytes(context, page);
    const lengths = await scrollFrames(page, "html", frames);
    return { loaded, rowElements, heapBytes, frameMedianMs: median(lengths), frameP90Ms: quantile(lengths, 0.9) };
  } finally {
    await context.close();
  }
}

export async function chromiumVersion(): Promise<string> {
  const browser = await chromium.launch({ executablePath: findBrowser(), args: BROWSER_ARGS });
  try {
    return browser.version();
  } finally {
    await browser.close();
  }
}

export async function benchBrowser(options: BrowserBenchOptions): Promise<BenchRow[]> {
  const { url, rootKey, log } = options;
  installFloorPage();
  const executablePath = findBrowser();

  const browser = await chromium.launch({ executablePath, args: BROWSER_ARGS });
  const ours: number[] = [];
  const floor: number[] = [];
  try {
    // Warm-up (server JIT, the OS file cache, Chromium's own start-up work), not counted.
    for (let index = 0; index < 2; index += 1) {
      await timeToFirstRow(browser, url, rootKey, "/keys");
      await timeToFirstRow(browser, url, rootKey, FLOOR_PAGE_PATH);
    }
    for (let run = 0; run < options.firstRowRuns; run += 1) {
      // Alternate which goes first, so neither always runs right after the other.
      const order = run % 2 === 0 ? (["ours", "floor"] as const) : (["floor", "ours"] as const);
      for (const which of order) {
        const time = await timeToFirstRow(browser, url, rootKey, which === "ours" ? "/keys" : FLOOR_PAGE_PATH);
        (which === "ours" ? ours : floor).push(time);
      }
      log(`browser: first row run ${run + 1}: ours ${round(ours.at(-1) ?? 0, 1)} ms, floor ${round(floor.at(-1) ?? 0, 1)} ms`);
    }
  } finally {
    await browser.close();
  }

  const uncapped = await chromium.launch({ executablePath, args: [...BROWSER_ARGS, ...UNCAPPED_FRAMES] });
  const oursMany: ManyKeysRun[] = [];
  const floorMany: ManyKeysRun[] = [];
  const frames = 600;
  try {
    for (let run = 0; run < options.manyKeysRuns; run += 1) {
      oursMany.push(await manyKeysOurs(uncapped, url, rootKey, options.manyKeys, frames));
      floorMany.push(await manyKeysFloor(uncapped, url, rootKey, options.manyKeys, frames));
      log(`browser: many keys run ${run + 1}: ours ${JSON.stringify(oursMany.at(-1))}, floor ${JSON.stringify(floorMany.at(-1))}`);
    }
  } finally {
    await uncapped.close();
  }

  const loaded = median(oursMany.map((run) => run.loaded));
  const manyMethod = `${options.manyKeysRuns} runs, interleaved with the floor; the dashboard loads pages of 100 by scrolling its table to the end until ${options.manyKeys.toLocaleString("en")} keys are loaded (it loaded ${loaded.toLocaleString("en")})`;
  return [
    makeRow({
      id: "time-to-first-row",
      label: "Time to first key row (key in session)",
      unit: "ms",
      ours,
      floor,
      goal: { kind: "ratio-at-most", target: 1.3 },
      paired: true,
      method: `headless Chromium, navigation start to performance.mark("${FIRST_ROW_MARK}"), fresh context (empty cache) each run, ${options.firstRowRuns} interleaved runs, ratio: median of each run's ours/floor; floor: bench/floor-page (one fetch, DOM calls), served by the same reference server from the same dist directory`,
    }),
    makeRow({
      id: "many-keys-row-elements",
      label: `Row elements in the DOM with ${loaded.toLocaleString("en")} keys loaded`,
      unit: "rows",
      ours: oursMany.map((run) => run.rowElements),
      goal: { kind: "value-at-most", target: 200 },
      method: manyMethod,
      details: { loaded },
    }),
    makeRow({
      id: "many-keys-heap",
      label: `JS heap with ${loaded.toLocaleString("en")} keys loaded`,
      unit: "MiB",
      ours: oursMany.map((run) => run.heapBytes / 1024 / 1024),
      floor: floorMany.map((run) => run.heapBytes / 1024 / 1024),
      goal: { kind: "none" },
      method: `${manyMethod}; CDP Performance.getMetrics JSHeapUsedSize after a forced GC; floor: the floor page holding the same keys as parsed JSON`,
      details: { floorLoaded: median(floorMany.map((run) => run.loaded)) },
    }),
    makeRow({
      id: "many-keys-scroll-frames",
      label: "Frame length scrolling to the end (median)",
      unit: "ms",
      ours: oursMany.map((run) => run.frameMedianMs),
      goal: { kind: "value-below", target: 16 },
      method: `${manyMethod}; requestAnimationFrame deltas while scrollTop goes top to end in ${frames} frames, Chromium without the 60 Hz cap (${UNCAPPED_FRAMES.join(" ")}), so a frame lasts as long as its work; no floor: the floor page's 100 plain rows scroll a far shorter distance, its frames are in details only`,
      details: {
        oursP90Ms: round(median(oursMany.map((run) => run.frameP90Ms)), 2),
        floorPageMedianMs: round(median(floorMany.map((run) => run.frameMedianMs)), 2),
      },
    }),
  ];
}
