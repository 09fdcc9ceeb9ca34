import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { BROWSER_ARGS, findBrowser } from "../test/e2e/find-browser";
import { startServer } from "../test/support/server-process";
import { precompressDir, precompressFile } from "../tooling/precompress";
import { buildFloorApp, gzipBytesOf } from "./bundle";
import { APP_DIST, FLOOR_APP_DIST, FLOOR_PAGE_DIR } from "./lib/paths";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";

/** Where the floors are served from: copied into the dashboard's dist directory, so the same server sends them. */
const FLOOR_PAGE_PATH = "/bench-floor/index.html";
const FLOOR_APP_PATH = "/bench-floor-app/index.html";
/** Frames are timed without the 60 Hz cap, so a frame's length is its work, not the wait for vsync. */
const UNCAPPED_FRAMES = ["--disable-frame-rate-limit", "--disable-gpu-vsync"];
const VIEWPORT = { width: 1280, height: 800 };
/** The observer's console message (below). */
const USABLE_KEY_ROW = "__benchUsableKeyRow";

export interface BrowserBenchOptions {
  url: string;
  rootKey: string;
  firstRowRuns: number;
  manyKeysRuns: number;
  manyKeys: number;
  log: (line: string) => void;
  /** What the dashboard's scripts hold beyond the floor app's, in a line (bench/bundle.ts). */
  describeBeyondFloor: DescribeBeyondFloor;
}

/**
 * Copies bench/floor-page, and the floor app built with the same Vite (bench/floor-app), into the served dist
 * directory (after the bundle was measured): the floor app's hashed files go beside the dashboard's under
 * /assets/, so both get the same caching headers from the same server, each file compressed as the dashboard's are.
 */
export async function installFloors(): Promise<void> {
  cpSync(FLOOR_PAGE_DIR, join(APP_DIST, "bench-floor"), { recursive: true });
  await precompressDir(join(APP_DIST, "bench-floor"));
  await buildFloorApp();
  cpSync(join(FLOOR_APP_DIST, "assets"), join(APP_DIST, "assets"), { recursive: true });
  mkdirSync(join(APP_DIST, "bench-floor-app"), { recursive: true });
  cpSync(join(FLOOR_APP_DIST, "index.html"), join(APP_DIST, FLOOR_APP_PATH));
  await precompressFile(join(APP_DIST, FLOOR_APP_PATH));
}

/**
 * Runs in every page before its own scripts: once an element whose text holds one of `keyIds` enters the DOM
 * outside any `inert` or `aria-hidden` subtree (a row a click, a key or a screen reader reaches), waits for the
 * next frame to be made and tells `performance.now()` (milliseconds since navigation start) with the scripts
 * fetched by then. The same observer for the dashboard and both floors, so the measure is taken from outside each.
 */
