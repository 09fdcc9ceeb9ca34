import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { FIRST_SCREEN_MANIFEST, type FirstScreenFiles } from "../server/first-request-plugin";
import { makeRow, type BenchRow } from "./lib/results";
import { APP_DIST, FLOOR_APP_DIST, FLOOR_APP_ROOT, REPO_ROOT } from "./lib/paths";

/** Builds the dashboard with its own vite.config.ts, into the bench's scratch space (dist/ is left alone). */
export async function buildApp(): Promise<void> {
  await build({ root: REPO_ROOT, logLevel: "warn", clearScreen: false, build: { outDir: APP_DIST, emptyOutDir: true } });
}

/** Builds the floor app with the same vite and React plugin, and nothing else configured. */
export async function buildFloorApp(): Promise<void> {
  await build({
    root: FLOOR_APP_ROOT,
    configFile: false,
    logLevel: "warn",
    clearScreen: false,
    plugins: [react()],
    build: { outDir: FLOOR_APP_DIST, emptyOutDir: true },
  });
}

export interface InitialJs {
  files: string[];
  gzipBytes: number;
}

function gzipBytesOf(distDir: string, files: Iterable<string>): number {
  return [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(distDir, file.replace(/^\//, ""))), { level: 9 }).length, 0);
}

/** The build's own list of its first screen's files (server/first-request-plugin.ts), when it has one. */
function firstScreenFiles(distDir: string): FirstScreenFiles | undefined {
  const path = join(distDir, FIRST_SCREEN_MANIFEST);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as FirstScreenFiles) : undefined;
}

/**
 * The JavaScript the first screen loads, gzipped (level 9) one by one: index.html's module scripts and
 * modulepreloads, and, where its script starts the app's (the dashboard), the app's entry with its static imports.
 */
export function initialJs(distDir: string): InitialJs {
  const html = readFileSync(join(distDir, "index.html"), "utf8");
  const files = new Set<string>();
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const isModuleScript = tag.startsWith("<script") && /\btype="module"/.test(tag);
    const isPreload = tag.startsWith("<link") && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && url !== undefined) files.add(url.replace(/^\//, ""));
  }
  for (const file of firstScreenFiles(distDir)?.app ?? []) files.add(file.replace(/^\//, ""));
  if (files.size === 0) throw new Error(`${distDir}/index.html loads no JavaScript`);
  return { files: [...files], gzipBytes: gzipBytesOf(distDir, files) };
}

/** A row of some of the dashboard's files against the whole floor app, without a goal. */
function sizeRow(id: string, label: string, files: string[], floorBytes: number, method: string): BenchRow {
  const bytes = gzipBytesOf(APP_DIST, files);
  return makeRow({
    id,
    label,
    unit: "KiB",
    ours: [bytes / 1024],
    floor: [floorBytes / 1024],
    goal: { kind: "none" },
    method,
    details: { oursFiles: files.join(" "), oursBytes: bytes, floorBytes },
  });
}

export async function benchBundle(log: (line: string) => void): Promise<BenchRow[]> {
  log("bundle: building the dashboard and the floor app");
  await buildApp();
  await buildFloorApp();
  const ours = initialJs(APP_DIST);
  const floor = initialJs(FLOOR_APP_DIST);
  log(`bundle: ours ${ours.files.join(", ")} = ${ours.gzipBytes} B gzip; floor ${floor.gzipBytes} B gzip`);
  const firstScreen = firstScreenFiles(APP_DIST);
  if (firstScreen === undefined) throw new Error(`the dashboard's build has no ${FIRST_SCREEN_MANIFEST}`);
  const beforeRow = [firstScreen.early, ...firstScreen.paint];
  const usablePage = [...new Set([...ours.files.map((file) => `/${file}`), ...beforeRow, ...firstScreen.keysPage])];
  return [
    makeRow({
      id: "bundle-initial-js",
      label: "First-screen JavaScript (gzip)",
      unit: "KiB",
      // A build is deterministic: one build each, one sample each.
      ours: [ours.gzipBytes / 1024],
      floor: [floor.gzipBytes / 1024],
      goal: { kind: "ratio-at-most", target: 1.1 },
      method:
        "index.html's module script and modulepreloads, and the app's entry with its static imports (which the early module loads), gzip -9; floor: bench/floor-app (react, react-dom, react-router-dom, react-query; one route, one useQuery), same vite",
      details: { oursFiles: ours.files.join(" "), oursBytes: ours.gzipBytes, floorBytes: floor.gzipBytes },
    }),
    sizeRow(
      "bundle-before-first-row-js",
      "JavaScript that draws the first key row (gzip)",
      beforeRow,
      floor.gzipBytes,
      "in a tab holding a key: the early module and what draws the keys page from its answer (src/app/first-paint.ts and its imports), gzip -9; the app's code comes after the rows; floor: all of bench/floor-app's first-screen JavaScript, which its rows need",
    ),
    sizeRow(
      "bundle-usable-keys-page-js",
      "JavaScript of the usable keys page (gzip)",
      usablePage,
      floor.gzipBytes,
      "in a tab holding a key, all the JavaScript before the keys page answers a click: the first screen's as above and the keys page's own lazy chunks (the table, its virtualizer, filters, sorting, usage, export), gzip -9; floor: all of bench/floor-app's, whose one page is usable once it is in",
    ),
  ];
}
