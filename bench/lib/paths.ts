import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BENCH_DIR = join(REPO_ROOT, "bench");
/** Scratch space of a run (gitignored): the builds the bench measures and serves. */
export const WORK_DIR = join(BENCH_DIR, ".work");
/** A file of the run's scratch space, which is made on first use (a fresh clone has none). */
export function workFile(name: string): string {
  mkdirSync(WORK_DIR, { recursive: true });
  return join(WORK_DIR, name);
}
export const APP_DIST = join(WORK_DIR, "app-dist");
export const FLOOR_APP_DIST = join(WORK_DIR, "floor-app-dist");
export const FLOOR_APP_ROOT = join(BENCH_DIR, "floor-app");
export const FLOOR_PAGE_DIR = join(BENCH_DIR, "floor-page");
export const RESULTS_PATH = join(BENCH_DIR, "results.json");
export const BENCHMARKS_DOC_PATH = join(REPO_ROOT, "docs", "benchmarks.md");
