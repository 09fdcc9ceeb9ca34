import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running one of the server's TypeScript modules: the thread loads it through tsx's API, as the
 * server's own modules are loaded (`npm start` runs under tsx, the tests under Vitest: neither gives a new thread a
 * TypeScript loader by itself).
 */

// tsx's ES module API beside the CommonJS one `require.resolve` finds (whose own tsImport does not load from an
// eval'd script); an eval'd worker is a CommonJS script, which import() loads it into by its file URL.
const TSX_API = pathToFileURL(
  createRequire(import.meta.url)
    .resolve("tsx/esm/api")
    .replace(/\.cjs$/, ".mjs"),
).href;

export function startTypeScriptWorker(module: URL, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const url = JSON.stringify(module.href);
  return new Worker(`import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${url}, ${url}));`, {
    ...options,
    eval: true,
  });
}
