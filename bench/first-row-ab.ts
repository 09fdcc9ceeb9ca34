/**
 * `npx tsx bench/first-row-ab.ts DIST_A DIST_B [--runs N] [--network loopback|desktop] [--path /keys]`: the time to a usable key
 * row in a frame, and the JavaScript (gzip) fetched before it, of two builds of the dashboard (e.g. `npx vite build
 * --outDir .tmp/a`, a change, then `--outDir .tmp/b`), each served by a reference server of its own with the demo
 * data, in interleaved runs (A, B, then B, A…) of a cold and a warm load in a fresh browser context, measured as the
 * bench measures it (bench/browser.ts), on loopback or under the desktop network profile. Prints the medians.
 * `--path` times another page the dists hold, e.g. the floor app the bench installs (/bench-floor-app/index.html).
 * For a change too small for the bench's own table. Writes nothing.
 */
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { BROWSER_ARGS, findBrowser } from "../test/e2e/find-browser";
import { startServer, type StartedServer } from "../test/support/server-process";
import { firstPageKeyIds, isNetworkName, loadAndTime, newContext, type UsableRow } from "./browser";
import { gzipBytesOf } from "./bundle";
import { median, round } from "./lib/stats";

interface Side {
  dist: string;
  server: StartedServer;
  rootKey: string;
  keyIds: string[];
  cold: UsableRow[];
  warm: UsableRow[];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      runs: { type: "string", default: "15" },
      network: { type: "string", default: "loopback" },
      path: { type: "string", default: "/keys" },
    },
    allowPositionals: true,
  });
  const runs = Number(values.runs);
  const network = values.network;
  if (positionals.length !== 2 || !Number.isInteger(runs) || runs < 1 || !isNetworkName(network)) {
    throw new Error(
      "usage: npx tsx bench/first-row-ab.ts DIST_A DIST_B [--runs N] [--network loopback|desktop] [--path /keys]",
    );
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
          side.cold.push(await loadAndTime(context, `${side.server.url}${values.path}`, network));
          side.warm.push(await loadAndTime(context, `${side.server.url}${values.path}`, network));
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
    const at = (rows: UsableRow[]) => round(median(rows.map((row) => row.time)), 1);
    const js = round(median(side.cold.map((row) => gzipBytesOf(side.dist, row.scripts) / 1024)), 1);
    console.log(
      `${index === 0 ? "A" : "B"} ${side.dist} (${network}): usable key row cold ${at(side.cold)} ms, warm ${at(side.warm)} ms; JavaScript before it (cold) ${js} KiB gzip (median of ${runs})`,
    );
  }
}

await main();