function observeUsableKeyRow({ keyIds, global }: { keyIds: string[]; global: string }): void {
  // A plain search for each id: an id's characters may run on into the text after it (a "Copy" button's label).
  const holdsKey = (node: Node) => {
    const text = node.textContent ?? "";
    return text.includes("key_") && keyIds.some((id) => text.includes(id));
  };
  const usable = (node: Node) => {
    const element = node instanceof Element ? node : node.parentElement;
    return element !== null && element.closest('[inert], [aria-hidden="true"]') === null;
  };
  const observer = new MutationObserver((records) => {
    const rows = records.flatMap((record) =>
      record.type === "characterData" ? [record.target] : [...record.addedNodes],
    );
    if (!rows.some((row) => holdsKey(row) && usable(row))) return;
    observer.disconnect();
    // On the screen: a timer set in an animation-frame callback runs after that frame's style, layout and paint.
    requestAnimationFrame(() =>
      setTimeout(() => {
        const time = performance.now();
        const scripts = performance
          .getEntriesByType("resource")
          .filter(
            (entry) =>
              entry instanceof PerformanceResourceTiming &&
              new URL(entry.name).pathname.endsWith(".js") &&
              entry.responseEnd <= time,
          )
          .map((entry) => new URL(entry.name).pathname);
        // Told over the console (CDP): polling the page for it would run the harness's code on its main thread.
        console.debug(`${global} ${JSON.stringify({ time, scripts })}`);
      }),
    );
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

export async function newContext(
  browser: Browser,
  url: string,
  rootKey: string,
  keyIds: string[],
): Promise<BrowserContext> {
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
  await context.addInitScript(observeUsableKeyRow, { keyIds, global: USABLE_KEY_ROW });
  return context;
}

/** What a reading tool (trace-first-row, react-commits) loads the keys page with. */
export interface SeededBrowser {
  url: string;
  rootKey: string;
  keyIds: string[];
  browser: Browser;
}

/**
 * A reference server on `distDir` with 10,000 keys, a root key that reads keys and analytics (named `name`) and the
 * first page's key ids, and a Chromium: `use` runs with them; the browser, the server and its data go after.
 */
export async function withSeededBrowser(
  distDir: string,
  name: string,
  use: (seeded: SeededBrowser) => Promise<void>,
): Promise<void> {
  const server = await startServer({ args: ["--dist-dir", distDir] });
  try {
    await server.admin(["keys", "seed", "--count", "10000"]);
    const rootKey = await server.admin([
      "root-key",
      "create",
      "--name",
      name,
      "--permissions",
      "api.*.read_key,api.*.read_analytics",
    ]);
    const keyIds = await firstPageKeyIds(server.url, rootKey);
    const browser = await chromium.launch({ executablePath: findBrowser(), args: BROWSER_ARGS });
    try {
      await use({ url: server.url, rootKey, keyIds, browser });
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
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

export interface UsableRow {
  /** Navigation start to the end of the frame that first shows a usable key row (ms). */
  time: number;
  /** The scripts fetched by then (paths). */
  scripts: string[];
}

/** The observer's report on this page, from its console message: nothing of the harness runs in the page meanwhile. */
export function usableRowMessage(page: Page): Promise<UsableRow> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no usable key row on ${page.url()}`)), 30_000);
    page.on("console", (message) => {
      const text = message.text();
      if (!text.startsWith(`${USABLE_KEY_ROW} `)) return;
      clearTimeout(timer);
      const report = JSON.parse(text.slice(USABLE_KEY_ROW.length + 1)) as UsableRow;
      resolve({ time: report.time, scripts: report.scripts });
    });
  });
}

/** The networks a first row is timed on: this machine's loopback, and a desktop's broadband as Chromium emulates it. */
export const NETWORKS = {
  loopback: { about: "loopback (the page and its server on this machine)" },
  desktop: {
    about: "Chromium's network emulation (CDP Network.emulateNetworkConditions): 40 ms latency, 10 Mbit/s down and up",
    conditions: { offline: false, latency: 40, downloadThroughput: 10_000_000 / 8, uploadThroughput: 10_000_000 / 8 },
  },
} as const;
export type NetworkName = keyof typeof NETWORKS;

export function isNetworkName(name: string): name is NetworkName {
  return Object.hasOwn(NETWORKS, name);
}

/** Puts `page` on `network` (Chromium's emulation; loopback is the machine's own). */
export async function emulateNetwork(context: BrowserContext, page: Page, network: NetworkName): Promise<void> {
  const profile = NETWORKS[network];
  if (!("conditions" in profile)) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", profile.conditions);
}

/** Navigation start to a usable key row in a frame, in a new tab of `context`, on `network`. */
export async function loadAndTime(
  context: BrowserContext,
  address: string,
  network: NetworkName = "loopback",
): Promise<UsableRow> {
  const page = await context.newPage();
  try {
    await emulateNetwork(context, page, network);
    const usable = usableRowMessage(page);
    await page.goto(address);
    return await usable;
  } finally {
    await page.close();
  }
}

interface ColdWarm {
  cold: UsableRow;
  warm: UsableRow;
}

/**
 * In a fresh context (an empty HTTP cache): the first load is cold; then the same address in a new tab of the
 * same context is warm (hashed assets from the cache, index.html revalidated, the API asked again).
 */
async function timeToUsableRow(
  browser: Browser,
  url: string,
  rootKey: string,
  keyIds: string[],
  path: string,
  network: NetworkName,
): Promise<ColdWarm> {
  const context = await newContext(browser, url, rootKey, keyIds);
  try {
    const cold = await loadAndTime(context, `${url}${path}`, network);
    const warm = await loadAndTime(context, `${url}${path}`, network);
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
async function manyKeysOurs(
  browser: Browser,
  url: string,
  rootKey: string,
  keyIds: string[],
  wanted: number,
  frames: number,
): Promise<ManyKeysRun> {
  const context = await newContext(browser, url, rootKey, keyIds);
  try {
    const page = await context.newPage();
    const usable = usableRowMessage(page);
    await page.goto(`${url}/keys`);
    await usable;
    const loaded = await page.evaluate(async (wanted) => {
      const count = () =>
        Number(document.querySelector('[role="table"][aria-label="API keys"]')?.getAttribute("aria-rowcount") ?? 1) - 1;
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
    const rowElements = await page
      .locator('[role="table"][aria-label="API keys"] .keys-table__body [role="row"]')
      .count();
    const heapBytes = await heapUsedBytes(context, page);
    const lengths = await scrollFrames(page, ".keys-table__scroller", frames);
    return { loaded, rowElements, heapBytes, frameMedianMs: median(lengths), frameP90Ms: quantile(lengths, 0.9) };
  } finally {
    await context.close();
  }
}

/** The floor page holding the same keys as parsed JSON (its 100 first rows in a plain table). */
async function manyKeysFloor(
  browser: Browser,
  url: string,
  rootKey: string,
  keyIds: string[],
  wanted: number,
  frames: number,
): Promise<ManyKeysRun> {
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
  app: {
    path: FLOOR_APP_PATH,
    name: "floor app",
    about:
      "the smallest app on the same libraries (react, react-dom, react-router, react-query; one route, one useQuery)",
  },
  page: { path: FLOOR_PAGE_PATH, name: "vanilla page", about: "a vanilla page (one fetch, rows made with DOM calls)" },
} as const;
type PageName = keyof typeof PAGES;
/** Each run starts with another page of the three, so none always runs right after the same other. */
const ORDERS: readonly (readonly PageName[])[] = [
  ["ours", "app", "page"],
  ["app", "page", "ours"],
  ["page", "ours", "app"],
];

/** What the dashboard's scripts (first) hold beyond the floor app's (second), both in the served dist directory. */
export type DescribeBeyondFloor = (ours: readonly string[], floor: readonly string[]) => string;

export async function benchBrowser(options: BrowserBenchOptions): Promise<BenchRow[]> {
  const { url, rootKey, log } = options;
  await installFloors();
  const keyIds = await firstPageKeyIds(url, rootKey);
  const executablePath = findBrowser();

  const browser = await chromium.launch({ executablePath, args: BROWSER_ARGS });
  type Samples = Record<PageName, { cold: UsableRow[]; warm: UsableRow[] }>;
  const empty = (): Samples => ({
    ours: { cold: [], warm: [] },
    app: { cold: [], warm: [] },
    page: { cold: [], warm: [] },
  });
  const samples: Record<NetworkName, Samples> = { loopback: empty(), desktop: empty() };
  const networks = Object.keys(NETWORKS) as NetworkName[];
  try {
    // Warm-up (server JIT, the OS file cache, Chromium's own start-up work), not counted.
    for (let index = 0; index < 2; index += 1) {
      for (const name of ORDERS[0] ?? [])
        await timeToUsableRow(browser, url, rootKey, keyIds, PAGES[name].path, "loopback");
    }
    for (let run = 0; run < options.firstRowRuns; run += 1) {
      // Both networks in every run, each page in turn: a machine whose load drifts shifts all of them alike.
      for (const network of run % 2 === 0 ? networks : [...networks].reverse()) {
        for (const name of ORDERS[run % ORDERS.length] ?? []) {
          const { cold, warm } = await timeToUsableRow(browser, url, rootKey, keyIds, PAGES[name].path, network);
          samples[network][name].cold.push(cold);
          samples[network][name].warm.push(warm);
        }
        const last = (name: PageName) => {
          const [cold, warm] = [samples[network][name].cold.at(-1), samples[network][name].warm.at(-1)];
          return `${round(cold?.time ?? 0, 1)}/${round(warm?.time ?? 0, 1)}`;
        };
        log(
          `browser: usable key row run ${run + 1}, ${network} (cold/warm ms): ours ${last("ours")}, floor app ${last("app")}, floor page ${last("page")}`,
        );
      }
    }
  } finally {
    await browser.close();
  }
  const runsText = `headless Chromium, ${options.firstRowRuns} interleaved runs of the three pages on both networks (Keyscope /keys, bench/floor-app, bench/floor-page, all served by the same reference server from the same dist directory, the key in sessionStorage)`;
  const rowText =
    "navigation start to the end of the main thread's work on the next animation frame (a requestAnimationFrame callback, then a setTimeout) after a MutationObserver installed before any of the page's scripts sees an element holding one of the first page's key ids outside any inert or aria-hidden subtree";
  const cacheText = (cache: "cold" | "warm") =>
    cache === "cold"
      ? "a fresh context (empty HTTP cache)"
      : "a second tab of the same context (hashed files from the HTTP cache)";
  const goals: Partial<Record<`${NetworkName}-${"cold" | "warm"}-${"app" | "page"}`, number>> = {
    "loopback-cold-app": 1.25,
    "desktop-cold-app": 1,
  };
  const usableRow = (network: NetworkName, cache: "cold" | "warm", floor: "app" | "page") => {
    const target = goals[`${network}-${cache}-${floor}`];
    return makeRow({
      id: `usable-row-${network}-${cache}-vs-floor-${floor}`,
      label: `Usable key row in a frame, ${cache} cache, ${network}, vs the ${PAGES[floor].name}`,
      unit: "ms",
      ours: samples[network].ours[cache].map((row) => row.time),
      floor: samples[network][floor][cache].map((row) => row.time),
      goal: target === undefined ? { kind: "none" } : { kind: "ratio-at-most", target },
      paired: true,
      method: `${runsText}: ${rowText}; ${NETWORKS[network].about}; ${cacheText(cache)}; ratio: median of each run's Keyscope/${PAGES[floor].name}; floor: ${PAGES[floor].about}`,
    });
  };
  // Deterministic but for what a page fetched by the row's time: the median of the cold loads on loopback.
  const scriptsBefore = (name: PageName) =>
    samples.loopback[name].cold.map((row) => gzipBytesOf(APP_DIST, row.scripts) / 1024);
  // What the files hold is told for a run at the median: a run whose late code (the scrolling and sorting code,
  // which start loading just after the rows) happened to arrive before the row's frame is not the typical one.
  const medianRunScripts = (name: PageName) => {
    const runs = [...samples.loopback[name].cold].sort(
      (a, b) => gzipBytesOf(APP_DIST, a.scripts) - gzipBytesOf(APP_DIST, b.scripts),
    );
    return runs[Math.floor((runs.length - 1) / 2)]?.scripts ?? [];
  };
  const oursScripts = medianRunScripts("ours");
  const floorScripts = medianRunScripts("app");
  const jsRow = makeRow({
    id: "js-before-usable-row-vs-floor-app",
    label: "JavaScript fetched before the usable key row (gzip), vs the floor app",
    unit: "KiB",
    ours: scriptsBefore("ours"),
    floor: scriptsBefore("app"),
    goal: { kind: "ratio-at-most", target: 1.25 },
    method: `the scripts (Resource Timing) whose response had ended by the usable key row of each cold load on loopback above, each file gzip -9 from the served dist; the median over the runs; floor: ${PAGES.app.about}`,
    details: {
      oursFiles: oursScripts.join(" "),
      beyondFloor: options.describeBeyondFloor(oursScripts, floorScripts),
      floorFiles: floorScripts.join(" "),
    },
  });

  const uncapped = await chromium.launch({ executablePath, args: [...BROWSER_ARGS, ...UNCAPPED_FRAMES] });
  const oursMany: ManyKeysRun[] = [];
  const floorMany: ManyKeysRun[] = [];
  const frames = 600;
  try {
    for (let run = 0; run < options.manyKeysRuns; run += 1) {
      oursMany.push(await manyKeysOurs(uncapped, url, rootKey, keyIds, options.manyKeys, frames));
      floorMany.push(await manyKeysFloor(uncapped, url, rootKey, keyIds, options.manyKeys, frames));
      log(
        `browser: many keys run ${run + 1}: ours ${JSON.stringify(oursMany.at(-1))}, floor ${JSON.stringify(floorMany.at(-1))}`,
      );
    }
  } finally {
    await uncapped.close();
  }

  const loaded = median(oursMany.map((run) => run.loaded));
  const manyMethod = `${options.manyKeysRuns} runs, interleaved with the floor; the dashboard loads pages of 100 by scrolling its table to the end until ${options.manyKeys.toLocaleString("en")} keys are loaded (it loaded ${loaded.toLocaleString("en")})`;
  return [
    usableRow("loopback", "cold", "app"),
    usableRow("desktop", "cold", "app"),
    usableRow("loopback", "warm", "app"),
    usableRow("desktop", "warm", "app"),
    usableRow("loopback", "cold", "page"),
    usableRow("desktop", "cold", "page"),
    usableRow("loopback", "warm", "page"),
    usableRow("desktop", "warm", "page"),
    jsRow,
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
