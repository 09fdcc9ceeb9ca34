/**
 * Where the time to a usable key row goes: `npx tsx bench/trace-first-row.ts [--runs N] [--path /keys]` builds
 * the dashboard (and the floors) into bench/.work/, starts a reference server with 10,000 keys, loads the page
 * cold N times under a Chromium performance trace and prints, for the median run, a timeline from navigation
 * start to a usable key row in a frame: each file and API request (Resource Timing), each main-thread task over 2 ms
 * (the trace's top-level tasks with what ran in them), the main thread's busy and idle time before the row, and the
 * CPU of style, layout and paint before it with the fonts its text is set in (each size and weight of a family is a
 * font the first layout resolves and shapes with cold caches: on the keys page that, not the CSS, is most of Layout).
 * A tool for reading, not a figure for the table: tracing itself slows the page.
 */
import { parseArgs } from "node:util";
import type { Browser } from "@playwright/test";
import {
  emulateNetwork,
  installFloors,
  isNetworkName,
  NETWORKS,
  newContext,
  usableRowMessage,
  withSeededBrowser,
  type NetworkName,
} from "./browser";
import { buildApp } from "./bundle";
import { APP_DIST } from "./lib/paths";
import { round } from "./lib/stats";

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** CPU time of the thread in the event (µs): what another process on the machine does not inflate. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: {
    data?: { url?: string; functionName?: string; frame?: string };
    name?: string;
    /** UpdateLayoutTree: the elements whose style was computed. */
    elementCount?: number;
    /** Layout: the layout objects it laid out. */
    beginData?: { totalObjects?: number };
  };
}

/** Main-thread CPU (ms) of the rendering steps from navigation start to the row, with the largest step's size. */
interface Rendering {
  style: number;
  elements: number;
  layout: number;
  objects: number;
  paint: number;
  /** The distinct fonts (family, size, weight, style) of the text shown once the row is there. */
  fonts: number;
}

interface Resource {
  name: string;
  startTime: number;
  responseEnd: number;
}

interface Traced {
  firstRow: number;
  /** Main-thread CPU time in top-level tasks from navigation start to the row (ms). */
  cpuBeforeRow: number;
  resources: Resource[];
  tasks: { start: number; duration: number; what: string }[];
  rendering: Rendering;
}

const TASK_DETAIL = new Set([
  "EvaluateScript",
  "v8.compileModule",
  "v8.evaluateModule",
  "FunctionCall",
  "TimerFire",
  "ParseHTML",
  "Layout",
  "UpdateLayoutTree",
  "Paint",
  "FireAnimationFrame",
  "EventDispatch",
  "XHRReadyStateChange",
  "v8.compile",
  "RunMicrotasks",
  "ResourceReceivedData",
  "ResourceFinish",
  "HandlePostMessage",
]);

async function traceOnce(
  browser: Browser,
  url: string,
  rootKey: string,
  keyIds: string[],
  path: string,
  network: NetworkName,
): Promise<Traced> {
  const context = await newContext(browser, url, rootKey, keyIds);
  try {
    const page = await context.newPage();
    await emulateNetwork(context, page, network);
    await browser.startTracing(page, {
      categories: ["devtools.timeline", "blink.user_timing", "v8.execute", "disabled-by-default-devtools.timeline"],
    });
    const row = usableRowMessage(page);
    await page.goto(`${url}${path}`);
    const firstRow = (await row).time;
    const resources = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((entry) => ({
        name: entry.name,
        startTime: entry.startTime,
        responseEnd: (entry as PerformanceResourceTiming).responseEnd,
      })),
    );
    const fonts = await page.evaluate(() => {
      const seen = new Set<string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if (
          node.parentElement === null ||
          node.textContent?.trim() === "" ||
          node.parentElement.getClientRects().length === 0
        )
          continue;
        const style = getComputedStyle(node.parentElement);
        seen.add([style.fontFamily, style.fontSize, style.fontWeight, style.fontStyle].join(" "));
      }
      return seen.size;
    });
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
    const events = trace.traceEvents;
    const navigation = events.find(
      (event) =>
        event.name === "navigationStart" && event.args?.data !== undefined && event.cat.includes("blink.user_timing"),
    );
    if (navigation === undefined) throw new Error("no navigationStart in the trace");
    // The page's main thread: where its navigation started (other renderers, such as the browser's UI, trace too).
    const main = { pid: navigation.pid, tid: navigation.tid };
    const onMain = events.filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === "X");
    const ms = (ts: number) => (ts - navigation.ts) / 1000;
    const tasks = onMain
      .filter((event) => event.name === "RunTask" && (event.dur ?? 0) > 2000 && ms(event.ts) >= 0)
      .map((task) => {
        const end = task.ts + (task.dur ?? 0);
        const inside = onMain.filter(
          (event) => event.ts >= task.ts && event.ts < end && TASK_DETAIL.has(event.name) && (event.dur ?? 0) > 1000,
        );
        const what = inside
          .slice(0, 6)
          .map((event) => {
            const source = event.args?.data?.url?.replace(url, "") ?? event.args?.data?.functionName ?? "";
            return `${event.name}${source ? `(${source})` : ""} ${round((event.dur ?? 0) / 1000, 1)}`;
          })
          .join(", ");
        return { start: ms(task.ts), duration: (task.dur ?? 0) / 1000, what };
      });
    const cpuBeforeRow =
      onMain
        .filter((event) => event.name === "RunTask" && ms(event.ts) >= 0 && ms(event.ts) < firstRow)
        .reduce((sum, task) => sum + (task.tdur ?? 0), 0) / 1000;
    const beforeRow = onMain.filter((event) => ms(event.ts) >= 0 && ms(event.ts) < firstRow);
    const cpu = (name: string) =>
      beforeRow.filter((event) => event.name === name).reduce((sum, event) => sum + (event.tdur ?? 0), 0) / 1000;
    const largest = (name: string) =>
      beforeRow
        .filter((event) => event.name === name)
        .reduce<TraceEvent | undefined>(
          (most, event) => ((event.tdur ?? 0) > (most?.tdur ?? -1) ? event : most),
          undefined,
        );
    const rendering = {
      style: cpu("UpdateLayoutTree"),
      elements: largest("UpdateLayoutTree")?.args?.elementCount ?? 0,
      layout: cpu("Layout"),
      objects: largest("Layout")?.args?.beginData?.totalObjects ?? 0,
      paint: cpu("PrePaint") + cpu("Paint"),
      fonts,
    };
    return { firstRow, cpuBeforeRow, resources, tasks, rendering };
  } finally {
    await context.close();
  }
}

