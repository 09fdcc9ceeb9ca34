import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { BROWSER_ARGS, findBrowser } from "../test/e2e/find-browser";
import { buildFloorApp } from "./bundle";
import { APP_DIST, FLOOR_APP_DIST, FLOOR_PAGE_DIR } from "./lib/paths";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";

/** Where the floors are served from: copied into the dashboard's dist directory, so the same server sends them. */
const FLOOR_PAGE_PATH = "/bench-floor/index.html";
const FLOOR_APP_PATH = "/bench-floor-app/index.html";
/** Frames are timed without the 60 Hz cap, so a frame's length is its work, not the wait for vsync. */
const UNCAPPED_FRAMES = ["--disable-frame-rate-limit", "--disable-gpu-vsync"];
const VIEWPORT = { width: 1280, height: 800 };
/** Where the observer below leaves its time, on the page's global object. */
const FIRST_KEY_ROW_GLOBAL = "__benchFirstKeyRow";

export interface BrowserBenchOptions {
  url: string;
  rootKey: string;
  firstRowRuns: number;
  manyKeysRuns: number;
  manyKeys: number;
  log: (line: string) => void;
}

/**
 * Copies bench/floor-page, and the floor app built with the same Vite (bench/floor-app), into the served dist
 * directory (after the bundle was measured): the floor app's hashed files go beside the dashboard's under
 * /assets/, so both get the same caching headers from the same server.
 */
export async function installFloors(): Promise<void> {
  cpSync(FLOOR_PAGE_DIR, join(APP_DIST, "bench-floor"), { recursive: true });
  await buildFloorApp();
  cpSync(join(FLOOR_APP_DIST, "assets"), join(APP_DIST, "assets"), { recursive: true });
  mkdirSync(join(APP_DIST, "bench-floor-app"), { recursive: true });
  cpSync(join(FLOOR_APP_DIST, "index.html"), join(APP_DIST, FLOOR_APP_PATH));
}

/**
 * Runs in every page before its own scripts: records `performance.now()` (milliseconds since navigation start)
 * the moment an element whose text holds one of `keyIds` enters the DOM, then once the next frame is made; and once
 * the frame is made after such a row enters outside any `inert` subtree (a row a click or a key reaches: the
 * dashboard's page drawn before the app is inert until the app replaces it; a floor's first row is usable at once).
 * The same observer for the dashboard and both floors, so the measure is taken from outside each of them.
 */
