import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BENCH_DIR = join(REPO_ROOT, "bench");
/** Scratch space of a run (gitignored): the builds the bench measures and serves. */
export const WORK_DIR = join(BENCH_DIR, ".work");
export const APP_DIST = join(WORK_DIR, "app-dist");
export const FLOOR_APP_DIST = join(WORK_DIR, "floor-app-dist");
export const FLOOR_APP_ROOT = join(BENCH_DIR, "floor-app");
export const FLOOR_PAGE_DIR = join(BENCH_DIR, "floor-page");
export const RESULTS_PATH = join(BENCH_DIR, "results.json");
export const README_PATH = join(REPO_ROOT, "README.md");