function print(traced: Traced, url: string): void {
  const lines: { at: number; text: string }[] = [];
  for (const resource of traced.resources) {
    if (resource.startTime > traced.firstRow + 200) continue;
    lines.push({
      at: resource.startTime,
      text: `file ${resource.name.replace(url, "")} ${round(resource.startTime, 0)}–${round(resource.responseEnd, 0)} ms`,
    });
  }
  let busy = 0;
  for (const task of traced.tasks) {
    if (task.start > traced.firstRow + 200) continue;
    if (task.start < traced.firstRow) busy += Math.min(task.duration, traced.firstRow - task.start);
    lines.push({ at: task.start, text: `task ${round(task.duration, 1)} ms: ${task.what}` });
  }
  lines.push({ at: traced.firstRow, text: "USABLE KEY ROW in a frame" });
  lines.sort((a, b) => a.at - b.at);
  for (const line of lines) console.log(`${round(line.at, 0).toString().padStart(6)} ms  ${line.text}`);
  console.log(
    `main thread in tasks over 2 ms before the row: ${round(busy, 0)} ms of ${round(traced.firstRow, 0)} ms; its CPU time in all tasks before the row: ${round(traced.cpuBeforeRow, 0)} ms`,
  );
  const { style, elements, layout, objects, paint, fonts } = traced.rendering;
  console.log(
    `rendering before the row (CPU): style ${round(style, 1)} ms (largest: ${elements} elements), layout ${round(layout, 1)} ms (largest: ${objects} objects), pre-paint and paint ${round(paint, 1)} ms; its text is set in ${fonts} ${fonts === 1 ? "font" : "fonts"}`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      path: { type: "string", default: "/keys" },
      network: { type: "string", default: "loopback" },
      "no-build": { type: "boolean" },
    },
  });
  const network = values.network;
  if (!isNetworkName(network)) throw new Error(`--network: one of ${Object.keys(NETWORKS).join(", ")}`);
  if (values["no-build"] !== true) await buildApp();
  await installFloors();
  await withSeededBrowser(APP_DIST, "trace", async ({ url, rootKey, keyIds, browser }) => {
    await traceOnce(browser, url, rootKey, keyIds, values.path, network);
    const runs: Traced[] = [];
    for (let run = 0; run < Number(values.runs); run += 1)
      runs.push(await traceOnce(browser, url, rootKey, keyIds, values.path, network));
    runs.sort((a, b) => a.firstRow - b.firstRow);
    console.log(
      `first key row of ${values.path} (traced, cold, ${network}): ${runs.map((run) => round(run.firstRow, 0)).join(", ")} ms; main-thread CPU before it: ${runs.map((run) => round(run.cpuBeforeRow, 0)).join(", ")} ms; the median run:`,
    );
    const median = runs[Math.floor(runs.length / 2)];
    if (median) print(median, url);
  });
}

await main();