function observeFirstKeyRow({ keyIds, global }: { keyIds: string[]; global: string }): void {
  // A plain search for each id: an id's characters may run on into the text after it (a "Copy" button's label).
  const holdsKey = (node: Node) => {
    const text = node.textContent ?? "";
    return text.includes("key_") && keyIds.some((id) => text.includes(id));
  };
  const usable = (node: Node) => {
    const element = node instanceof Element ? node : node.parentElement;
    return element !== null && element.closest("[inert]") === null;
  };
  let seen = false;
  const observer = new MutationObserver((records) => {
    const rows = records.flatMap((record) => (record.type === "characterData" ? [record.target] : [...record.addedNodes])).filter(holdsKey);
    if (rows.length === 0) return;
    const time = performance.now();
    if (!seen) {
      seen = true;
      Object.assign(globalThis, { [global]: time });
      // Told over the console (CDP) too: polling the page for it would run the harness's code on its main thread.
      console.debug(`${global} ${time}`);
      // Then the row in a frame: a timer set in an animation-frame callback runs after that frame's style, layout and paint.
      requestAnimationFrame(() => setTimeout(() => console.debug(`${global}:frame ${performance.now()}`)));
    }
    if (rows.some(usable)) {
      observer.disconnect();
      // On the screen, as above: the first frame that shows it.
      requestAnimationFrame(() => setTimeout(() => console.debug(`${global}:usable ${performance.now()}`)));
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

export async function newContext(browser: Browser, url: string, rootKey: string, keyIds: string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  // tsx (esbuild keepNames) wraps named functions in __name(); functions sent to page.evaluate need it defined.
  await context.addInitScript({ content: "globalThis.__name ??= (target) => target;" });
  // The key-store's own format: the dashboard (and both floors) find a key already entered in this tab.
  await context.addInitScript(
    ({ apiKey, baseUrl }) => {
      sessionStorage.setItem("keyscope.baseUrl", baseUrl);
      sessionStorage.setItem("keyscope.apiKey", apiKey);
    },
    { apiKey: rootKey, baseUrl: url },
  );
  await context.addInitScript(observeFirstKeyRow, { keyIds, global: FIRST_KEY_ROW_GLOBAL });
  return context;
}

/** The first page of keys, as the dashboard and the floors ask for it: the ids whose row the observer waits for. */
export async function firstPageKeyIds(url: string, rootKey: string): Promise<string[]> {
  const response = await fetch(`${url}/v2/keys.listKeys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${rootKey}` },
    body: JSON.stringify({ limit: 100 }),
  });
  const body = (await response.json()) as { data?: { keys?: { keyId: string }[] } };
  const ids = body.data?.keys?.map((key) => key.keyId) ?? [];
  if (ids.length === 0) throw new Error(`listKeys answered ${response.status} without keys`);
  return ids;
}

/** The observer's time on this page, once a key row is in (the load event has passed by then or soon after). */
export async function firstRowTime(page: Page): Promise<number> {
  const handle = await page.waitForFunction((global) => (globalThis as Record<string, unknown>)[global], FIRST_KEY_ROW_GLOBAL, {
    timeout: 20_000,
    polling: 50,
  });
  const value = await handle.jsonValue();
  if (typeof value !== "number") throw new Error("no key row appeared");
  return value;
}

/** One of the observer's times, from its console message: nothing of the harness runs in the page meanwhile. */
function observerMessage(page: Page, name: string, missing: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${missing} on ${page.url()}`)), 20_000);
    page.on("console", (message) => {
      const [said, time] = message.text().split(" ");
      if (said !== name) return;
      clearTimeout(timer);
      resolve(Number(time));
    });
  });
}

/** The observer's time of the first key row in the DOM. */
export function firstRowMessage(page: Page): Promise<number> {
  return observerMessage(page, FIRST_KEY_ROW_GLOBAL, "no key row appeared");
}

export interface FirstRowTimes {
  /** Navigation start to the first key row in the DOM. */
  row: number;
  /** Navigation start to the end of the main thread's work on the next frame after it. */
  inFrame: number;
  /** Navigation start to the end of the frame that first shows a key row outside an inert subtree: one the user can act on. */
  usable: number;
}

/** Navigation start to the first key row in a new tab of `context`, to the frame after it, and to a usable row's frame. */
export async function loadAndTime(context: BrowserContext, address: string): Promise<FirstRowTimes> {
  const page = await context.newPage();
  try {
    const times = Promise.all([
      firstRowMessage(page),
      observerMessage(page, `${FIRST_KEY_ROW_GLOBAL}:frame`, "no frame came after the key row"),
      observerMessage(page, `${FIRST_KEY_ROW_GLOBAL}:usable`, "no key row outside an inert subtree appeared"),
    ]);
    await page.goto(address);
    const [row, inFrame, usable] = await times;
    return { row, inFrame, usable };
  } finally {
    await page.close();
  }
}

interface ColdWarm {
  cold: FirstRowTimes;
  warm: FirstRowTimes;
}

/**
 * In a fresh context (an empty HTTP cache): the first load is cold; then the same address in a new tab of the
 * same context is warm (hashed assets from the cache, index.html revalidated, the API asked again).
 */
async function timeToFirstRow(browser: Browser, url: string, rootKey: string, keyIds: string[], path: string): Promise<ColdWarm> {
  const context = await newContext(browser, url, rootKey, keyIds);
  try {
    const cold = await loadAndTime(context, `${url}${path}`);
    const warm = await loadAndTime(context, `${url}${path}`);
    return { cold, warm };
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
async function manyKeysOurs(browser: Browser, url: string, rootKey: string, keyIds: string[], wanted: number, frames: number): Promise<ManyKeysRun> {
  const context = await newContext(browser, url, rootKey, keyIds);
  try {
    const page = await context.newPage();
    await page.goto(`${url}/keys`);
    await firstRowTime(page);
    // The first row may be the page drawn before the app (src/app/first-paint.ts), which is inert: scroll the app's.
    await page.waitForSelector('#root > .app:not([inert]) [role="table"][aria-label="API keys"] .keys-table__body [role="row"]');
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
async function manyKeysFloor(browser: Browser, url: string, rootKey: string, keyIds: string[], wanted: number, frames: number): Promise<ManyKeysRun> {
  const context = await newContext(browser, url, rootKey, keyIds);
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

const PAGES = {
  ours: { path: "/keys", name: "Keyscope" },
  app: { path: FLOOR_APP_PATH, name: "floor app", about: "the smallest app on the same libraries (react, react-dom, react-router, react-query; one route, one useQuery)" },
  page: { path: FLOOR_PAGE_PATH, name: "vanilla page", about: "a vanilla page (one fetch, rows made with DOM calls)" },
} as const;
type PageName = keyof typeof PAGES;
/** Each run starts with another page of the three, so none always runs right after the same other. */
const ORDERS: readonly (readonly PageName[])[] = [
  ["ours", "app", "page"],
  ["app", "page", "ours"],
  ["page", "ours", "app"],
];

export async function benchBrowser(options: BrowserBenchOptions): Promise<BenchRow[]> {
  const { url, rootKey, log } = options;
  await installFloors();
  const keyIds = await firstPageKeyIds(url, rootKey);
  const executablePath = findBrowser();

  const browser = await chromium.launch({ executablePath, args: BROWSER_ARGS });
  const samples: Record<PageName, { cold: FirstRowTimes[]; warm: FirstRowTimes[] }> = {
    ours: { cold: [], warm: [] },
    app: { cold: [], warm: [] },
    page: { cold: [], warm: [] },
  };
  try {
    // Warm-up (server JIT, the OS file cache, Chromium's own start-up work), not counted.
    for (let index = 0; index < 2; index += 1) {
      for (const name of ORDERS[0] ?? []) await timeToFirstRow(browser, url, rootKey, keyIds, PAGES[name].path);
    }
    for (let run = 0; run < options.firstRowRuns; run += 1) {
      for (const name of ORDERS[run % ORDERS.length] ?? []) {
        const { cold, warm } = await timeToFirstRow(browser, url, rootKey, keyIds, PAGES[name].path);
        samples[name].cold.push(cold);
        samples[name].warm.push(warm);
      }
      const last = (name: PageName) => {
        const [cold, warm] = [samples[name].cold.at(-1), samples[name].warm.at(-1)];
        return `${round(cold?.row ?? 0, 1)}/${round(warm?.row ?? 0, 1)} (in a frame ${round(cold?.inFrame ?? 0, 1)}/${round(warm?.inFrame ?? 0, 1)}, usable ${round(cold?.usable ?? 0, 1)}/${round(warm?.usable ?? 0, 1)})`;
      };
      log(`browser: first key row run ${run + 1} (cold/warm ms): ours ${last("ours")}, floor app ${last("app")}, floor page ${last("page")}`);
    }
  } finally {
    await browser.close();
  }
  const runsText = `headless Chromium, ${options.firstRowRuns} interleaved runs of the three pages (Keyscope /keys, bench/floor-app, bench/floor-page, all served by the same reference server from the same dist directory, the key in sessionStorage)`;
  const rowText = "a MutationObserver installed before any of the page's scripts sees an element holding one of the first page's key ids";
  const cacheText = (cache: "cold" | "warm") => (cache === "cold" ? "a fresh context (empty HTTP cache)" : "a second tab of the same context (hashed files from the HTTP cache)");
  const firstRowRow = (cache: "cold" | "warm", floor: "app" | "page") =>
    makeRow({
      id: `time-to-first-row-${cache}-vs-floor-${floor}`,
      label: `Time to first key row, ${cache} cache, vs the ${PAGES[floor].name}`,
      unit: "ms",
      ours: samples.ours[cache].map((times) => times.row),
      floor: samples[floor][cache].map((times) => times.row),
      goal: { kind: "ratio-at-most", target: floor === "app" ? 0.8 : 1.5 },
      paired: true,
      method: `${runsText}: navigation start to the moment ${rowText}; ${cacheText(cache)}; ratio: median of each run's Keyscope/${PAGES[floor].name}; floor: ${PAGES[floor].about}`,
    });
  // What the measure leaves out: a row in the DOM is on the screen only once a frame holding it is made.
  const inFrameRow = (floor: "app" | "page") =>
    makeRow({
      id: `time-to-first-row-in-frame-cold-vs-floor-${floor}`,
      label: `Time to first key row in a frame, cold cache, vs the ${PAGES[floor].name}`,
      unit: "ms",
      ours: samples.ours.cold.map((times) => times.inFrame),
      floor: samples[floor].cold.map((times) => times.inFrame),
      goal: { kind: "none" },
      paired: true,
      method: `${runsText}: navigation start to the end of the main thread's work on the next animation frame after ${rowText} (a requestAnimationFrame callback, then a setTimeout: after the frame's style, layout and paint); ${cacheText("cold")}; ratio: median of each run's Keyscope/${PAGES[floor].name}; floor: ${PAGES[floor].about}`,
    });
  // What a first row in the DOM does not say either: whether the user can act on it yet.
  const usableRow = makeRow({
    id: "time-to-usable-row-cold-vs-floor-app",
    label: "Time to a usable key row in a frame, cold cache, vs the floor app",
    unit: "ms",
    ours: samples.ours.cold.map((times) => times.usable),
    floor: samples.app.cold.map((times) => times.usable),
    goal: { kind: "none" },
    paired: true,
    method: `${runsText}: navigation start to the end of the main thread's work on the next animation frame after the same observer sees a key row outside any inert subtree (Keyscope's page drawn before the app is inert until the app replaces it, so this is the app's own row; the floor app's first row is usable at once); ${cacheText("cold")}; ratio: median of each run's Keyscope/floor app; floor: ${PAGES.app.about}`,
  });

  const uncapped = await chromium.launch({ executablePath, args: [...BROWSER_ARGS, ...UNCAPPED_FRAMES] });
  const oursMany: ManyKeysRun[] = [];
  const floorMany: ManyKeysRun[] = [];
  const frames = 600;
  try {
    for (let run = 0; run < options.manyKeysRuns; run += 1) {
      oursMany.push(await manyKeysOurs(uncapped, url, rootKey, keyIds, options.manyKeys, frames));
      floorMany.push(await manyKeysFloor(uncapped, url, rootKey, keyIds, options.manyKeys, frames));
      log(`browser: many keys run ${run + 1}: ours ${JSON.stringify(oursMany.at(-1))}, floor ${JSON.stringify(floorMany.at(-1))}`);
    }
  } finally {
    await uncapped.close();
  }

  const loaded = median(oursMany.map((run) => run.loaded));
  const manyMethod = `${options.manyKeysRuns} runs, interleaved with the floor; the dashboard loads pages of 100 by scrolling its table to the end until ${options.manyKeys.toLocaleString("en")} keys are loaded (it loaded ${loaded.toLocaleString("en")})`;
  return [
    firstRowRow("cold", "app"),
    firstRowRow("cold", "page"),
    firstRowRow("warm", "app"),
    firstRowRow("warm", "page"),
    inFrameRow("app"),
    inFrameRow("page"),
    usableRow,
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
