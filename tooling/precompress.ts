import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";
import { PRECOMPRESSED_CODINGS, type PrecompressedCoding } from "../server/dashboard/content-coding.ts";

/** Text the browser fetches; images and fonts are compressed already, and source maps are for developer tools only. */
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".xml", ".webmanifest"]);

const COMPRESS: Record<PrecompressedCoding, (content: Buffer) => Promise<Buffer>> = {
  br: (content) =>
    promisify(brotliCompress)(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  gzip: (content) => promisify(gzip)(content, { level: constants.Z_BEST_COMPRESSION }),
};

/** Writes `file.br` and `file.gz` beside a compressible file, each only when it is smaller than the file. */
export async function precompressFile(file: string): Promise<void> {
  if (!COMPRESSIBLE.has(extname(file))) return;
  const content = await readFile(file);
  await Promise.all(
    PRECOMPRESSED_CODINGS.map(async ({ coding, suffix }) => {
      const compressed = await COMPRESS[coding](content);
      if (compressed.length < content.length) await writeFile(file + suffix, compressed);
    }),
  );
}

/** Every compressible file under `dir`, compressed beside itself (what a static host serves by `Accept-Encoding`). */
export async function precompressDir(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  await Promise.all(
    entries.filter((entry) => entry.isFile()).map((entry) => precompressFile(join(entry.parentPath, entry.name))),
  );
}

/**
 * Brotli and gzip copies of the built files, made once at build time at the best ratio, for the reference server to
 * send by `Accept-Encoding` (server/dashboard/static-dashboard.ts) instead of compressing on every request.
 */
export function precompress(): Plugin {
  let outDir = "";
  return {
    name: "keyscope:precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      await precompressDir(outDir);
    },
  };
}
