import type { Plugin } from "vite";
import { staticClosure, type ChunkLinks } from "./chunk-graph.ts";

/**
 * V8's explicit compile hint (Chromium 136 and later; a plain comment elsewhere): compile every function of the file
 * as the script is streamed in, on a background thread, instead of each one on the main thread the first time it
 * runs. It must be the file's first line.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/**
 * The chunks the page's entry runs on the first screen: itself and the chunks it starts at once (the app, and the
 * keys page in a tab holding a key), with all they import statically. Nearly every function in them runs before
 * the first key row; what loads later (other pages, the virtualizer, sorting) is compiled lazily, as it runs.
 */
export function firstScreenChunks(chunks: readonly ChunkLinks[], entry: ChunkLinks): string[] {
  return [...staticClosure(chunks, [entry.fileName, ...entry.dynamicImports])];
}

/** A source map (its JSON text) of a file that gained one first line: every mapping one line down. */
export function mapOneLineDown(map: string): string {
  const parsed: unknown = JSON.parse(map);
  if (typeof parsed !== "object" || parsed === null || !("mappings" in parsed) || typeof parsed.mappings !== "string") {
    throw new Error("compile hints: a source map without mappings");
  }
  return JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
}

function hintedChunks(chunks: readonly (ChunkLinks & { isEntry: boolean })[]): Set<string> {
  const entry = chunks.find((chunk) => chunk.isEntry);
  return new Set(entry === undefined ? [] : firstScreenChunks(chunks, entry));
}

/**
 * Puts COMPILE_HINT atop the first screen's chunks: their compilation moves off the main thread, which is what the
 * first key row waits for once the code is here (`npx tsx bench/trace-first-row.ts`: main-thread CPU before the row).
 * Whether a chunk is hinted depends on what imports it, not on its own code, so the hint also goes into the chunk's
 * content hash: a chunk that gains or loses it gets a new name, never new bytes under a name a browser has cached
 * for a year (the server sends hashed assets as immutable).
 */
export function compileHints(): Plugin {
  // Chosen as the chunks are rendered (every renderChunk runs before the hashes are taken), by preliminary names.
  let hintedByRenderName = new Set<string>();
  return {
    name: "keyscope:compile-hints",
    apply: "build",
    renderChunk(_code, _chunk, _options, meta) {
      hintedByRenderName = hintedChunks(Object.values(meta.chunks));
      return null;
    },
    augmentChunkHash(chunk) {
      return hintedByRenderName.has(chunk.fileName) ? COMPILE_HINT : undefined;
    },
    generateBundle: {
      // After Vite's own generateBundle, which puts its preload map on the first line.
      order: "post",
      handler(_options, bundle) {
        const chunks = Object.values(bundle).flatMap((output) => (output.type === "chunk" ? [output] : []));
        for (const fileName of hintedChunks(chunks)) {
          const chunk = bundle[fileName];
          if (chunk?.type !== "chunk") continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          // The map of the chunk (what a later plugin reads) and its file (what the browser's tools read).
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
          const map = bundle[`${fileName}.map`];
          if (map?.type === "asset" && typeof map.source === "string") map.source = mapOneLineDown(map.source);
        }
      },
    },
  };
}
