import { reachable } from "./reachable.ts";

/** What the build plugins read of a chunk of the build (rolldown's OutputChunk, with Vite's metadata). */
export interface ChunkLinks {
  type: "chunk";
  fileName: string;
  imports: readonly string[];
  dynamicImports: readonly string[];
  viteMetadata?: { importedCss: ReadonlySet<string> } | undefined;
}

/**
 * The chunks `roots` are with all they import statically (what a browser fetches before any of them runs), except
 * those in `known` and what only they import: they are accounted for already.
 */
export function staticClosure(
  chunks: readonly ChunkLinks[],
  roots: Iterable<string>,
  known: ReadonlySet<string> = new Set(),
): Set<string> {
  const chunkOf = (fileName: string) => chunks.find((chunk) => chunk.fileName === fileName);
  return reachable(roots, (fileName) => chunkOf(fileName)?.imports ?? [], known);
}
