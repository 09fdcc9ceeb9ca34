/**
 * `npx tsx bench/first-row-ab.ts DIST_A DIST_B [--runs N]`: the time to first key row (in the DOM, in a frame, and
 * the first usable one, outside an inert subtree, in a frame) of two builds of the dashboard (e.g. `npx vite build
 * --outDir .tmp/a`, a change, then `--outDir .tmp/b`), each served by a reference server of its own with the demo
 * data, in interleaved runs (A, B, then B, A…) of a cold and a warm load in a fresh browser context, measured as the
 * bench measures it (bench/browser.ts). Prints the medians.
 * For a change too small for the bench's own table: two builds of the same code differ here by about 12 ms in the
 * median of 15 runs. Writes nothing.
 */
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { BROWSER_ARGS, findBrowser } from "../test/e2e/find-browser";
import { startServer, type StartedServer } from "../test/support/server-process";
import { firstPageKeyIds, loadAndTime, newContext, type FirstRowTimes } from "./browser";
import { median, round } from "./lib/stats";

interface Side {
  dist: string;
  server: StartedServer;
  rootKey: string;
  keyIds: string[];
  cold: FirstRowTimes[];
  warm: FirstRowTimes[];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { runs: { type: "string", default: "15" } }, allowPositionals: true });
  const runs = Number(values.runs);
  if (positionals.length !== 2 || !Number.isInteger(runs) || runs < 1) {
    throw new Error("usage: npx tsx bench/first-row-ab.ts DIST_A DIST_B [--runs N]");
  }
  const sides: Side[] = [];
  const browser = await chromium.launch({ executablePath: findBrowser("browser"), args: BROWSER_ARGS });
  try {
    for (const dist of positionals) {
      const server = await startServer({ args: ["--dist-dir", dist] });
      const rootKey = server.rootKey;
      if (rootKey === undefined) throw new Error(`the server for ${dist} printed no demo root key`);
      sides.push({ dist, server, rootKey, keyIds: await firstPageKeyIds(server.url, rootKey), cold: [], warm: [] });
    }
    for (let run = 0; run < runs; run += 1) {
      for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
        const context = await newContext(browser, side.server.url, side.rootKey, side.keyIds);
        try {
          side.cold.push(await loadAndTime(context, `${side.server.url}/keys`));
          side.warm.push(await loadAndTime(context, `${side.server.url}/keys`));
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await Promise.all(sides.map((side) => side.server.stop()));
  }
  for (const [index, side] of sides.entries()) {
    const at = (times: FirstRowTimes[], moment: keyof FirstRowTimes) => round(median(times.map((time) => time[moment])), 1);
    const both = (moment: keyof FirstRowTimes) => `cold ${at(side.cold, moment)} ms, warm ${at(side.warm, moment)} ms`;
    console.log(
      `${index === 0 ? "A" : "B"} ${side.dist}: first key row ${both("row")}; in a frame ${both("inFrame")}; usable ${both("usable")} (median of ${runs})`,
    );
  }
}

await main();
