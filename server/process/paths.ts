import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, wherever the server is started from. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DEFAULT_DIST_DIR = join(REPO_ROOT, "dist");
export const DEFAULT_DATA_DIR = "./.data";
