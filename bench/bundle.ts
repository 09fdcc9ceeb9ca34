import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { build } from "vite";
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

/** The JavaScript index.html loads at once: its module scripts and modulepreloads, gzipped (level 9) one by one. */
export function initialJs(distDir: string): InitialJs {
  const html = readFileSync(join(distDir, "index.html"), "utf8");
  const files = new Set<string>();
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const isModuleScript = tag.startsWith("<script") && /\btype="module"/.test(tag);
    const isPreload = tag.startsWith("<link") && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && url !== undefined) files.add(url.replace(/^\//, ""));
  }
  if (files.size === 0) throw new Error(`${distDir}/index.html loads no JavaScript`);
  const gzipBytes = [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length, 0);
  return { files: [...files], gzipBytes };
}

export async function benchBundle(log: (line: string) => void): Promise<BenchRow[]> {
  log("bundle: building the dashboard and the floor app");
  await buildApp();
  await buildFloorApp();
  const ours = initialJs(APP_DIST);
  const floor = initialJs(FLOOR_APP_DIST);
  log(`bundle: ours ${ours.files.join(", ")} = ${ours.gzipBytes} B gzip; floor ${floor.gzipBytes} B gzip`);
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
        "entry script + modulepreloads of index.html, gzip -9; floor: bench/floor-app (react, react-dom, react-router-dom, react-query; one route, one useQuery), same vite",
      details: { oursFiles: ours.files.join(" "), oursBytes: ours.gzipBytes, floorBytes: floor.gzipBytes },
    }),
  ];
}
