import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What the dashboard is built from, relative to the repository root. */
const SOURCE_DIRS = ["src", "public", "build", "tooling"] as const;
const SOURCE_FILES = ["index.html", "vite.config.ts"] as const;

function mtimeMs(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function newestMtimeUnder(dir: string): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtimeUnder(path) : (mtimeMs(path) ?? 0);
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/** True when dist/index.html is missing or older than any source of the dashboard. */
export function dashboardIsStale(repoRoot: string, distDir: string): boolean {
  const builtAt = mtimeMs(join(distDir, "index.html"));
  if (builtAt === undefined) return true;
  const sources = [
    ...SOURCE_DIRS.map((dir) => newestMtimeUnder(join(repoRoot, dir))),
    ...SOURCE_FILES.map((file) => mtimeMs(join(repoRoot, file)) ?? 0),
  ];
  return sources.some((mtime) => mtime > builtAt);
}

/** Runs `vite build` in-process. Vite only speaks on stderr (warnings, errors): stdout belongs to the server's contract. */
export async function buildDashboard(repoRoot: string, distDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    root: repoRoot,
    logLevel: "warn",
    clearScreen: false,
    build: { outDir: distDir, emptyOutDir: true },
  });
}
