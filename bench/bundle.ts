import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { build, type Plugin } from "vite";
import { beyondFloor, describeShares, gzipSharesByModule } from "./lib/module-shares";
import { makeRow, type BenchRow } from "./lib/results";
import { precompress } from "../tooling/precompress";
import { APP_DIST, FLOOR_APP_DIST, FLOOR_APP_ROOT, REPO_ROOT, workFile } from "./lib/paths";

/** One output chunk of the dashboard's build, as the bench reads it: its imports. */
interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
}

const CHUNKS_FILE = "app-chunks.json";

/** Records the build's chunk graph (rolldown's own chunk data) for the bench: which file imports which. */
function recordChunks(): Plugin {
  return {
    name: "bench:record-chunks",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks: ChunkInfo[] = [];
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        chunks.push({
          fileName: output.fileName,
          isEntry: output.isEntry,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
        });
      }
      writeFileSync(workFile(CHUNKS_FILE), JSON.stringify(chunks));
    },
  };
}

/** Builds the dashboard with its own vite.config.ts, into the bench's scratch space (dist/ is left alone). */
export async function buildApp(): Promise<void> {
  await build({
    root: REPO_ROOT,
    logLevel: "warn",
    clearScreen: false,
    plugins: [recordChunks()],
    build: { outDir: APP_DIST, emptyOutDir: true },
  });
}
/** Builds the floor app with the same vite and React plugin, and the same compressed copies for the server to send. */
export async function buildFloorApp(): Promise<void> {
  await build({
    root: FLOOR_APP_ROOT,
    configFile: false,
    logLevel: "warn",
    clearScreen: false,
    plugins: [react(), precompress()],
    // Source maps as the dashboard's build has them: the bench reads which module each byte comes from.
    build: { outDir: FLOOR_APP_DIST, emptyOutDir: true, sourcemap: true },
  });
}

export function gzipBytesOf(distDir: string, files: Iterable<string>): number {
  return [...files].reduce(
    (sum, file) => sum + gzipSync(readFileSync(join(distDir, file.replace(/^\//, ""))), { level: 9 }).length,
    0,
  );
}

function readChunks(): ChunkInfo[] {
  return JSON.parse(readFileSync(workFile(CHUNKS_FILE), "utf8")) as ChunkInfo[];
}

/**
 * What the dashboard's given files hold beyond the floor app's, by npm package or source file, largest first:
 * "@tanstack/virtual-core 9.7 KiB, …" (each module's share of the files' gzip bytes, from their source maps).
 */
export function describeBeyondFloor(
  oursDist: string,
  ours: readonly string[],
  floorDist: string,
  floor: readonly string[],
): string {
  return describeShares(beyondFloor(gzipSharesByModule(oursDist, ours), gzipSharesByModule(floorDist, floor)));
}

/**
 * The keys page's first screen in the last build: the entry, what it imports, and what it loads at once in a tab
 * holding a key (its dynamic imports: the app and the keys page), with their static imports.
 */
function firstScreenFiles(): string[] {
  const chunks = new Map(readChunks().map((chunk) => [chunk.fileName, chunk]));
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
  if (entry === undefined) throw new Error("the dashboard's build has no entry chunk");
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  visit(entry.fileName);
  for (const loaded of entry.dynamicImports) visit(loaded);
  return [...seen].map((file) => `/${file}`);
}

/** All of the floor app's JavaScript: one page, all of which its rows need. */
function floorAppJs(): string[] {
  const html = readFileSync(join(FLOOR_APP_DIST, "index.html"), "utf8");
  return [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+\.js)"/g)].flatMap((match) =>
    match[1] === undefined ? [] : [match[1]],
  );
}

export async function benchBundle(log: (line: string) => void): Promise<BenchRow[]> {
  log("bundle: building the dashboard and the floor app");
  await buildApp();
  await buildFloorApp();
  const ours = firstScreenFiles();
  const floor = floorAppJs();
  const oursBytes = gzipBytesOf(APP_DIST, ours);
  const floorBytes = gzipBytesOf(FLOOR_APP_DIST, floor);
  log(`bundle: ours ${ours.join(", ")} = ${oursBytes} B gzip; floor ${floorBytes} B gzip`);
  return [
    makeRow({
      id: "bundle-keys-first-screen-js",
      label: "JavaScript of the keys page's first screen (gzip)",
      unit: "KiB",
      // A build is deterministic: one build each, one sample each.
      ours: [oursBytes / 1024],
      floor: [floorBytes / 1024],
      goal: { kind: "none" },
      method:
        "from the build's module graph: index.html's entry, the app and the keys page it starts in a tab holding a key, and their static imports, each file gzip -9 (what a cold load fetches is in the browser section's row); floor: bench/floor-app (react, react-dom, react-router-dom, react-query; one route, one useQuery), same vite",
      details: {
        oursFiles: ours.join(" "),
        beyondFloor: describeBeyondFloor(APP_DIST, ours, FLOOR_APP_DIST, floor),
        oursBytes,
        floorBytes,
      },
    }),
  ];
}
